package dev.linkproof.transfer.bench;

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
 * The initiator side of the benches that set our transports beside a peer tool
 * (bench/ucx-vs-perftest.sh, bench/atomics-vs-peers.sh, bench/libfabric-vs-pingpong.sh): a local
 * target agent pinned (all its threads) to {@code agentCpu} with taskset, one point per size run as
 * the engine runs it, one line per point, {@code RESULT op mode size GB/s avg_us p50_us valid ops/s}.
 * Run this JVM itself under taskset. Arguments: {@code transport settings op mode(bw|lat) sizes depth
 * agentCpu [batch]}; {@code sizes} comma-separated bytes (8 for atomics), {@code settings} the point's
 * as comma-separated {@code key=value} ({@code UCX_TLS=shm}) or {@code -} for none.
 */
public final class PointBench {
    /** Batches per measured point, where a script sets it (the peer tool's -n); else sized by the message. */
    static final String ITERATIONS_ENV = "LINKPROOF_BENCH_ITERATIONS";

    private PointBench() {}

    public static void main(String[] args) throws Exception {
        String transport = args[0];
        Map<String, String> settings = settings(args[1]);
        Op op = Op.valueOf(args[2].toUpperCase(Locale.ROOT));
        String modeName = args[3];
        Mode mode = modeName.equals("lat") ? Mode.LATENCY : Mode.BANDWIDTH;
        String[] sizes = args[4].split(",");
        int depth = mode == Mode.LATENCY ? 1 : Integer.parseInt(args[5]);
        String cpu = args[6];
        int batch = args.length > 7 ? Integer.parseInt(args[7]) : 1;
        Path log = Path.of(
                System.getProperty("java.io.tmpdir"),
                transport + "-bench-agent-" + ProcessHandle.current().pid() + ".log");
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
                        .transport(transport)
                        .pointId("bench-jit-warmup")
                        .op(op)
                        .mode(mode)
                        .size(op.atomic() ? 8 : 64)
                        .batch(batch)
                        .pipelineDepth(depth)
                        .iterations(200_000)
                        .warmup(100_000)
                        .settings(settings)
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
                    // At least about 16 ms of warmup where the size allows: a point's first posts meet a
                    // connection still forming (-FI_EAGAIN), which deoptimizes the compiled post, and its
                    // recompilation shares the initiator's CPU; 2,500 warmup writes of 64 B were 1.3 ms.
                    int warmup = (int)
                            Math.max(Math.max(50, iterations / 4), Math.min(20_000, (256L << 20) / (size * batch)));
                    TransferSpec spec = TransferSpec.builder()
                            .transport(transport)
                            .pointId("bench-" + op.label() + "-" + size)
                            .op(op)
                            .mode(mode)
                            .size(size)
                            .batch(batch)
                            .pipelineDepth(depth)
                            .iterations(iterations)
                            .warmup(warmup)
                            .settings(settings)
                            .build();
                    Measurement m = s.run(spec);
                    System.out.printf(
                            Locale.ROOT,
                            "RESULT %s %s %d %.3f %.4f %.4f %s %.0f%n",
                            op.label(),
                            modeName,
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

    /** {@code key=value,key=value} (a value may hold ';' but not ','), or {@code -} for none. */
    static Map<String, String> settings(String text) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        if (!text.equals("-")) {
            for (String pair : text.split(",")) {
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("setting '" + pair + "' is not key=value");
                }
                out.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        return out;
    }
}
