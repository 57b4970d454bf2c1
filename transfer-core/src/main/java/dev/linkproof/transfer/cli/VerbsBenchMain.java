package dev.linkproof.transfer.cli;

import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.session.LocalAgent;
import dev.linkproof.transfer.session.Session;
import dev.linkproof.transfer.session.Timeouts;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.verbs.VerbsTransport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Our verbs WRITE, READ and atomic figures, measured the way bench/verbs-vs-perftest.sh and
 * bench/verbs-atomics-vs-perftest.sh compare them with perftest on the same device in the same run:
 * a local target agent, one session, one point per size, one machine-readable line per point. Each
 * mode takes its perftest tool's shape (128 WRs outstanding per QP, one signaled completion per 32);
 * the modes, arguments and settings: docs/benchmarks.md, "verbs against perftest". Every point first
 * runs unreported until a pass saw no JIT compilation finish: perftest is compiled C, our JVMs start
 * interpreted, and under TCG the JIT takes the VM's two vCPUs from Soft-RoCE's kernel for seconds.
 */
public final class VerbsBenchMain {
    private VerbsBenchMain() {}

    /** What a point measures; named on the command line and in the output line in lower case. */
    private enum BenchMode {
        BW,
        LAT,
        RLAT,
        FADD,
        CSWAP,
        FADD_LAT,
        CSWAP_LAT;

        /** Read before the agent starts, so a typo costs nothing but this message. */
        static BenchMode of(String name) {
            for (BenchMode m : values()) {
                if (m.label().equals(name)) {
                    return m;
                }
            }
            throw new IllegalArgumentException(
                    "unknown mode '" + name + "': bw, lat, rlat, fadd, cswap, fadd-lat or cswap-lat");
        }

        String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        Op op() {
            return switch (this) {
                case BW, LAT -> Op.WRITE;
                case RLAT -> Op.READ;
                case FADD, FADD_LAT -> Op.FETCH_ADD;
                case CSWAP, CSWAP_LAT -> Op.COMPARE_SWAP;
            };
        }

        boolean bandwidth() {
            return this == BW || this == FADD || this == CSWAP;
        }
    }

    public static void main(String[] args) throws Exception {
        List<BenchMode> modes = new ArrayList<>();
        List<long[]> points = new ArrayList<>();
        for (int a = 0; a + 1 < args.length; a += 2) {
            for (String p : args[a + 1].split(",")) {
                String[] kv = p.split(":");
                modes.add(BenchMode.of(args[a]));
                points.add(new long[] {
                    Long.parseLong(kv[0]), Long.parseLong(kv[1]), kv.length > 2 ? Long.parseLong(kv[2]) : 0
                });
            }
        }
        List<String> agentArgs = List.of(System.getProperty(LocalAgent.JVM_ARGS_KEY, LocalAgent.DEFAULT_JVM_ARGS)
                .trim()
                .split("\\s+"));
        Timeouts t = new Timeouts(
                Duration.ofSeconds(120),
                Duration.ofSeconds(300),
                new IoSettings(Duration.ofSeconds(60), Duration.ofSeconds(60)));
        try (LocalAgent agent = LocalAgent.start(
                        agentArgs, Path.of(System.getProperty(LocalAgent.LOG_KEY, "bench-agent.log")), t.agentStart());
                Session session = Session.open(agent.host(), agent.port(), agent.token(), t)) {
            // The warm pass again while the last one saw a compilation finish (at most WARM_PASSES): under TCG
            // a C2 compilation takes seconds, and one still running when the timed loop starts both leaves
            // that loop interpreted and takes one of the VM's two vCPUs from Soft-RoCE's kernel work
            // (measured: READ alone, 20,000 warm samples, p50 66-71 us; the same point after the WRITE
            // points, 40-43 us).
            var jit = java.lang.management.ManagementFactory.getCompilationMXBean();
            boolean timed = jit != null && jit.isCompilationTimeMonitoringSupported();
            for (int pass = 1; pass <= WARM_PASSES; pass++) {
                long compiled = timed ? jit.getTotalCompilationTime() : 0;
                for (int n = 0; n < points.size(); n++) {
                    // At least WARM_OPS ops (up to WARM_BYTES of data): a C2-only JVM (-XX:-TieredCompilation)
                    // compiles a method after some ten thousand calls, and a few thousand samples left the
                    // latency loop interpreted when the timed samples started (measured: READ p50 92 us
                    // against ib_read_lat's 31). Large transfers need no more: the per-op cost is nothing there.
                    long size = points.get(n)[0];
                    long warm = Math.max(
                            Math.max(1, points.get(n)[1] / 4), Math.min(WARM_OPS, WARM_BYTES / Math.max(1, size)));
                    run(session, "warm-" + pass + "-" + n, modes.get(n), size, warm, (int) points.get(n)[2]);
                }
                if (!timed || pass > 1 && jit.getTotalCompilationTime() == compiled) {
                    break;
                }
            }
            for (int n = 0; n < points.size(); n++) {
                long[] p = points.get(n);
                long size = p[0];
                Measurement m = run(session, "bench-" + n, modes.get(n), size, p[1], (int) p[2]);
                var l = m.latency();
                System.out.printf(
                        Locale.ROOT,
                        "linkproof-bench mode=%s size=%d transfers=%d GBps=%.4f avg_us=%.2f p50_us=%.2f p99_us=%.2f"
                                + " ops_per_s=%.0f qps=%d%n",
                        modes.get(n).label(),
                        size,
                        (long) m.spec().iterations() * m.spec().batch(),
                        m.bandwidthGBps(),
                        l.averageNanos() / 1e3,
                        l.hasPercentiles() ? l.p50Nanos() / 1e3 : Double.NaN,
                        l.hasPercentiles() ? l.p99Nanos() / 1e3 : Double.NaN,
                        m.opsPerSecond(),
                        m.spec().connections());
            }
        }
    }

