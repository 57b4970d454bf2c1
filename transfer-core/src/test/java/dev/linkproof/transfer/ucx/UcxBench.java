package dev.linkproof.transfer.ucx;

import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.session.LocalAgent;
import dev.linkproof.transfer.session.Session;
import dev.linkproof.transfer.session.Timeouts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The initiator side of bench/ucx-vs-perftest.sh: starts a local target agent, pins it (all its
 * threads) to {@code agentCpu} with taskset, and runs one ucx point per size exactly as the engine
 * does (warmup, one whole-loop timer, verification pass). Prints one line per point:
 * {@code RESULT op mode size GB/s avg_us p50_us valid ops/s}. Run this JVM itself under taskset.
 *
 * <p>Arguments: {@code op(write|read|fetch_add|compare_swap) mode(bw|lat) sizes(comma-separated bytes; 8 for
 * atomics) depth agentCpu tls [batch]}. bench/ucx-vs-perftest.sh and bench/atomics-vs-peers.sh run it.
 */
public final class UcxBench {
    /** Batches per measured point, where a script sets it (the peer tool's -n); else sized by the message. */
    static final String ITERATIONS_ENV = "LINKPROOF_BENCH_ITERATIONS";

    private UcxBench() {}

    public static void main(String[] args) throws Exception {
        Op op = Op.valueOf(args[0].toUpperCase(Locale.ROOT));
        Mode mode = args[1].equals("lat") ? Mode.LATENCY : Mode.BANDWIDTH;
        String[] sizes = args[2].split(",");
        int depth = mode == Mode.LATENCY ? 1 : Integer.parseInt(args[3]);
        String cpu = args[4];
        String tls = args[5];
        int batch = args.length > 6 ? Integer.parseInt(args[6]) : 1;
        Path log = Path.of(
                System.getProperty("java.io.tmpdir"),
                "ucx-bench-agent-" + ProcessHandle.current().pid() + ".log");
        try (LocalAgent agent = LocalAgent.start(List.of("-Xmx512m"), log, Duration.ofSeconds(60))) {
            Process pin = new ProcessBuilder("taskset", "-a", "-p", "-c", cpu, Long.toString(agent.pid()))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (pin.waitFor() != 0) {
                throw new IllegalStateException("taskset -a -p -c " + cpu + " " + agent.pid() + " failed");
            }
            try (Session s = Session.open(agent.host(), agent.port(), agent.token(), Timeouts.DEFAULT)) {
                // Untimed: gets the JIT to compile the measured loop before any reported point.
                s.run(TransferSpec.builder()
                        .transport("ucx")
                        .pointId("bench-jit-warmup")
                        .op(op)
                        .mode(mode)
                        .size(op.atomic() ? 8 : 64)
                        .batch(batch)
                        .pipelineDepth(depth)
                        .iterations(200_000)
                        .warmup(100_000)
                        .settings(Map.of("UCX_TLS", tls))
                        .build());
                for (String text : sizes) {
                    long size = Long.parseLong(text);
                    // $LINKPROOF_BENCH_ITERATIONS: the same count as the peer tool's -n (atomics-vs-peers.sh); a bench
                    // knob, so an environment variable, not a linkproof.* property of the engine's configuration.
                    String given = System.getenv(ITERATIONS_ENV);
                    int iterations = given != null && !given.isBlank()
                            ? Integer.parseInt(given.strip())
                            : (int) Math.max(
                                    200,
                                    Math.min(mode == Mode.LATENCY ? 100_000 : 200_000, (2L << 30) / (size * batch)));
                    int warmup = Math.max(50, iterations / 4);
                    TransferSpec spec = TransferSpec.builder()
                            .transport("ucx")
                            .pointId("bench-" + op.label() + "-" + size)
                            .op(op)
                            .mode(mode)
                            .size(size)
                            .batch(batch)
                            .pipelineDepth(depth)
                            .iterations(iterations)
                            .warmup(warmup)
                            .settings(Map.of("UCX_TLS", tls))
                            .build();
                    Measurement m = s.run(spec);
                    System.out.printf(
                            Locale.ROOT,
                            "RESULT %s %s %d %.3f %.4f %.4f %s %.0f%n",
                            op.label(),
                            args[1],
                            size,
                            m.bandwidthGBps(),
                            m.latency().averageNanos() / 1e3,
                            m.latency().p50Nanos() / 1e3,
                            m.isValid(),
                            m.opsPerSecond());
                }
            }
        }
    }
}
