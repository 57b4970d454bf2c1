package dev.linkproof.fleet.coordinate;

import dev.linkproof.fleet.plan.Pair;
import dev.linkproof.fleet.rendezvous.Registry;
import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.LoopGate;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.session.DrivenSession;
import dev.linkproof.transfer.session.Session;
import dev.linkproof.transfer.session.Timeouts;
import dev.linkproof.transfer.spi.Transports;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs rounds of pairs through the fleet's agents: the initiator's agent drives each point against the target's
 * ({@link DrivenSession}), the spec going from here to both ranks, both validating. All pairs of a round provision
 * on their own, then start their timed loops together, so a round measures the fabric under the load of every pair
 * at once, as ClusterKit's rounds do. Unlike the rails of one point, the pairs of a round are independent findings:
 * a pair that fails (or is slow to provision) must not fail the others. So the start barrier lets a failed pair
 * leave, and after {@code startDeadline} opens for whoever has arrived; the late pairs say so
 * ({@link PairRun#startedTogether}).
 */
public final class Coordinator implements AutoCloseable {
    private final Nodes nodes;

    /** Where each node's agent serves, as the registry knows it. */
    public interface Nodes {
        /** The node's agent; empty when it is not (or no longer) in the run. */
        java.util.Optional<Registry.Node> node(String name);

        /** Why a node has no agent in the run, for its pairs' failures. */
        default String whyAbsent(String name) {
            return "node " + name + " is not registered with the coordinator";
        }
    }

    private final String token;
    private final Timeouts timeouts;
    private final Duration startDeadline;
    /** The run's transports: every session to a node is opened on them, not on a discovery of its own. */
    private final Transports transports;
    /**
     * Control sessions per initiator node, kept across rounds and points, reopened once broken: one
     * per pair the node initiates in a round (a session drives one point at a time; fan-out has a
     * node initiate several at once).
     */
    private final Map<String, List<Session>> sessions = new HashMap<>();

    /**
     * @param nodes         where each node's agent serves
     * @param token         the run's token, which every agent of the fleet was given
     * @param startDeadline how long the first pair at a round's start barrier waits for the others
     * @param transports    the transports the run discovered, for the sessions to the nodes
     */
    public Coordinator(Nodes nodes, String token, Timeouts timeouts, Duration startDeadline, Transports transports) {
        this.nodes = nodes;
        this.token = token;
        this.timeouts = timeouts;
        this.startDeadline = startDeadline;
        this.transports = transports;
    }

    /**
     * Runs {@code spec} on every pair of {@code round} at once; one result per pair, in the round's
     * order. Never throws for a pair's failure: that is the pair's result.
     */
    public List<PairRun> runRound(List<Pair> round, TransferSpec spec) {
        Phaser barrier = new Phaser(round.size());
        PairRun[] results = new PairRun[round.size()];
        List<Thread> threads = new ArrayList<>();
        Map<String, Integer> initiated = new HashMap<>();
        for (int i = 0; i < round.size(); i++) {
            int index = i;
            Pair pair = round.get(i);
            int slot = initiated.merge(pair.initiator(), 1, Integer::sum) - 1;
            threads.add(Thread.ofVirtual()
                    .name("fleet-pair-" + pair.label())
                    .start(() -> results[index] =
                            runPair(pair, slot, spec.withPointId(spec.pointId() + "/pair=" + pair.label()), barrier)));
        }
        for (Thread t : threads) {
            joinUninterruptibly(t);
        }
        return List.of(results);
    }

    private PairRun runPair(Pair pair, int slot, TransferSpec spec, Phaser barrier) {
        long start = System.nanoTime();
        Gate gate = new Gate(barrier, startDeadline);
        try {
            Registry.Node initiator = nodes.node(pair.initiator()).orElse(null);
            Registry.Node target = nodes.node(pair.target()).orElse(null);
            if (initiator == null || target == null) {
                String absent = initiator == null ? pair.initiator() : pair.target();
                gate.leave();
                return PairRun.failed(
                        pair, new PeerFailureException(nodes.whyAbsent(absent)), absent, System.nanoTime() - start);
            }
            Session via;
            try {
                via = session(initiator, slot);
            } catch (TransferException e) {
                gate.leave();
                return PairRun.failed(pair, e, pair.initiator(), System.nanoTime() - start);
            }
            DrivenSession driven = new DrivenSession(via, target.host(), target.port(), token, timeouts);
            try {
                Measurement m = driven.run(spec, gate);
                return PairRun.measured(pair, m, gate.together, System.nanoTime() - start);
            } catch (TransferException e) {
                gate.leave();
                // The coordinator's own session to the initiator broke: the initiator is what failed to answer.
                // Otherwise the initiator's agent reported the failure: a peer failure there is the target's.
                String unreachable =
                        !via.usable() ? pair.initiator() : e instanceof PeerFailureException ? pair.target() : null;
                if (!via.usable()) {
                    forget(pair.initiator(), slot);
                }
                return PairRun.failed(pair, e, unreachable, System.nanoTime() - start);
            }
        } catch (RuntimeException e) {
            gate.leave();
            return PairRun.failed(
                    pair,
                    new TransferException("the coordinator failed while running " + pair.label() + ": " + e, e),
                    null,
                    System.nanoTime() - start);
        }
    }

    /** The node's {@code slot}-th session, opened (outside the lock: a dead node takes the control deadline) when missing or broken. */
    private Session session(Registry.Node node, int slot) throws TransferException {
        synchronized (this) {
            List<Session> mine = sessions.computeIfAbsent(node.name(), n -> new ArrayList<>());
            if (slot < mine.size() && mine.get(slot) != null && mine.get(slot).usable()) {
                return mine.get(slot);
            }
        }
        Session opened = Session.open(node.host(), node.port(), token, timeouts, transports);
        synchronized (this) {
            List<Session> mine = sessions.get(node.name());
            while (mine.size() <= slot) {
                mine.add(null);
            }
            Session old = mine.set(slot, opened);
            if (old != null) {
                old.close();
            }
        }
        return opened;
    }

    private synchronized void forget(String node, int slot) {
        List<Session> mine = sessions.get(node);
        if (mine != null && slot < mine.size() && mine.get(slot) != null) {
            mine.set(slot, null).close();
        }
    }

    @Override
    public synchronized void close() {
        sessions.values()
                .forEach(
                        list -> list.stream().filter(java.util.Objects::nonNull).forEach(Session::close));
        sessions.clear();
    }

    private static void joinUninterruptibly(Thread t) {
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                // The pairs hold their agents' points: they end on their own deadlines and release them.
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A pair's place at its round's start barrier: it arrives once (before its timed loop) or leaves
     * once (it failed first), and never holds the others past the deadline.
     */
    private static final class Gate implements LoopGate {
        private final Phaser barrier;
        private final Duration deadline;
        private boolean done;
        volatile boolean together = true;

        Gate(Phaser barrier, Duration deadline) {
            this.barrier = barrier;
            this.deadline = deadline;
        }

        @Override
        public void beforeTimedLoop() throws TransferException {
            int phase;
            synchronized (this) {
                if (done) {
                    return;
                }
                done = true;
                phase = barrier.arrive();
            }
            try {
                barrier.awaitAdvanceInterruptibly(phase, deadline.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                // The others are slow to provision: this pair starts anyway, and says it did not start with them.
                together = false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TransferException("interrupted at the round's start barrier");
            }
        }

        synchronized void leave() {
            if (!done) {
                done = true;
                barrier.arriveAndDeregister();
            }
        }
    }
}