    /** The least ops of a point's unreported warm pass, unless that is more than {@link #WARM_BYTES}. */
    private static final long WARM_OPS = 20_000;

    private static final long WARM_BYTES = 64L << 20;
    /** The most warm passes; more are run while a pass saw the JIT finish a compilation. */
    private static final int WARM_PASSES = 4;

    /** The QP count of atomic points (perftest's -q). */
    static final String QPS_ENV = "LINKPROOF_BENCH_QPS";
    /** The atomic points' verbs.rdAtomic (perftest's -o). */
    static final String RD_ATOMIC_ENV = "LINKPROOF_BENCH_RD_ATOMIC";

    /** {@code pointQps}: the point's own QP count (its third field), 0 where it names none. */
    private static Measurement run(Session session, String id, BenchMode mode, long size, long count, int pointQps)
            throws Exception {
        TransferSpec.Builder b = TransferSpec.builder()
                .pointId(id)
                .transport(VerbsTransport.ID)
                .op(mode.op())
                .size(size);
        boolean atomic = mode.op().atomic();
        // The bench's own knobs, from the environment: not the engine's configuration keys.
        int qps = pointQps > 0
                ? pointQps
                : atomic
                        ? Integer.parseInt(
                                System.getenv().getOrDefault(QPS_ENV, "1").strip())
                        : 1;
        Map<String, String> atomicSettings = new java.util.HashMap<>();
        String rdAtomic = System.getenv().getOrDefault(RD_ATOMIC_ENV, "");
        if (atomic && !rdAtomic.isBlank()) {
            atomicSettings.put("verbs.rdAtomic", rdAtomic.trim());
        }
        if (mode.bandwidth()) {
            // 4 batches of 32 WRs per QP in flight: each send queue is refilled 32 WRs at a time, close
            // to perftest's continuous refill; warmup long enough for the JIT to compile the loop.
            // An atomic batch is one WR per counter: 32 counters a QP give each QP the same 128.
            int batch = 32 * qps;
            int iterations = (int) Math.max(1, count / batch);
            Map<String, String> settings = new java.util.HashMap<>(Map.of(
                    "verbs.merge", "false", "verbs.signalEvery", "32", "verbs.postList", "1", "verbs.txDepth", "128"));
            settings.putAll(atomicSettings);
            b.mode(Mode.BANDWIDTH)
                    .batch(batch)
                    .pipelineDepth(4)
                    .iterations(iterations)
                    .connections(qps)
                    .warmup(Math.max(iterations / 4, Math.min(iterations, 5000 / batch)))
                    .settings(settings);
        } else {
            b.mode(Mode.LATENCY)
                    .batch(1)
                    .iterations((int) count)
                    .warmup((int) Math.max(10, count / 10))
                    .connections(1)
                    .settings(atomicSettings);
        }
        Measurement m = session.run(b.build());
        if (!m.isValid()) {
            throw new IllegalStateException("bench point " + id + " failed validation: "
                    + m.validation().describe());
        }
        return m;
    }
}
