package dev.linkproof.conformance.bench;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.launcher.EngineFilter.includeEngines;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.measure.Phases;
import dev.linkproof.transfer.session.LocalAgent;
import dev.linkproof.transfer.session.Session;
import dev.linkproof.transfer.session.Timeouts;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The runner of {@code bench/engine-overhead.sh}, whose header says what each measurement is and defines the TSV's
 * figures. {@code engine <fixture class> <allure-results dir> <out prefix>} runs the fixture's points on the JUnit
 * Platform in this JVM with Allure's listener (each pass's results in a folder of its own, {@code cold/} or
 * {@code warm/}); {@code floor <count> <out prefix>} runs the same points through transfer-core alone, one
 * {@link Session} in a bare loop; {@code discover <fixture class>} only discovers. The first two run their points once
 * per {@link #PASSES pass}, writing {@code <out prefix>-<pass>.tsv}: per point, in nanoseconds, {@code name status
 * wall cadence provision connect warmup loop verify transfer allure cpu} (allure 0 in the floor, -1 without Allure).
 */
public final class EngineOverhead {
    /** The phases a point's measurement records, in order, as the TSV names them. */
    static final List<String> PHASES = List.of("provision", "register and connect", "warmup", "timed loop", "verify");

    /**
     * Each side runs its points twice in one JVM: "cold" as a user's {@code mvn test} meets them (the
     * JIT compiling the engine's code while it runs them: on two CPUs it takes one of them for most
     * of the first thousand points), then "warm", the same points again, as the rest of a longer run
     * meets them. Each pass starts its own local agent, a cold JVM on both sides alike.
     */
    static final List<String> PASSES = List.of("cold", "warm");

