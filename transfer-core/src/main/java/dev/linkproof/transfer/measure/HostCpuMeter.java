package dev.linkproof.transfer.measure;

import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Measures {@link HostContention} over a window from {@code /proc}: the host's user, nice, system and
 * steal time less that of this JVM, its descendants (the local agent) and any process named ours; a
 * descendant that exits inside the window counts as other. Interrupt time is left out: where the
 * kernel accounts it apart ({@code CONFIG_IRQ_TIME_ACCOUNTING}) a tcp point's own loopback receive
 * runs in softirq and would count as other, and elsewhere leaving it out errs toward fewer reruns.
 * Figures are differences of 10 ms ticks ({@code USER_HZ} 100), so a window under
 * {@link #MIN_WINDOW_NANOS} gives none (a few ms once gave ours 4.5 of 2 CPUs); all clamp to 0..cpus.
 */
public final class HostCpuMeter {
    /** Shorter windows give no figure: a few ticks of rounding would be too much of them. */
    public static final long MIN_WINDOW_NANOS = 100_000_000L;

    private static final double TICKS_PER_SECOND = 100;

    private HostCpuMeter() {}

    /** A window opened on this host's {@code /proc} for this JVM and its descendants. */
    public static Window start() {
        return start(Set.of());
    }

    /**
     * As {@link #start()}, with {@code alsoOurs} (pids: an agent on this host that is no child of ours)
     * counted as ours. The engine and the agent open a window for every point, whose readings cost
     * 0.2-0.3 ms of CPU a point on each side and a quarter of the engine's allocation
     * (bench/engine-overhead.sh). So the start reuses the process tree walked up to
     * {@link #TREE_REUSE_NANOS} before (a descendant started since counts from zero), and reads
     * {@code /proc} on a daemon thread {@link #START_DELAY_NANOS} later, where the window begins: a small
     * point's window, which could give no figure anyway, reads nothing. The end walks the tree afresh.
     */
    public static Window start(Set<Long> alsoOurs) {
        return start(Path.of("/proc"), alsoOurs, START_DELAY_NANOS);
    }

    /** As {@link #start(Set)}, over {@code proc}, the start's reading {@code delayNanos} after this call. */
    static Window start(Path proc, Set<Long> alsoOurs, long delayNanos) {
        long self = ProcessHandle.current().pid();
        long opened = System.nanoTime();
        Future<Optional<Snapshot>> begin = READINGS.schedule(
                () -> Snapshot.take(proc, ours(proc, self, alsoOurs, false), System::nanoTime),
                delayNanos,
                TimeUnit.NANOSECONDS);
        return new Window(proc, () -> ours(proc, self, alsoOurs, true), System::nanoTime, opened, begin);
    }

    /**
     * How long after {@link #start(Set)} a window's first reading is taken: short against
     * {@link #MIN_WINDOW_NANOS}, long against a small point (1-3 ms here).
     */
    static final long START_DELAY_NANOS = 5_000_000L;

    /** Takes the readings that open windows; a reading not yet due when its window closes is dropped. */
    private static final ScheduledExecutorService READINGS = readings();

    private static ScheduledExecutorService readings() {
        ScheduledThreadPoolExecutor e = new ScheduledThreadPoolExecutor(
                1, Thread.ofPlatform().daemon().name("linkproof-host-meter").factory());
        e.setRemoveOnCancelPolicy(true);
        return e;
    }

    /** How old a walk of this JVM's process tree a window's start may take. */
    static final long TREE_REUSE_NANOS = 1_000_000_000L;

    /** The last walk of this JVM's process tree and when it was made ({@link System#nanoTime()}). */
    private record Walk(Set<Long> pids, long at) {}

    private static volatile Walk lastWalk;

    private static Set<Long> ours(Path proc, long self, Set<Long> alsoOurs, boolean fresh) {
        long now = System.nanoTime();
        Walk w = lastWalk;
        if (fresh || w == null || now - w.at() > TREE_REUSE_NANOS) {
            w = new Walk(Set.copyOf(treeOf(proc, self)), now);
            lastWalk = w;
        }
        Set<Long> pids = new HashSet<>(w.pids());
        pids.addAll(alsoOurs);
        return pids;
    }

    /**
     * One look at this host: a window of {@code length}, slept through. What an agent answers LOAD
     * with, and what the engine looks at before a rerun.
     */
    public static Optional<HostContention> over(java.time.Duration length) throws InterruptedException {
        Window w = start();
        // The window begins when its first reading is taken (on another thread, later under load): the
        // length asked is counted from there, so the window is never shorter than asked.
        w.awaitBegun();
        Thread.sleep(length);
        return w.stop();
    }

    /**
     * The running kernel's boot id ({@code /proc/sys/kernel/random/boot_id}): two processes that read
     * the same one share {@code /proc/stat}'s CPUs (one host, or containers on it), so each counts the
     * other's CPU time as "other" unless told it is ours. Empty where it cannot be read. Read once: it
     * names the kernel this process runs on, which does not change under it.
     */
    public static Optional<String> kernelBootId() {
        return BootId.ID;
    }

    private static final class BootId {
        static final Optional<String> ID = read();

        private static Optional<String> read() {
            try {
                String id = Files.readString(Path.of("/proc/sys/kernel/random/boot_id"))
                        .strip();
                return id.isEmpty() ? Optional.empty() : Optional.of(id);
            } catch (IOException | RuntimeException e) {
                return Optional.empty();
            }
        }
    }

    /**
     * A window over {@code proc} (a {@code /proc}-shaped tree) whose own processes are those {@code ours}
     * names at each snapshot, timed by {@code clock} (nanoseconds).
     */
    public static Window start(Path proc, Supplier<Set<Long>> ours, LongSupplier clock) {
        long opened = clock.getAsLong();
        return new Window(
                proc, ours, clock, opened, CompletableFuture.completedFuture(Snapshot.take(proc, ours.get(), clock)));
    }

    /**
     * {@code pid} and its descendants, walked through {@code /proc/PID/task/TID/children}: a few small
     * reads per process of ours (measured: ~0.25 ms for a JVM of 20 threads here), where
     * {@link ProcessHandle#descendants()} reads every process on the host (~0.7 ms for 66 processes
     * here, ten times that on a GPU node with a thousand). Falls back to it where the kernel has no
     * children files ({@code CONFIG_PROC_CHILDREN}).
     */
    static Set<Long> treeOf(Path proc, long pid) {
        Set<Long> tree = new HashSet<>();
        tree.add(pid);
        Deque<Long> todo = new ArrayDeque<>(List.of(pid));
        try {
            while (!todo.isEmpty()) {
                long p = todo.pop();
                try (DirectoryStream<Path> tasks =
                        Files.newDirectoryStream(proc.resolve(Long.toString(p)).resolve("task"))) {
                    for (Path task : tasks) {
                        String children;
                        try {
                            children = Files.readString(task.resolve("children"));
                        } catch (IOException e) {
                            if (!exited(task)) {
                                throw e; // a live thread without the file: no CONFIG_PROC_CHILDREN here
                            }
                            // A thread that exited while we looked (at a point's end its tcp-serve, its
                            // control watch): it had no children of ours left. Not a reason to read every
                            // process on the host, as the fallback below does.
                            continue;
                        }
                        for (String child : children.trim().split("\\s+")) {
                            if (!child.isEmpty() && tree.add(Long.parseLong(child))) {
                                todo.push(Long.parseLong(child));
                            }
                        }
                    }
                } catch (IOException | DirectoryIteratorException e) {
                    if (p == pid || !exited(proc.resolve(Long.toString(p)))) {
                        throw e;
                    }
                    // A descendant (or one of its threads) that exited while we looked: nothing below it.
                }
            }
            return tree;
        } catch (IOException | RuntimeException e) {
            Set<Long> all = new HashSet<>();
            all.add(pid);
            ProcessHandle.of(pid).ifPresent(h -> h.descendants().forEach(d -> all.add(d.pid())));
            return all;
        }
    }

    /**
     * Whether the process or thread of {@code dir} ({@code /proc/PID} or {@code /proc/PID/task/TID}) is
     * gone, asked after a read under it failed. A read that opened its file before the process was
     * released fails with ESRCH ("No such process"), a plain IOException, not a NoSuchFileException:
     * polling a process that exits this way hit it one time in four here (2026-12-06). Once released, its
     * directory is gone too, so that is what tells an exit from a real error.
     */
    static boolean exited(Path dir) {
        return !Files.isDirectory(dir);
    }

    /** Two snapshots apart; {@link #stop()} closes it. */
    public static final class Window {
        private final Path proc;
        private final Supplier<Set<Long>> ours;
        private final LongSupplier clock;
        /** When the window was opened ({@code clock}); its reading may come a little after. */
        private final long opened;

        private final Future<Optional<Snapshot>> start;

        private Window(
                Path proc,
                Supplier<Set<Long>> ours,
                LongSupplier clock,
                long opened,
                Future<Optional<Snapshot>> start) {
            this.proc = proc;
            this.ours = ours;
            this.clock = clock;
            this.opened = opened;
            this.start = start;
        }

        /** Whether the window's first reading was dropped, never taken (a window closed before it was due). */
        boolean startDropped() {
            return start.isCancelled();
        }

        /** Returns once the window's first reading is taken (or could not be). */
        void awaitBegun() throws InterruptedException {
            try {
                start.get();
            } catch (ExecutionException | java.util.concurrent.CancellationException e) {
                // no reading: stop() says so
            }
        }

        /**
         * The contention since {@link #start}; empty where {@code /proc} is missing or unreadable
         * (not Linux, a restricted container), or the window was shorter than {@link #MIN_WINDOW_NANOS}.
         */
        public Optional<HostContention> stop() {
            // Too short to give a figure whatever /proc says: not read at all (a point of a few
            // milliseconds would spend a fair part of them reading it).
            if (clock.getAsLong() - opened < MIN_WINDOW_NANOS) {
                start.cancel(false); // not taken yet (a window of a few ms): never taken
                return Optional.empty();
            }
            Optional<Snapshot> first;
            try {
                first = start.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            } catch (ExecutionException | java.util.concurrent.CancellationException e) {
                return Optional.empty(); // no reading, or one dropped by an earlier stop of a short window
            }
            if (first.isEmpty()) {
                return Optional.empty();
            }
            Snapshot begin = first.get();
            // A process that became ours inside the window (an agent started by this point) counts
            // from zero; one that exited inside it is lost (see the class comment).
            Optional<Snapshot> end = Snapshot.take(proc, ours.get(), clock);
            if (end.isEmpty()) {
                return Optional.empty();
            }
            long wall = end.get().nanoTime() - begin.nanoTime();
            // The readings span the window less the start's delay, at least.
            if (wall < MIN_WINDOW_NANOS - START_DELAY_NANOS) {
                return Optional.empty();
            }
            double seconds = wall / 1e9;
            double busy = (end.get().busyTicks() - begin.busyTicks()) / TICKS_PER_SECOND;
            long ownTicks = 0;
            for (var e : end.get().perPid().entrySet()) {
                ownTicks += Math.max(0, e.getValue() - begin.perPid().getOrDefault(e.getKey(), 0L));
            }
            double own = ownTicks / TICKS_PER_SECOND;
            double other = Math.max(0, busy - own);
            int cpus = end.get().cpus();
            return Optional.of(
                    new HostContention(Math.min(cpus, other / seconds), Math.min(cpus, own / seconds), cpus, wall));
        }
    }

    /** One reading: host busy ticks, CPU count, and the CPU ticks of each of our processes still running. */
    private record Snapshot(long nanoTime, long busyTicks, int cpus, Map<Long, Long> perPid) {
        static Optional<Snapshot> take(Path proc, Set<Long> pids, LongSupplier clock) {
            long now = clock.getAsLong();
            try {
                long busy = -1;
                int cpus = 0;
                for (String line : Files.readAllLines(proc.resolve("stat"))) {
                    // Only the cpu lines are split: the intr line alone holds a number per interrupt source.
                    if (!line.startsWith("cpu")) {
                        continue;
                    }
                    if (line.length() > 3 && Character.isDigit(line.charAt(3))) {
                        cpus++;
                        continue;
                    }
                    String[] f = line.trim().split("\\s+");
                    if (f[0].equals("cpu")) {
                        busy = busyTicks(f);
                    }
                }
                if (busy < 0 || cpus == 0) {
                    return Optional.empty();
                }
                Map<Long, Long> perPid = new HashMap<>();
                for (long pid : pids) {
                    processTicks(proc.resolve(Long.toString(pid)).resolve("stat"))
                            .ifPresent(t -> perPid.put(pid, t));
                }
                return Optional.of(new Snapshot(now, busy, cpus, perPid));
            } catch (IOException | RuntimeException e) {
                return Optional.empty();
            }
        }

        /**
         * user nice system idle iowait irq softirq steal [guest guest_nice]: user, nice, system and
         * steal (guest time is inside user already; irq and softirq are left out, see the class comment).
         */
        private static long busyTicks(String[] f) {
            if (f.length < 9) {
                throw new IllegalArgumentException("short cpu line");
            }
            long sum = 0;
            for (int i : new int[] {1, 2, 3, 8}) {
                sum += Long.parseLong(f[i]);
            }
            return sum;
        }

        /** utime + stime (fields 14 and 15) of /proc/PID/stat; empty for a process that has exited. */
        private static Optional<Long> processTicks(Path stat) throws IOException {
            String text;
            try {
                text = Files.readString(stat);
            } catch (NoSuchFileException e) {
                return Optional.empty();
            } catch (IOException e) {
                if (exited(stat.getParent())) {
                    return Optional.empty();
                }
                throw e;
            }
            // The command name (field 2) is in parentheses and may hold spaces; count from after it.
            String[] f = text.substring(text.lastIndexOf(')') + 2).trim().split("\\s+");
            return Optional.of(Long.parseLong(f[11]) + Long.parseLong(f[12]));
        }
    }
}
