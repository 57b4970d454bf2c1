package dev.linkproof.transfer.ucx;

import static java.lang.foreign.ValueLayout.ADDRESS;

import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.MeasurementLoop;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.PeerLiveness;
import dev.linkproof.transfer.spi.TargetContext;
import dev.linkproof.transfer.spi.TargetPoint;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;

/**
 * A profiling probe, not a benchmark of record: the initiator's cost per operation of a ucx put or
 * get under four completion policies ({@code window}, {@code wflush}, {@code batch32}, {@code path}),
 * in one JVM against an in-process target (whose thread sleeps once idle), the policies taking turns
 * round by round so machine noise hits them alike. Prints wall-clock and thread-CPU nanoseconds and
 * heap bytes per operation; on a shared machine the CPU time, which the scheduler does not charge
 * for other processes' turns, is the steadier figure. What each policy does, the arguments and how
 * to run it: docs/benchmarks.md, "Running points outside JUnit".
 */
public final class UcxCostProbe {
    private static final int DEPTH = 32;
    private static final long WAIT_NANOS = 10_000_000_000L;
    private static final String[] POLICIES = {"window", "wflush", "batch32", "path"};
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private UcxCostProbe() {}

    public static void main(String[] args) throws Throwable {
        Op op = Op.valueOf(args[0].toUpperCase(Locale.ROOT));
        long[] sizes =
                Arrays.stream(args[1].split(",")).mapToLong(Long::parseLong).toArray();
        long bytesPerRound = Long.parseLong(args[2]);
        int rounds = Integer.parseInt(args[3]);
        String tls = args[4];
        long max = Arrays.stream(sizes).max().orElseThrow();
        TransferSpec spec = TransferSpec.builder()
                .transport("ucx")
                .pointId("probe")
                .op(op)
                .size(max)
                .settings(Map.of("UCX_TLS", tls))
                .build();
        UcxTransport t = new UcxTransport();
        try (Buffer target = t.allocate(spec, MemoryPlacement.HOST, max);
                TargetPoint served = t.serve(spec, target, new TargetContext("127.0.0.1", IoSettings.DEFAULT));
                Buffer local = t.allocate(spec, MemoryPlacement.HOST, max);
                Arena a = Arena.ofConfined();
                UcxWorker w = UcxWorker.create(((UcxBuffer) local).context)) {
            Map<String, String> e = served.endpoint();
            MemorySegment ep = w.connect(HexFormat.of().parseHex(e.get("ucx.address")), a.allocate(1), false);
            byte[] rkeyBytes = HexFormat.of().parseHex(e.get("ucx.rkey"));
            MemorySegment packed = a.allocate(rkeyBytes.length);
            packed.copyFrom(MemorySegment.ofArray(rkeyBytes));
            MemorySegment out = a.allocate(ADDRESS);
            Ucx.check((byte) Ucx.lib().rkeyUnpack.invokeExact(ep, packed, out), "ucp_ep_rkey_unpack");
            Probe p = new Probe(
                    w,
                    ep,
                    out.get(ADDRESS, 0),
                    ((UcxBuffer) local).memory.segment,
                    Long.parseUnsignedLong(e.get("ucx.base")),
                    op,
                    tls,
                    t,
                    local,
                    e,
                    new MemorySegment[DEPTH]);
            for (long size : sizes) {
                measure(p, size, (int) Math.max(256, Math.min(2_000_000, bytesPerRound / size)) / 32 * 32, rounds);
            }
            Ucx.lib().rkeyDestroy.invokeExact(p.rkey());
            w.closeEndpoint(ep, true, System.nanoTime() + 1_000_000_000L, PeerLiveness.UNWATCHED);
        }
    }