    /** CPU time of the thread that runs the points (the launcher's, the floor's loop). */
    private static final java.lang.management.ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private EngineOverhead() {}

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "engine" -> {
                for (String pass : PASSES) {
                    engine(Class.forName(args[1]), Path.of(args[2]), Path.of(args[3] + "-" + pass + ".tsv"), pass);
                }
            }
            case "floor" -> {
                for (String pass : PASSES) {
                    floor(Integer.parseInt(args[1]), Path.of(args[2] + "-" + pass + ".tsv"), pass);
                }
            }
            case "discover" -> discover(Class.forName(args[1]));
            default -> throw new IllegalArgumentException("engine | floor | discover, not " + args[0]);
        }
        System.exit(0);
    }

    /** One point's timing; {@code allure}: the time Allure's listener spent on it (-1: not timed). */
    record Row(String name, String status, long wall, long cadence, long[] phases, long allure, long cpu) {
        String tsv() {
            StringBuilder b = new StringBuilder(name)
                    .append('\t')
                    .append(status)
                    .append('\t')
                    .append(wall)
                    .append('\t')
                    .append(cadence);
            long transfer = 0;
            for (long p : phases) {
                b.append('\t').append(p);
                transfer += Math.max(0, p);
            }
            return b.append('\t')
                    .append(transfer)
                    .append('\t')
                    .append(allure)
                    .append('\t')
                    .append(cpu)
                    .toString();
        }
    }

    /** Allure's JUnit Platform listener, which registers itself through the ServiceLoader where it is on the class path. */
    static final String ALLURE_LISTENER = "io.qameta.allure.junitplatform.AllureJunitPlatform";

    /**
     * Allure's listener, registered here through a proxy that adds up, per test, the time its calls
     * about that test take (its own automatic registration deactivated, so it runs once); null where
     * Allure is not on the class path.
     */
    private static TestExecutionListener timedAllure(Map<String, Long> spent, Path dir) {
        TestExecutionListener allure;
        try {
            Class<?> listener = Class.forName(ALLURE_LISTENER);
            // The pass's own results folder. Not the pass before's, emptied: on ext4 a file created
            // within ~30 s of thousands deleted nearby makes the kernel's inode allocator skip each
            // recently deleted one (recently_deleted in find_inode_bit), which charged the warm pass
            // 1.2 ms of system time a point on the attachment writer and as much on the points' thread.
            io.qameta.allure.AllureLifecycle lifecycle =
                    new io.qameta.allure.AllureLifecycle(new io.qameta.allure.FileSystemResultsWriter(dir));
            io.qameta.allure.Allure.setLifecycle(lifecycle); // what the engine's AllureBridge writes through
            allure = (TestExecutionListener) listener.getDeclaredConstructor(io.qameta.allure.AllureLifecycle.class)
                    .newInstance(lifecycle);
        } catch (ReflectiveOperationException e) {
            return null;
        }
        System.setProperty("junit.platform.execution.listeners.deactivate", ALLURE_LISTENER);
        return (TestExecutionListener) java.lang.reflect.Proxy.newProxyInstance(
                EngineOverhead.class.getClassLoader(),
                new Class<?>[] {TestExecutionListener.class},
                (proxy, method, args) -> {
                    if (method.getDeclaringClass() == Object.class) {
                        return method.invoke(allure, args);
                    }
                    long t0 = System.nanoTime();
                    try {
                        return method.invoke(allure, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    } finally {
                        long dt = System.nanoTime() - t0;
                        if (args != null && args.length > 0 && args[0] instanceof TestIdentifier id && id.isTest()) {
                            spent.merge(id.getUniqueId(), dt, Long::sum);
                        }
                    }
                });
    }

    private static void engine(Class<?> fixture, Path allureRoot, Path out, String pass) throws IOException {
        Path allure = allureRoot.resolve(pass); // the pass before's results have the same names
        Files.createDirectories(allure);
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(fixture))
                .filters(includeEngines("linkproof"))
                .build();
        Map<String, Long> started = new ConcurrentHashMap<>();
        Map<String, Long> allureSpent = new ConcurrentHashMap<>();
        List<String[]> finished = new ArrayList<>(); // name, status, start, end, unique id
        long[][] cpu = new long[2][]; // after the first point, after the last
        ThreadCpu[][] threads = new ThreadCpu[2][]; // this JVM's and its agent's, after the first point, after the last
        long[] tests = new long[1];
        TestExecutionListener timer = new TestExecutionListener() {
            @Override
            public void testPlanExecutionStarted(TestPlan plan) {
                tests[0] = plan.countTestIdentifiers(TestIdentifier::isTest);
            }

            @Override
            public void executionStarted(TestIdentifier id) {
                if (id.isTest()) {
                    started.put(id.getUniqueId(), System.nanoTime());
                }
            }

            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                if (id.isTest()) {
                    long end = System.nanoTime();
                    long cpuEnd = THREADS.getCurrentThreadCpuTime();
                    int n;
                    synchronized (finished) {
                        finished.add(new String[] {
                            id.getDisplayName(),
                            result.getStatus().name().toLowerCase(),
                            Long.toString(started.get(id.getUniqueId())),
                            Long.toString(end),
                            id.getUniqueId(),
                            Long.toString(cpuEnd)
                        });
                        n = finished.size();
                    }
                    if (n == 1 || n == tests[0]) {
                        cpu[n == 1 ? 0 : 1] = cpuNow();
                        threads[n == 1 ? 0 : 1] = threadsNow();
                    }
                }
            }

            @Override
            public void executionSkipped(TestIdentifier id, String reason) {
                if (id.isTest()) {
                    synchronized (finished) {
                        finished.add(new String[] {id.getDisplayName(), "skipped", "0", "0", id.getUniqueId(), "-1"});
                    }
                }
            }
        };
        TestExecutionListener allureListener = timedAllure(allureSpent, allure);
        long t0 = System.nanoTime();
        if (allureListener == null) {
            LauncherFactory.create().execute(request, timer);
        } else {
            // Allure first, as the ServiceLoader would have registered it: its executionStarted runs
            // before the timer's, its executionFinished after (the launcher reverses the order).
            LauncherFactory.create().execute(request, allureListener, timer);
        }
        long runNanos = System.nanoTime() - t0;

        Map<String, long[]> phasesByName = allurePhases(allure);
        List<Row> rows = new ArrayList<>();
        long previousEnd = -1;
        long previousCpu = -1;
        for (String[] f : finished) {
            long start = Long.parseLong(f[2]);
            long end = Long.parseLong(f[3]);
            long cpuEnd = Long.parseLong(f[5]);
            long[] phases = phasesByName.getOrDefault(f[0], missing());
            rows.add(new Row(
                    f[0],
                    f[1],
                    end - start,
                    previousEnd < 0 ? -1 : end - previousEnd,
                    phases,
                    allureListener == null ? -1 : allureSpent.getOrDefault(f[4], 0L),
                    previousCpu < 0 || cpuEnd < 0 ? -1 : cpuEnd - previousCpu));
            previousEnd = end;
            previousCpu = cpuEnd;
        }
        write(out, rows);
        System.out.printf(
                "engine, %s: %d points in %.2f s (launcher execute, agent start included); %d with phases from Allure;"
                        + " %s%n",
                pass,
                rows.size(),
                runNanos / 1e9,
                rows.stream().filter(r -> r.phases()[0] >= 0).count(),
                cpuPerPoint(cpu[0], cpu[1], rows.size() - 1));
        printThreads("engine, " + pass, threads[0], threads[1], rows.size() - 1);
    }

    /** This JVM's threads and its child's (the local agent), as {@link ThreadCpu} snapshots. */
    private static ThreadCpu[] threadsNow() {
        ThreadCpu self = ThreadCpu.self();
        // The pass's own agent: the youngest child (the pass before's may still be on its way out).
        ThreadCpu agent = ProcessHandle.current()
                .children()
                .max(java.util.Comparator.comparing(c -> c.info().startInstant().orElse(java.time.Instant.EPOCH)))
                .map(c -> ThreadCpu.of(c.pid()))
                .orElse(null);
        return new ThreadCpu[] {self, agent};
    }

    private static void printThreads(String label, ThreadCpu[] first, ThreadCpu[] last, long points) {
        if (first == null || last == null) {
            return;
        }
        System.out.println(last[0].perPoint(first[0], points, label + ", this JVM"));
        if (first[1] != null && last[1] != null) {
            System.out.println(last[1].perPoint(first[1], points, label + ", its agent"));
        }
    }

    /**
     * CPU time so far, in ns: this JVM's, and its child processes' (the local agent). Read after the
     * first point and after the last, so the difference is what the points between cost, whatever
     * else kept the host's CPUs busy.
     */
    private static long[] cpuNow() {
        long self = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
        long children = ProcessHandle.current()
                .children()
                .mapToLong(c -> c.info()
                        .totalCpuDuration()
                        .map(java.time.Duration::toNanos)
                        .orElse(0L))
                .sum();
        return new long[] {self, children};
    }

    private static String cpuPerPoint(long[] first, long[] last, long points) {
        if (first == null || last == null || points < 1) {
            return "cpu per point: n/a";
        }
        return String.format(
                java.util.Locale.ROOT,
                "cpu per point: %.3f ms this JVM, %.3f ms its agent (over %d points)",
                (last[0] - first[0]) / 1e6 / points,
                (last[1] - first[1]) / 1e6 / points,
                points);
    }

    private static long[] missing() {
        long[] none = new long[PHASES.size()];
        java.util.Arrays.fill(none, -1);
        return none;
    }

    /** Test name → phase nanoseconds, from every Allure result's measurement.json attachment. */
    private static Map<String, long[]> allurePhases(Path dir) throws IOException {
        ObjectMapper json = new ObjectMapper();
        Map<String, long[]> out = new HashMap<>();
        List<Path> results;
        try (Stream<Path> s = Files.list(dir)) {
            results = s.filter(p -> p.getFileName().toString().endsWith("-result.json"))
                    .toList();
        }
        for (Path p : results) {
            JsonNode r = json.readTree(p.toFile());
            for (JsonNode a : r.path("attachments")) {
                if (!"measurement.json".equals(a.path("name").asText())) {
                    continue;
                }
                JsonNode m =
                        json.readTree(dir.resolve(a.path("source").asText()).toFile());
                long[] phases = missing();
                for (JsonNode ph : m.path("phases")) {
                    int i = PHASES.indexOf(ph.path("name").asText());
                    if (i >= 0) {
                        phases[i] = ph.path("nanos").asLong();
                    }
                }
                out.put(r.path("name").asText(), phases);
            }
        }
        return out;
    }

    private static void floor(int count, Path out, String pass) throws Exception {
        Path log = out.resolveSibling("floor-agent-" + pass + ".log");
        long t0 = System.nanoTime();
        List<Row> rows = new ArrayList<>();
        try (LocalAgent agent = LocalAgent.start(List.of("-Xmx256m"), log, Timeouts.DEFAULT.agentStart());
                Session session = Session.open(agent.host(), agent.port(), agent.token(), Timeouts.DEFAULT)) {
            long previousEnd = -1;
            long previousCpu = -1;
            long[] first = null;
            long[] last = null;
            ThreadCpu[] firstThreads = null;
            ThreadCpu[] lastThreads = null;
            for (int size = 1; size <= count; size++) {
                TransferSpec spec = TransferSpec.builder()
                        .pointId("floor[op=write,size=" + size + "]")
                        .transport("tcp")
                        .op(Op.WRITE)
                        .size(size)
                        .batch(1)
                        .connections(1)
                        .iterations(1)
                        .warmup(0)
                        .build();
                long start = System.nanoTime();
                Measurement m = session.run(spec);
                long end = System.nanoTime();
                long cpuEnd = THREADS.getCurrentThreadCpuTime();
                long[] phases = missing();
                for (Phases.Phase p : m.phases()) {
                    int i = PHASES.indexOf(p.name());
                    if (i >= 0) {
                        phases[i] = p.nanos();
                    }
                }
                rows.add(new Row(
                        "write " + size + " B",
                        m.isValid() ? "successful" : "invalid",
                        end - start,
                        previousEnd < 0 ? -1 : end - previousEnd,
                        phases,
                        0,
                        previousCpu < 0 ? -1 : cpuEnd - previousCpu));
                previousEnd = end;
                previousCpu = cpuEnd;
                if (size == 1) {
                    first = cpuNow();
                    firstThreads = threadsNow();
                } else if (size == count) {
                    last = cpuNow();
                    lastThreads = threadsNow();
                }
            }
            write(out, rows);
            System.out.printf(
                    "floor, %s: %d points in %.2f s (agent start included); %s%n",
                    pass, rows.size(), (System.nanoTime() - t0) / 1e9, cpuPerPoint(first, last, count - 1));
            printThreads("floor, " + pass, firstThreads, lastThreads, count - 1);
        }
    }

    private static void write(Path out, List<Row> rows) throws IOException {
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out, StandardCharsets.UTF_8))) {
            w.println("name\tstatus\twall\tcadence\tprovision\tconnect\twarmup\tloop\tverify\ttransfer\tallure\tcpu");
            for (Row r : rows) {
                w.println(r.tsv());
            }
        }
    }

    private static void discover(Class<?> fixture) {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(fixture))
                .filters(includeEngines("linkproof"))
                .build();
        long t0 = System.nanoTime();
        TestPlan plan = LauncherFactory.create().discover(request);
        long nanos = System.nanoTime() - t0;
        long tests = plan.countTestIdentifiers(TestIdentifier::isTest);
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        System.gc();
        long retained = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long max = Runtime.getRuntime().maxMemory();
        long cpu = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
        System.out.printf(
                "discover: %d points in %.2f s; heap peak %.0f MiB (sum of the heap pools' peaks), %.0f MiB held by"
                    + " the test plan after a GC; max heap %.0f MiB; this JVM's CPU from its start %.2f s (JIT and GC"
                    + " threads included)%n",
                tests, nanos / 1e9, peak / 1048576.0, retained / 1048576.0, max / 1048576.0, cpu / 1e9);
        java.lang.ref.Reference.reachabilityFence(plan);
    }
}
