package dev.linkproof.conformance.bench;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Per-thread CPU of a process, from {@code /proc/<pid>/task/<tid>/stat}, so a pass's CPU per point can be split by
 * the thread that spent it (the points' thread, JIT compilers, GC, helpers, an agent's control and data threads):
 * JVM-internal threads are invisible to the ThreadMXBean, so {@code /proc} it is. Snapshots are taken at the pass's
 * first point's end and its last's; threads are grouped by name less digits ({@code GC Thread#0} and {@code #1} are
 * one group). Threads that ended in between show as "threads gone" (the process's total less the threads seen),
 * with a count of threads started: a thread per point shows there. A group's kernel share is given from 0.05 ms a
 * point (file and socket work, which a user-space fix does not reach). Linux only; elsewhere snapshots are empty.
 */
final class ThreadCpu {
    /** USER_HZ: the unit of utime and stime in /proc; 100 on every Linux the project runs on. */
    private static final double TICK_MS = 10.0;

    private final Map<Long, String> names;
    private final Map<Long, Long> ticks;
    /** Of {@link #ticks}, those spent in the kernel (stime): file and socket work shows there. */
    private final Map<Long, Long> systemTicks;

    private final long processTicks;
    private final long allocated;
    private final long gcCount;
    private final long gcMillis;

    private ThreadCpu(
            Map<Long, String> names,
            Map<Long, Long> ticks,
            Map<Long, Long> systemTicks,
            long processTicks,
            long allocated,
            long gcCount,
            long gcMillis) {
        this.names = names;
        this.ticks = ticks;
        this.systemTicks = systemTicks;
        this.processTicks = processTicks;
        this.allocated = allocated;
        this.gcCount = gcCount;
        this.gcMillis = gcMillis;
    }

    /** This JVM's threads, with its heap allocation so far (all threads) and its GCs. */
    static ThreadCpu self() {
        long allocated = -1;
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t
                && t.isThreadAllocatedMemorySupported()) {
            allocated = t.getTotalThreadAllocatedBytes();
        }
        long count = 0;
        long millis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, gc.getCollectionCount());
            millis += Math.max(0, gc.getCollectionTime());
        }
        return of(ProcessHandle.current().pid(), allocated, count, millis);
    }

    /** Another process's threads (the local agent), where it still runs. */
    static ThreadCpu of(long pid) {
        return of(pid, -1, -1, -1);
    }

    private static ThreadCpu of(long pid, long allocated, long gcCount, long gcMillis) {
        Map<Long, String> names = new HashMap<>();
        Map<Long, Long> ticks = new HashMap<>();
        Map<Long, Long> system = new HashMap<>();
        long process = 0;
        Path proc = Path.of("/proc", Long.toString(pid));
        try {
            process = cpuTicks(Files.readString(proc.resolve("stat"), StandardCharsets.US_ASCII), null, null);
            try (DirectoryStream<Path> tasks = Files.newDirectoryStream(proc.resolve("task"))) {
                for (Path task : tasks) {
                    String stat;
                    try {
                        stat = Files.readString(task.resolve("stat"), StandardCharsets.US_ASCII);
                    } catch (IOException gone) {
                        continue; // the thread ended while we walked
                    }
                    long tid = Long.parseLong(task.getFileName().toString());
                    String[] name = new String[1];
                    long[] sys = new long[1];
                    ticks.put(tid, cpuTicks(stat, name, sys));
                    names.put(tid, name[0]);
                    system.put(tid, sys[0]);
                }
            }
        } catch (IOException | RuntimeException notLinux) {
            return new ThreadCpu(Map.of(), Map.of(), Map.of(), 0, allocated, gcCount, gcMillis);
        }
        return new ThreadCpu(names, ticks, system, process, allocated, gcCount, gcMillis);
    }

    /**
     * utime + stime of a stat line; the comm (between the parentheses, which may hold spaces) into
     * name[0], stime into system[0].
     */
    private static long cpuTicks(String stat, String[] name, long[] system) {
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        if (name != null) {
            name[0] = stat.substring(open + 1, close);
        }
        String[] f = stat.substring(close + 2).trim().split(" ");
        // after the comm: state(0) ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime(11) stime(12)
        if (system != null) {
            system[0] = Long.parseLong(f[12]);
        }
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /**
     * What happened between {@code before} and this snapshot, per point: CPU ms by thread group (largest
     * first, groups under 0.05 ms a point folded into "other"), threads gone, threads started, and for
     * this JVM its allocation and GCs.
     */
    String perPoint(ThreadCpu before, long points, String label) {
        if (names.isEmpty() || before.names.isEmpty() || points < 1) {
            return label + ": per-thread CPU n/a (no /proc)";
        }
        Map<String, Long> byGroup = new HashMap<>();
        Map<String, Integer> threads = new HashMap<>();
        Map<String, Long> bySystem = new HashMap<>();
        long seen = 0;
        int started = 0;
        for (Map.Entry<Long, Long> e : ticks.entrySet()) {
            long earlier = before.ticks.getOrDefault(e.getKey(), 0L);
            if (!before.ticks.containsKey(e.getKey())) {
                started++;
            }
            long d = e.getValue() - earlier;
            seen += d;
            String group = group(names.get(e.getKey()));
            byGroup.merge(group, d, Long::sum);
            bySystem.merge(
                    group, systemTicks.get(e.getKey()) - before.systemTicks.getOrDefault(e.getKey(), 0L), Long::sum);
            threads.merge(group, 1, Integer::sum);
        }
        long total = processTicks - before.processTicks;
        // Ended threads: the process's total (which keeps their CPU) less what the live threads gained.
        long gone = Math.max(0, total - seen);
        int ended = 0;
        for (Long tid : before.ticks.keySet()) {
            if (!ticks.containsKey(tid)) {
                ended++;
            }
        }
        List<Map.Entry<String, Long>> sorted = new ArrayList<>(byGroup.entrySet());
        sorted.sort(Map.Entry.<String, Long>comparingByValue().reversed());
        StringBuilder b = new StringBuilder(label)
                .append(": CPU per point, ms, by thread (")
                .append(points)
                .append(" points): total ")
                .append(ms(total, points));
        long other = 0;
        for (Map.Entry<String, Long> e : sorted) {
            double v = e.getValue() * TICK_MS / points;
            if (v < 0.05) {
                other += e.getValue();
                continue;
            }
            b.append("; ").append(e.getKey());
            int n = threads.get(e.getKey());
            if (n > 1) {
                b.append(" (").append(n).append(')');
            }
            b.append(' ').append(ms(e.getValue(), points));
            long sys = bySystem.get(e.getKey());
            if (sys * TICK_MS / points >= 0.05) {
                b.append(" (sys ").append(ms(sys, points)).append(')');
            }
        }
        if (other > 0) {
            b.append("; other ").append(ms(other, points));
        }
        b.append("; threads gone ")
                .append(ms(gone, points))
                .append(" (")
                .append(ended)
                .append(" ended, ")
                .append(started)
                .append(" started)");
        if (allocated >= 0 && before.allocated >= 0) {
            b.append("; allocated ")
                    .append(String.format(Locale.ROOT, "%.1f KiB", (allocated - before.allocated) / 1024.0 / points));
        }
        if (gcCount >= 0 && before.gcCount >= 0) {
            b.append("; GCs ")
                    .append(gcCount - before.gcCount)
                    .append(" taking ")
                    .append(gcMillis - before.gcMillis)
                    .append(" ms");
        }
        return b.toString();
    }

    /** A thread's group: its name without digits (pool and worker numbers), trimmed. */
    private static String group(String name) {
        String g = name.replaceAll("[0-9]+", "N").trim();
        return g.isEmpty() ? "?" : g;
    }

    private static String ms(long ticks, long points) {
        return String.format(Locale.ROOT, "%.2f", ticks * TICK_MS / points);
    }
}
