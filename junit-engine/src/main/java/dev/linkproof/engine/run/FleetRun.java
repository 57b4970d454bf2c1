package dev.linkproof.engine.run;

import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.config.FleetSettings;
import dev.linkproof.fleet.act.ActPlan;
import dev.linkproof.fleet.act.CommandOutcome;
import dev.linkproof.fleet.act.CommandRunner;
import dev.linkproof.fleet.act.KubernetesMark;
import dev.linkproof.fleet.act.SlurmDrain;
import java.time.Duration;
import dev.linkproof.engine.judging.FleetJudge;
import dev.linkproof.fleet.blame.Blame;
import dev.linkproof.fleet.blame.BlameSettings;
import dev.linkproof.fleet.blame.Blamer;
import dev.linkproof.fleet.blame.Observations;
import dev.linkproof.fleet.blame.OutcomeKind;
import dev.linkproof.fleet.blame.PairOutcome;
import dev.linkproof.fleet.blame.Point;
import dev.linkproof.fleet.blame.Thresholds;
import dev.linkproof.fleet.blame.Retest;
import dev.linkproof.fleet.blame.RetestPlan;
import dev.linkproof.fleet.blame.RetestPlanner;
import dev.linkproof.fleet.blame.RetestRound;
import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.fleet.coordinate.Coordinator;
import dev.linkproof.fleet.coordinate.PairRun;
import dev.linkproof.fleet.plan.Pair;
import dev.linkproof.fleet.rendezvous.Registry;
import dev.linkproof.reports.fleet.FleetRunInfo;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.Units;
import dev.linkproof.transfer.session.Timeouts;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A fleet run's execution: the registry its agents dial into, the coordinator that runs each point's
 * rounds through them, and every pair's result kept for its test and for the blame at the end. It
 * belongs to the run: {@link #close} ends the run for every agent.
 */
public final class FleetRun implements AutoCloseable {
    private final FleetSettings settings;
    private final Thresholds thresholds;
    private final FleetPlan plan;
    private final String token;
    private final Timeouts timeouts;
    private final String runId = java.util.UUID.randomUUID().toString();
    private final java.time.Instant started = java.time.Instant.now();
    private Registry registry;
    /** Whether the agents ran their warm-up round (once per run, before the first measured one). */
    private boolean warmedUp;
    /** When the wait for registrations ended, for the cost line. */
    private volatile long registeredAt;
    private Coordinator coordinator;
    private String registryFailure;
    private final Map<String, TransferSpec> specs = new ConcurrentHashMap<>();
    /** Every round's wall time, and the sum of each round's slowest pair: what the coordinator costs. */
    private final java.util.concurrent.atomic.AtomicLong roundNanos = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong slowestPairNanos = new java.util.concurrent.atomic.AtomicLong();
    private final List<PairOutcome> outcomes = java.util.Collections.synchronizedList(new java.util.ArrayList<>());

    /** @param thresholds the fleet-relative criteria as the run applies them ({@link FleetSettings#thresholds}) */
    public FleetRun(FleetSettings settings, FleetPlan plan, String token, Timeouts timeouts, Thresholds thresholds) {
        this.settings = settings;
        this.thresholds = thresholds;
        this.plan = plan;
        this.token = token;
        this.timeouts = timeouts;
    }

    public FleetPlan plan() {
        return plan;
    }

    public FleetSettings settings() {
        return settings;
    }

    /** The fleet-relative criteria the run applies. */
    public Thresholds thresholds() {
        return thresholds;
    }

    /**
     * Starts the registry and waits for the expected nodes (at most {@link FleetSettings#registerWithin});
     * says on {@code out} where agents should dial and who came. A registry that cannot listen leaves
     * every node unregistered, with the reason ({@link #notRegistered}).
     */
    public synchronized void register(PrintStream out) throws InterruptedException {
        if (registry != null || registryFailure != null) {
            return;
        }
        try {
            registry = Registry.start(settings.registryHost(), settings.registryPort(), token, plan.nodes(), coordinatorName());
        } catch (IOException | RuntimeException e) {
            registryFailure = "the fleet's registry cannot listen on " + settings.registryHost() + ":" + settings.registryPort()
                    + ": " + e.getMessage() + " (" + dev.linkproof.engine.config.Constants.FLEET_REGISTRY + ")";
            out.println("[linkproof fleet] " + registryFailure);
            return;
        }
        // The plan before any transfer: what will run, in how many rounds, and about how long.
        out.print("[linkproof fleet] " + plan.plan().describe(ESTIMATED_PER_POINT_ROUND, Math.max(1, points)).strip()
                .replace("\n", "\n[linkproof fleet] ") + " (at an assumed " + Units.formatDuration(ESTIMATED_PER_POINT_ROUND)
                + " per point and round)\n");
        out.printf("[linkproof fleet] registry listening on %s:%d for %d nodes from %s; waiting up to %s%n", registry.host(),
                registry.port(), plan.nodes().size(), plan.source(), Units.formatDuration(settings.registerWithin()));
        out.flush();
        long start = System.nanoTime();
        Map<String, Registry.Node> nodes = registry.awaitAll(settings.registerWithin());
        registeredAt = System.nanoTime();
        out.printf("[linkproof fleet] %d of %d nodes registered in %.1f s%s%n", nodes.size(), plan.nodes().size(),
                (System.nanoTime() - start) / 1e9, registry.missing().isEmpty() ? "" : "; missing: " + String.join(", ",
                        registry.missing()));
        out.flush();
        Registry r = registry;
        coordinator = new Coordinator(new Coordinator.Nodes() {
            @Override
            public Optional<Registry.Node> node(String name) {
                return r.lost(name).isPresent() ? Optional.empty() : r.node(name);
            }

            @Override
            public String whyAbsent(String name) {
                return r.lost(name).map(why -> "node " + name + " left the run: " + why)
                        .orElse("node " + name + " did not register with the coordinator");
            }
        }, token, timeouts, timeouts.control());
    }

    /** A round of one point's pairs, as the printed estimate assumes it (the first rounds' lines tell the real pace). */
    static final Duration ESTIMATED_PER_POINT_ROUND = Duration.ofSeconds(2);

    private int points;

    /** How many points the run has, for the plan's estimate. */
    public synchronized void points(int count) {
        this.points = count;
    }

    /** Why {@code node} is not in the run, if it is not: never registered (and any refusal naming it), or lost since. */
    public synchronized Optional<String> notRegistered(String node) {
        if (registryFailure != null) {
            return Optional.of("node " + node + " could not register: " + registryFailure);
        }
        if (registry == null) {
            return Optional.of("node " + node + ": the fleet's registry was not started");
        }
        if (registry.registered().containsKey(node)) {
            return Optional.empty();
        }
        String refused = registry.refusals().stream().filter(r -> r.node().equals(node)).map(Registry.Refusal::why)
                .findFirst().map(why -> "; its agent was refused: " + why).orElse("");
        return Optional.of("node " + node + " did not register within " + Units.formatDuration(settings.registerWithin())
                + refused);
    }

    /** The run as fleet-verdict.json names it. */
    public FleetRunInfo runInfo(String profile) {
        return new FleetRunInfo(runId, started, java.time.Instant.now(), plan.plan().pattern(), profile);
    }

    /**
     * Runs {@code spec} over the plan's rounds, only the {@code selected} pairs; each round's pairs at
     * once. One line per round on {@code out}. The spec is kept under {@code pointId}, for the retests.
     */
    public Map<Pair, PairRun> runPoint(String pointId, String name, TransferSpec spec, Set<Pair> selected, PrintStream out) {
        Map<Pair, PairRun> byPair = new LinkedHashMap<>();
        List<List<Pair>> rounds = plan.rounds(selected);
        Coordinator c;
        synchronized (this) {
            c = coordinator;
        }
        if (c != null && !warmedUp && !rounds.isEmpty()) {
            // Agents the launcher just started run their first transfers cold (class loading, the JIT):
            // a round of them once, not judged, so the first measured round is not slower than the rest
            // for reasons that are nobody's fault.
            warmedUp = true;
            long start = System.nanoTime();
            timed(c, rounds.getFirst(), spec.withPointId(spec.pointId() + "/warm-up"));
            out.printf("[linkproof fleet] warm-up round (not judged): %d pairs in %.1f s%n", rounds.getFirst().size(),
                    (System.nanoTime() - start) / 1e9);
        }
        for (int i = 0; i < rounds.size(); i++) {
            List<Pair> round = rounds.get(i);
            long start = System.nanoTime();
            List<PairRun> runs = c == null ? round.stream().map(p -> PairRun.notRun(p, registryFailure == null
                    ? "the fleet's registry was not started" : registryFailure)).toList()
                    : timed(c, round, spec);
            long wall = System.nanoTime() - start;
            runs.forEach(r -> byPair.put(r.pair(), r));
            long failed = runs.stream().filter(r -> r.failureKind().isPresent()).count();
            long slowest = runs.stream().mapToLong(PairRun::wallNanos).max().orElse(0);
            out.printf("[linkproof fleet] %s: round %d/%d, %d pairs in %.2f s (slowest pair %.2f s)%s%n", name, i + 1,
                    rounds.size(), round.size(), wall / 1e9, slowest / 1e9, failed == 0 ? "" : ", " + failed + " failed");
            out.flush();
        }
        specs.put(pointId, spec);
        return byPair;
    }

    /**
     * The run's end: the failing pairs run again with partners that passed (ClusterKit's and
     * cluster-health-scanner's way of telling a bad node from a bad link), then the verdicts. One line
     * per retest round on {@code out}.
     */
    public Blame blame(PrintStream out) {
        Set<String> registered;
        synchronized (this) {
            registered = registry == null ? Set.of() : registry.registered().keySet();
        }
        Observations first = new Observations(plan.nodes(), registered, outcomes());
        BlameSettings settings = new BlameSettings(thresholds, BlameSettings.DEFAULTS.evidenceLimit());
        RetestPlan retests = RetestPlanner.plan(first, settings);
        List<PairOutcome> again = new java.util.ArrayList<>();
        Coordinator c;
        synchronized (this) {
            c = coordinator;
        }
        if (c != null && !retests.isEmpty()) {
            for (RetestRound round : retests.rounds()) {
                long start = System.nanoTime();
                Map<Point, List<Pair>> byPoint = new LinkedHashMap<>();
                for (Retest r : round.retests()) {
                    r.points().forEach(p -> byPoint.computeIfAbsent(p, k -> new java.util.ArrayList<>()).add(r.pair()));
                }
                byPoint.forEach((point, pairs) -> {
                    TransferSpec spec = specs.get(point.id());
                    if (spec == null) {
                        return;
                    }
                    for (PairRun run : timed(c, pairs, spec.withPointId(spec.pointId() + "/retest"))) {
                        Optional<OutcomeKind> kind = run.failureKind().isEmpty() ? Optional.of(OutcomeKind.PASSED)
                                : OutcomeKind.of(run.failureKind().get());
                        kind.ifPresent(k -> again.add(run.ran()
                                ? FleetJudge.outcome(point.id(), point.name(), run.pair(), run.measurement(), run.failureKind())
                                        .orElseThrow()
                                : PairOutcome.unmeasured(run.pair(), point, k)));
                    }
                });
                out.printf("[linkproof fleet] retest round %d/%d: %d pairs with partners that passed, in %.1f s%n",
                        round.number(), retests.rounds().size(), round.retests().size(), (System.nanoTime() - start) / 1e9);
                out.flush();
            }
        }
        Blame blame = Blamer.blame(first, again, settings);
        long sinceRegistered = registeredAt == 0 ? 0 : System.nanoTime() - registeredAt;
        out.printf("[linkproof fleet] cost: the rounds (warm-up and retests included) took %.2f s, their slowest pairs "
                        + "%.2f s together (%.2f×); %.2f s from the last registration to the verdicts%n",
                roundNanos.get() / 1e9, slowestPairNanos.get() / 1e9,
                slowestPairNanos.get() == 0 ? 0.0 : (double) roundNanos.get() / slowestPairNanos.get(), sinceRegistered / 1e9);
        return blame;
    }

    /**
     * A pair's test ended: how blame will see it ({@code failed}: the test's failure kind, empty when
     * it passed; a skipped test says nothing about the pair and is not kept).
     */
    public void recordTest(String pointId, String pointName, Pair pair, Measurement m, Optional<FailureKind> failed) {
        FleetJudge.outcome(pointId, pointName, pair, m, failed).ifPresent(outcomes::add);
    }

    /** Every pair test's outcome so far, in the order they ended. */
    public List<PairOutcome> outcomes() {
        return List.copyOf(outcomes);
    }

    /**
     * Acts on the verdicts as {@link FleetSettings#act} says, if it says anything: drains the blamed
     * nodes in Slurm, labels and taints them in Kubernetes (each command under a deadline, its outcome
     * printed), or prints those commands for an operator. A bad link's nodes are never acted on.
     */
    public void act(Blame blame, PrintStream out) {
        if (settings.act().isEmpty() || blame.verdicts().isEmpty()) {
            return;
        }
        String how = settings.act().get();
        // A verdict names the fleet's node (a pod, under Kubernetes); a label or taint goes on the machine it ran on.
        Map<String, Registry.Node> registered;
        synchronized (this) {
            registered = registry == null ? Map.of() : registry.registered();
        }
        // print: the commands of the launcher's own scheduler (kubectl under Kubernetes, scontrol otherwise).
        boolean kubernetes = how.equals("kubernetes") || how.equals("print") && List.of("kubernetes", "k8s")
                .contains(settings.launcher().toLowerCase(java.util.Locale.ROOT));
        ActPlan actions = kubernetes
                ? KubernetesMark.DEFAULT.onMachines(n -> registered.containsKey(n) ? registered.get(n).machine() : n)
                        .plan(blame.verdicts())
                : SlurmDrain.DEFAULT.plan(blame.verdicts());
        actions.notActedOn().forEach(n -> out.println("[linkproof fleet] not acted on: " + n.verdict().describe() + " ("
                + n.why() + ")"));
        if (how.equals("print")) {
            out.println("[linkproof fleet] to " + (kubernetes ? "label and taint" : "drain") + " the blamed nodes ("
                    + Constants.FLEET_ACT + "=" + (kubernetes ? "kubernetes" : "slurm") + " runs these):");
            actions.shellLines().forEach(line -> out.println("  " + line));
        } else {
            for (CommandOutcome o : new CommandRunner(ACT_DEADLINE).run(actions)) {
                out.println("[linkproof fleet] " + o.command().shellLine() + ": " + switch (o) {
                    case CommandOutcome.Succeeded s -> "done";
                    case CommandOutcome.Failed f -> "failed, exit " + f.exitCode() + ": " + f.output().strip();
                    case CommandOutcome.TimedOut t -> "killed after " + Units.formatDuration(t.deadline());
                    case CommandOutcome.NotStarted n -> "not started: " + n.why();
                });
            }
        }
        out.flush();
    }

    /** How long one drain or taint command may take. */
    static final Duration ACT_DEADLINE = Duration.ofSeconds(30);

    /** A round through the coordinator, its wall time and its slowest pair's added to the run's cost. */
    private List<PairRun> timed(Coordinator c, List<Pair> round, TransferSpec spec) {
        long start = System.nanoTime();
        List<PairRun> runs = c.runRound(round, spec);
        roundNanos.addAndGet(System.nanoTime() - start);
        slowestPairNanos.addAndGet(runs.stream().mapToLong(PairRun::wallNanos).max().orElse(0));
        return runs;
    }

    private static String coordinatorName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "coordinator";
        }
    }

    /** Ends the run for every agent: BYE on every registration; they stop. */
    @Override
    public synchronized void close() {
        if (coordinator != null) {
            coordinator.close();
        }
        if (registry != null) {
            registry.close();
        }
    }
}
