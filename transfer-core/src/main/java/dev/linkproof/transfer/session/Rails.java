package dev.linkproof.transfer.session;

import dev.linkproof.transfer.Deadline;
import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.LoopGate;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.measure.RailResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the rails of one point at once, each with its own session, spec (device, addresses) and
 * thread. Each provisions, connects and warms up on its own; then all start their timed loops
 * together at a barrier, so the point measures the node under the load of every rail (PCIe switch
 * and host-bridge limits, NUMA crossings), not rails one after the other. The barrier is on the
 * driving side, reached after the rail's target answered PREPARE and CONNECT, so both ranks of every
 * rail are ready when it opens. A rail that fails before it arrives breaks it: the others run no
 * timed loop and release their points; {@code startDeadline} bounds a rail hung in provisioning.
 */
public final class Rails {
    /** One rail: what it runs on (as reports name it), its session and its spec. */
    public record Rail(String label, TransferSession session, TransferSpec spec) {}

    /**
     * Where a rail's memory lies when it is not where the point's is: the GPUs of one rail (GPU i with
     * GPU j for gpu-ipc; the GPU NUMA-local to the rail's NIC for verbs and ucx), as runtime ordinals.
     */
    public record Placement(MemoryPlacement initiator, MemoryPlacement target) {
        public Placement {
            java.util.Objects.requireNonNull(initiator, "initiator");
            java.util.Objects.requireNonNull(target, "target");
        }

        /** "GPU 0→GPU 1": how reports name a rail of GPUs (runtime ordinals), the engine's and the command line's. */
        public String label() {
            return side(initiator) + "→" + side(target);
        }

        /** "GPU 2" for a GPU, else the memory kind ("host"). */
        public static String side(MemoryPlacement p) {
            return p.kind() == dev.linkproof.transfer.MemoryKind.GPU
                    ? "GPU " + p.device()
                    : p.kind().label();
        }

        /** The same rail the other way: target's memory as the initiator's (GPU j to GPU i). */
        public Placement reversed() {
            return new Placement(target, initiator);
        }

        @Override
        public String toString() {
            return initiator + "->" + target;
        }
    }

    /**
     * What a rail runs on, before a point is given to it: its label, its own session, the settings
     * that put a point on it ({@code verbs.device}, {@code tcp.address} and {@code tcp.source}), and,
     * where the rail has memory of its own (its GPUs), that placement in place of the point's.
     */
    /** Where a rail back is driven to: this host's agent, its address and token. */
    public record Home(String host, int port, String token) {}

    /**
     * Rail {@code label} as a lane: a rail out runs on {@code session}; a rail back (a home given)
     * runs over the same session, driven by the target's agent toward this host's agent. The engine
     * and the transfer command both make their lanes here.
     */
    public static Lane lane(
            String label,
            TransferSession session,
            java.util.Map<String, String> settings,
            java.util.Optional<Placement> memory,
            java.util.Optional<Home> back,
            Timeouts timeouts) {
        TransferSession s = back.isEmpty()
                ? session
                : new DrivenSession(
                        session,
                        back.get().host(),
                        back.get().port(),
                        back.get().token(),
                        timeouts);
        return new Lane(label, s, settings, memory);
    }

    public record Lane(
            String label,
            TransferSession session,
            java.util.Map<String, String> settings,
            java.util.Optional<Placement> memory) {
        public Lane {
            settings = java.util.Map.copyOf(settings);
            java.util.Objects.requireNonNull(memory, "memory");
        }

        /** A lane whose memory is the point's. */
        public Lane(String label, TransferSession session, java.util.Map<String, String> settings) {
            this(label, session, settings, java.util.Optional.empty());
        }

        /**
         * {@code point} as this lane, the {@code index}-th, runs it: its own point id, the lane's
         * settings and, where it has its own, the lane's memory placement.
         */
        public TransferSpec specFor(TransferSpec point, int index) {
            TransferSpec spec =
                    point.withPointId(point.pointId() + "/rail=" + index).withSettings(settings);
            return memory.map(m -> spec.withMemory(m.initiator(), m.target())).orElse(spec);
        }
    }

    private Rails() {}