    private static void measure(Probe p, long size, int n, int rounds) throws Throwable {
        double[][] wall = new double[POLICIES.length][rounds];
        double[][] cpu = new double[POLICIES.length][rounds];
        double[] allocated = new double[POLICIES.length];
        for (int pol = 0; pol < POLICIES.length; pol++) {
            // JIT warmup of this policy: enough calls to get it compiled, at most about 1 GiB moved
            p.run(pol, size, (int) Math.max(n, Math.min(200_000, (1L << 30) / size)) / 32 * 32);
        }
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < POLICIES.length; i++) {
                int pol = (i + r) % POLICIES.length; // the order rotates too
                long c0 = THREADS.getCurrentThreadCpuTime();
                long b0 = THREADS.getCurrentThreadAllocatedBytes();
                long t0 = System.nanoTime();
                long loopCpu = p.run(pol, size, n);
                wall[pol][r] = (System.nanoTime() - t0) / (double) n;
                allocated[pol] = Math.max(allocated[pol], (THREADS.getCurrentThreadAllocatedBytes() - b0) / (double) n);
                cpu[pol][r] = (loopCpu >= 0 ? loopCpu : THREADS.getCurrentThreadCpuTime() - c0) / (double) n;
            }
        }
        for (int pol = 0; pol < POLICIES.length; pol++) {
            double[] s = wall[pol].clone();
            double[] c = cpu[pol].clone();
            Arrays.sort(s);
            Arrays.sort(c);
            System.out.printf(
                    Locale.ROOT,
                    "PROBE %s %d %-8s wall best %9.1f median %9.1f ns/op | cpu best %9.1f median %9.1f"
                            + " max %9.1f ns/op (%6.2f GB/s at the cpu median) | heap %.1f B/op%n",
                    p.op().label(),
                    size,
                    POLICIES[pol],
                    s[0],
                    s[s.length / 2],
                    c[0],
                    c[c.length / 2],
                    c[c.length - 1],
                    size / c[c.length / 2],
                    allocated[pol]);
        }
    }

    /** The policies' loops, each small so the JIT compiles it on its own. */
    private record Probe(
            UcxWorker w,
            MemorySegment ep,
            MemorySegment rkey,
            MemorySegment localSegment,
            long remote,
            Op op,
            String tls,
            UcxTransport transport,
            Buffer local,
            Map<String, String> endpoint,
            MemorySegment[] ring) {
        /** Runs {@code n} ops under {@code policy}; the CPU nanoseconds of the measured part when it knows them, else -1. */
        long run(int policy, long size, int n) throws Throwable {
            switch (policy) {
                case 0 -> ringed(size, n, false);
                case 1 -> ringed(size, n, true);
                case 2 -> batch(size, n);
                default -> {
                    return path(size, n);
                }
            }
            return -1;
        }

        private MemorySegment op(long size) throws Throwable {
            return op == Op.READ
                    ? (MemorySegment) Ucx.Hot.GET.invokeExact(ep, localSegment, size, remote, rkey, w.noParams)
                    : (MemorySegment) Ucx.Hot.PUT.invokeExact(ep, localSegment, size, remote, rkey, w.noParams);
        }

        /** Waits for what occupies ring place {@code s}, if anything. */
        private void settle(int s) throws Throwable {
            if (ring[s] != null) {
                w.await(ring[s], WAIT_NANOS, null, PeerLiveness.UNWATCHED, "probe");
                ring[s] = null;
            }
        }

        /**
         * A ring of {@link #DEPTH} places: each op's own request ({@code flushEach} false, then one
         * flush at the end), or a worker flush after each op ({@code flushEach} true).
         */
        private void ringed(long size, int n, boolean flushEach) throws Throwable {
            for (int i = 0; i < n; i++) {
                int s = i & (DEPTH - 1);
                settle(s);
                MemorySegment r = op(size);
                if (flushEach) {
                    if (r.address() != 0) {
                        Ucx.Hot.REQUEST_FREE.invokeExact(r);
                    }
                    r = w.flush();
                }
                if (r.address() != 0) {
                    ring[s] = r;
                }
            }
            for (int s = 0; s < DEPTH; s++) {
                settle(s);
            }
            if (!flushEach) {
                w.await(w.flush(), WAIT_NANOS, null, PeerLiveness.UNWATCHED, "probe");
            }
        }

        private void batch(long size, int n) throws Throwable {
            for (int i = 0; i < n; i += 32) {
                for (int j = 0; j < 32; j++) {
                    MemorySegment r = op(size);
                    if (r.address() != 0) {
                        Ucx.Hot.REQUEST_FREE.invokeExact(r);
                    }
                }
                w.await(w.flush(), WAIT_NANOS, null, PeerLiveness.UNWATCHED, "probe");
            }
        }

        private long path(long size, int n) throws Throwable {
            TransferSpec spec = TransferSpec.builder()
                    .transport("ucx")
                    .pointId("probe-path")
                    .op(op)
                    .size(size)
                    .batch(1)
                    .pipelineDepth(DEPTH)
                    .iterations(n)
                    .warmup(0)
                    .settings(Map.of("UCX_TLS", tls))
                    .build();
            try (var path = transport.connect(spec, local, endpoint, IoSettings.DEFAULT)) {
                // A fresh endpoint maps the remote region anew: fault it in first, as a point's warmup does.
                MeasurementLoop.run(
                        path,
                        TransferSpec.builder()
                                .transport("ucx")
                                .pointId("probe-path-warmup")
                                .op(op)
                                .size(size)
                                .batch(1)
                                .pipelineDepth(DEPTH)
                                .iterations(Math.max(32, n / 4))
                                .warmup(0)
                                .settings(Map.of("UCX_TLS", tls))
                                .build());
                long c0 = THREADS.getCurrentThreadCpuTime();
                MeasurementLoop.run(path, spec);
                return THREADS.getCurrentThreadCpuTime() - c0;
            }
        }
    }
}