    /**
     * The lanes as one session: every point run on it runs on all lanes at once ({@link #run}), so
     * whatever drives a session (reruns, {@link TimedRun}) drives rails unchanged. It does not own the
     * lanes' sessions: closing it closes none of them.
     *
     * @param startDeadline how long the rails wait for each other at their start barrier
     */
    public static TransferSession asSession(List<Lane> lanes, Duration startDeadline) {
        if (lanes.isEmpty()) {
            throw new IllegalArgumentException("no lanes");
        }
        List<Lane> all = List.copyOf(lanes);
        return new TransferSession() {
            @Override
            public Measurement run(TransferSpec spec, LoopGate gate) throws TransferException {
                List<Rail> rails = new ArrayList<>();
                for (int i = 0; i < all.size(); i++) {
                    rails.add(new Rail(
                            all.get(i).label(), all.get(i).session(), all.get(i).specFor(spec, i)));
                }
                return Rails.run(spec, rails, startDeadline);
            }

            /** Every lane's answer; the first that cannot run the point, named. */
            @Override
            public dev.linkproof.transfer.Availability supports(TransferSpec spec) {
                dev.linkproof.transfer.Availability first = null;
                for (int i = 0; i < all.size(); i++) {
                    dev.linkproof.transfer.Availability a =
                            all.get(i).session().supports(all.get(i).specFor(spec, i));
                    if (!a.available()) {
                        return a.prefixed("rail " + i + " (" + all.get(i).label() + "): ");
                    }
                    first = first == null ? a : first;
                }
                return first;
            }

            @Override
            public dev.linkproof.transfer.control.Messages.Welcome agent() {
                return all.get(0).session().agent();
            }

            @Override
            public java.util.Optional<dev.linkproof.transfer.measure.HostContention> targetLoad(Duration window)
                    throws TransferException {
                return all.get(0).session().targetLoad(window);
            }

            @Override
            public boolean usable() {
                return all.stream().allMatch(l -> l.session().usable());
            }

            @Override
            public dev.linkproof.transfer.control.ControlChannel control() {
                return all.get(0).session().control();
            }

            @Override
            public void close() {
                // The lanes' sessions belong to whoever opened them.
            }
        };
    }

    /**
     * Runs {@code rails} at once and returns their aggregate ({@link Measurement#ofRails}), whose
     * rails are each rail's own result. A rail that failed fails the point: its exception, of the same
     * kind, with the rail named ("rail 1 (rxe9): …"); the other rails' failures are suppressed in it.
     * Rails that did not reach the barrier in time fail it with {@link Deadline#RAIL_START}, named.
     *
     * @param point         the point's spec, as the aggregate carries it (its point id)
     * @param startDeadline how long the first rail to arrive at the start barrier waits for the last
     */
    public static Measurement run(TransferSpec point, List<Rail> rails, Duration startDeadline)
            throws TransferException {
        if (rails.isEmpty()) {
            throw new IllegalArgumentException("no rails");
        }
        Barrier barrier = new Barrier(rails, startDeadline);
        Measurement[] measured = new Measurement[rails.size()];
        long[][] windows = new long[rails.size()][2];
        TransferException[] failed = new TransferException[rails.size()];
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < rails.size(); i++) {
            int index = i;
            Rail rail = rails.get(i);
            LoopGate gate = new LoopGate() {
                @Override
                public void beforeTimedLoop() throws TransferException {
                    barrier.arrive(index);
                }

                @Override
                public void timedLoop(long startNanos, long endNanos) {
                    windows[index][0] = startNanos;
                    windows[index][1] = endNanos;
                }
            };
            threads.add(Thread.ofPlatform().name("linkproof-rail-" + i).start(() -> {
                try {
                    measured[index] = rail.session().run(rail.spec(), gate);
                } catch (TransferException e) {
                    failed[index] = e;
                    barrier.fail(index, e);
                } catch (RuntimeException | Error e) {
                    failed[index] = new TransferException(e.toString(), e);
                    barrier.fail(index, failed[index]);
                }
            }));
        }
        joinAll(threads);
        TransferException first = firstFailure(rails, failed, barrier);
        if (first != null) {
            throw first;
        }
        List<RailResult> results = new ArrayList<>();
        for (int i = 0; i < rails.size(); i++) {
            results.add(new RailResult(i, rails.get(i).label(), measured[i], windows[i][0], windows[i][1]));
        }
        return Measurement.ofRails(point, results);
    }

    /**
     * The failure that fails the point: the first rail (in rail order) that failed on its own rather
     * than because the barrier broke under it, renamed for its rail, the rest suppressed in it.
     */
    private static TransferException firstFailure(List<Rail> rails, TransferException[] failed, Barrier barrier) {
        if (barrier.late() != null) {
            TransferException late = barrier.late();
            for (TransferException f : failed) {
                if (f != null && !(f instanceof BarrierBroken)) {
                    late.addSuppressed(f);
                }
            }
            return late;
        }
        int primary = barrier.firstToFail();
        if (primary < 0) {
            for (int i = 0; i < failed.length && primary < 0; i++) {
                primary = failed[i] != null ? i : -1;
            }
        }
        if (primary < 0) {
            return null;
        }
        TransferException cause = failed[primary];
        String message = "rail " + primary + " (" + rails.get(primary).label() + "): " + cause.getMessage();
        TransferException named = cause instanceof PeerFailureException
                ? new PeerFailureException(message, cause)
                : new TransferException(message, cause);
        cause.deadline().ifPresent(named::expired);
        for (int i = 0; i < failed.length; i++) {
            if (i != primary && failed[i] != null && !(failed[i] instanceof BarrierBroken)) {
                named.addSuppressed(failed[i]);
            }
        }
        return named;
    }

    private static void joinAll(List<Thread> threads) throws TransferException {
        boolean interrupted = false;
        for (Thread t : threads) {
            while (true) {
                try {
                    t.join();
                    break;
                } catch (InterruptedException e) {
                    // The rails hold data paths and the agent's points: they end on their own deadlines
                    // and release what they hold; leaving them running would leak both.
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
            throw new TransferException("interrupted while the rails ran");
        }
    }

    /** Thrown at a rail whose barrier another rail broke: not the point's cause. */
    static final class BarrierBroken extends TransferException {
        BarrierBroken(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The start barrier: opens when every rail has arrived; breaks when one fails first or the deadline passes. */
    static final class Barrier {
        private final List<Rail> rails;
        private final Duration deadline;
        private int arrived;
        private final java.util.BitSet here = new java.util.BitSet();
        private int firstToFail = -1;
        /** Set when the deadline broke the barrier: the point's failure, naming the rails that had not arrived. */
        private TransferException late;

        private TransferException broken;
        private long openDeadline;

        Barrier(List<Rail> rails, Duration deadline) {
            this.rails = rails;
            this.deadline = deadline;
        }

        synchronized void arrive(int rail) throws TransferException {
            if (broken != null) {
                throw new BarrierBroken("not started: " + broken.getMessage(), broken);
            }
            arrived++;
            here.set(rail);
            if (arrived == rails.size()) {
                notifyAll();
                return;
            }
            if (arrived == 1) {
                openDeadline = System.nanoTime() + deadline.toNanos();
            }
            while (arrived < rails.size() && broken == null) {
                long left = openDeadline - System.nanoTime();
                if (left <= 0) {
                    List<String> missing = new ArrayList<>();
                    for (int i = here.nextClearBit(0); i < rails.size(); i = here.nextClearBit(i + 1)) {
                        missing.add("rail " + i + " (" + rails.get(i).label() + ")");
                    }
                    late = new TransferException(String.join(", ", missing)
                                    + " did not reach the rails' start barrier within "
                                    + deadline.toMillis() + " ms of the first rail (" + arrived + " of " + rails.size()
                                    + " arrived): still provisioning or connecting")
                            .expired(Deadline.RAIL_START);
                    broken = late;
                    notifyAll();
                    break;
                }
                try {
                    wait(Math.max(1, left / 1_000_000), 0);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    broken = new TransferException("interrupted at the start barrier");
                    notifyAll();
                }
            }
            if (arrived < rails.size()) {
                throw new BarrierBroken("not started: " + broken.getMessage(), broken);
            }
        }

        /** A rail failed: the barrier breaks if it is not open yet. */
        synchronized void fail(int rail, TransferException e) {
            if (e instanceof BarrierBroken) {
                return;
            }
            if (firstToFail < 0) {
                firstToFail = rail;
            }
            if (arrived < rails.size() && broken == null) {
                broken = e;
                notifyAll();
            }
        }

        synchronized int firstToFail() {
            return firstToFail;
        }

        synchronized TransferException late() {
            return late;
        }
    }
}
