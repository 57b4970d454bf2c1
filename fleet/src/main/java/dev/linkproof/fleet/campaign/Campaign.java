package dev.linkproof.fleet.campaign;

import dev.linkproof.fleet.act.CommandOutcome;
import dev.linkproof.fleet.act.History;
import dev.linkproof.fleet.act.KubernetesApi;
import dev.linkproof.fleet.act.KubernetesMark;
import dev.linkproof.fleet.act.Selection;
import dev.linkproof.fleet.act.SlurmDrain;
import dev.linkproof.fleet.blame.Blame;
import dev.linkproof.fleet.blame.Observations;
import dev.linkproof.fleet.blame.PairOutcome;
import dev.linkproof.fleet.blame.Point;
import dev.linkproof.fleet.blame.RerunRound;
import dev.linkproof.fleet.blame.Stage;
import dev.linkproof.fleet.blame.Verdicts;
import dev.linkproof.fleet.coordinate.Coordinator;
import dev.linkproof.fleet.coordinate.PairRun;
import dev.linkproof.fleet.plan.Pair;
import dev.linkproof.fleet.rendezvous.Registry;
import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.Units;
import dev.linkproof.transfer.spi.Transports;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A fleet run from start to end: register → warm up → the plan's rounds per point → confirm what
 * failed → retest suspects with partners that passed → confirm the retests → blame → act. Usable
 * without JUnit ({@link #run}); the engine drives the same steps from its descriptors, one point at
 * a time, and feeds each pair test's outcome back ({@link #record}). Everything it does is reported
 * to its {@link CampaignListener}; it prints nothing itself. {@link #close} ends the run for every
 * agent.
 */
public final class Campaign implements AutoCloseable {
    /** A round of one point's pairs, as the printed estimate assumes it (the first rounds' lines tell the real pace). */
    static final Duration ESTIMATED_PER_POINT_ROUND = Duration.ofSeconds(2);

    private final FleetPlan plan;
    private final CampaignSettings settings;
    private final CampaignListener listener;
    private final CampaignActions actions;
    /** The run's transports, handed to the coordinator's sessions. */
    private final Transports transports;

    private final String id = UUID.randomUUID().toString();
    private final Instant started = Instant.now();
    private Registry registry;
    private String registryFailure;
    private Coordinator coordinator;
    private boolean warmedUp;
    private volatile long registeredAt;
    private int points;
    private final Map<String, PointRun> byId = new ConcurrentHashMap<>();
    /** Every round's wall time, and the sum of each round's slowest pair: what the coordinator costs. */
    private final AtomicLong roundNanos = new AtomicLong();

    private final AtomicLong slowestPairNanos = new AtomicLong();
    private final List<PairOutcome> outcomes = Collections.synchronizedList(new ArrayList<>());

    /**
     * The commands that act on a scheduler, and the Kubernetes API they go to: the real ones, or
     * stand-ins a test provides (programs for Slurm, a mock API server's client for Kubernetes).
     *
     * @param kubernetesClient makes the client for act=kubernetes, called only when there is a command to run
     */
    public record Schedulers(SlurmDrain slurm, KubernetesMark kubernetes, Supplier<KubernetesClient> kubernetesClient) {
        public static final Schedulers DEFAULT = new Schedulers(
                SlurmDrain.DEFAULT,
                KubernetesMark.DEFAULT,
                () -> KubernetesApi.defaultClient(CampaignActions.ACT_DEADLINE));

        public Schedulers(SlurmDrain slurm, KubernetesMark kubernetes) {
            this(slurm, kubernetes, () -> KubernetesApi.defaultClient(CampaignActions.ACT_DEADLINE));
        }
    }

    /** One point as the campaign runs it: its spec (which both ranks get) and the profile's check of a measurement. */
    public record PointRun(Point point, TransferSpec spec, PointCheck check) {
        /** A pair's run failed as its test would have failed it: its own failure, else the profile's verdict on its measurement. */
        Optional<FailureKind> failure(PairRun run) {
            return run.failureKind()
                    .or(() -> run.ran() ? check.failure(run.pair(), run.measurement()) : Optional.empty());
        }

        /** The run as blame sees it, from {@code stage}, ending now. */
        Optional<PairOutcome> outcome(PairRun run, Optional<FailureKind> failure, Stage stage) {
            return Outcomes.of(
                    point,
                    run.pair(),
                    run.ran() ? run.measurement() : null,
                    failure,
                    stage,
                    System.currentTimeMillis());
        }
    }

    /** @param transports the transports the run discovered (the engine's), for the coordinator's sessions */
    public Campaign(FleetPlan plan, CampaignSettings settings, CampaignListener listener, Transports transports) {
        this(plan, settings, listener, Schedulers.DEFAULT, transports);
    }

    public Campaign(
            FleetPlan plan,
            CampaignSettings settings,
            CampaignListener listener,
            Schedulers schedulers,
            Transports transports) {
        this.plan = plan;
        this.settings = settings;
        this.listener = listener;
        this.actions = new CampaignActions(settings, listener, schedulers);
        this.transports = transports;
    }

    public String id() {
        return id;
    }

    public Instant started() {
        return started;
    }

    public FleetPlan plan() {
        return plan;
    }

    public CampaignSettings settings() {
        return settings;
    }

    /** How many points the run has, for the plan's estimate. */
    public synchronized void points(int count) {
        this.points = count;
    }

    /**
     * Starts the registry and waits for the expected nodes (at most {@link CampaignSettings#registerWithin}).
     * A registry that cannot listen leaves every node unregistered, with the reason ({@link #notRegistered}).
     * Once only: later calls return at once.
     */
    public synchronized void register() throws InterruptedException {
        if (registry != null || registryFailure != null) {
            return;
        }
        try {
            registry = Registry.start(
                    settings.registryHost(),
                    settings.registryPort(),
                    settings.token(),
                    plan.nodes(),
                    coordinatorName());
        } catch (IOException | RuntimeException e) {
            registryFailure = "the fleet's registry cannot listen on " + settings.registryHost() + ":"
                    + settings.registryPort() + ": " + e.getMessage() + " (" + CampaignSettings.REGISTRY_KEY + ")";
            listener.on(new CampaignEvent.RegistryFailed(registryFailure));
            return;
        }
        listener.on(new CampaignEvent.Planned(plan.plan()
                        .describe(ESTIMATED_PER_POINT_ROUND, Math.max(1, points))
                        .strip()
                + " (at an assumed " + Units.formatDuration(ESTIMATED_PER_POINT_ROUND) + " per point and round)"));
        listener.on(new CampaignEvent.RegistryListening(
                registry.host(), registry.port(), plan.nodes().size(), plan.source(), settings.registerWithin()));
        long start = System.nanoTime();
        Map<String, Registry.Node> nodes = registry.awaitAll(settings.registerWithin());
        registeredAt = System.nanoTime();
        listener.on(new CampaignEvent.Registered(
                nodes.size(), plan.nodes().size(), (registeredAt - start) / 1e9, registry.missing()));
        Registry r = registry;
        coordinator = new Coordinator(
                new Coordinator.Nodes() {
                    @Override
                    public Optional<Registry.Node> node(String name) {
                        return r.lost(name).isPresent() ? Optional.empty() : r.node(name);
                    }

                    @Override
                    public String whyAbsent(String name) {
                        return r.lost(name)
                                .map(why -> "node " + name + " left the run: " + why)
                                .orElse("node " + name + " did not register with the coordinator");
                    }
                },
                settings.token(),
                settings.timeouts(),
                settings.timeouts().control(),
                transports);
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
        String refused = registry.refusals().stream()
                .filter(x -> x.node().equals(node))
                .map(Registry.Refusal::why)
                .findFirst()
                .map(why -> "; its agent was refused: " + why)
                .orElse("");
        return Optional.of("node " + node + " did not register within "
                + Units.formatDuration(settings.registerWithin()) + refused);
    }

    /**
     * Runs a point over the plan's rounds, only the {@code selected} pairs, each round's pairs at once,
     * after one warm-up round per run. The point is kept for its confirmations and retests. Never
     * throws for a pair's failure: that is the pair's result.
     */
    public Map<Pair, PairRun> runPoint(PointRun point, Set<Pair> selected) {
        byId.put(point.point().id(), point);
        Map<Pair, PairRun> byPair = new LinkedHashMap<>();
        List<List<Pair>> rounds = plan.rounds(selected);
        Coordinator c = coordinator();
        if (c != null && !warmedUp && !rounds.isEmpty()) {
            // Agents the launcher just started run their first transfers cold (class loading, the JIT):
            // a round of them once, not judged, so the first measured round is not slower than the rest
            // for reasons that are nobody's fault.
            warmedUp = true;
            long start = System.nanoTime();
            timed(c, rounds.getFirst(), point.spec().withPointId(point.spec().pointId() + "/warm-up"));
            listener.on(new CampaignEvent.WarmedUp(rounds.getFirst().size(), (System.nanoTime() - start) / 1e9));
        }
        for (int i = 0; i < rounds.size(); i++) {
            List<Pair> round = rounds.get(i);
            long start = System.nanoTime();
            List<PairRun> runs = c == null
                    ? round.stream()
                            .map(p -> PairRun.notRun(
                                    p,
                                    registryFailure == null ? "the fleet's registry was not started" : registryFailure))
                            .toList()
                    : timed(c, round, point.spec());
            long wall = System.nanoTime() - start;
            runs.forEach(r -> byPair.put(r.pair(), r));
            long failed = runs.stream().filter(r -> r.failureKind().isPresent()).count();
            long slowest = runs.stream().mapToLong(PairRun::wallNanos).max().orElse(0);
            listener.on(new CampaignEvent.RoundRan(
                    point.point().name(), i + 1, rounds.size(), round.size(), wall / 1e9, slowest / 1e9, failed));
        }
        return byPair;
    }

    /** A pair's first-round outcome, as its test ended (the engine records every pair test here). */
    public void record(PairOutcome outcome) {
        if (outcome.stage() != Stage.FIRST) {
            throw new IllegalArgumentException(
                    "only first-round outcomes are recorded from outside; the campaign runs the rest: " + outcome);
        }
        outcomes.add(outcome);
    }

    /** Every first-round outcome so far, in the order they ended. */
    public List<PairOutcome> outcomes() {
        return List.copyOf(outcomes);
    }

    /** The nodes that registered, and the machine each runs on (the node itself outside Kubernetes). */
    public synchronized Map<String, String> machines() {
        Map<String, String> m = new LinkedHashMap<>();
        if (registry != null) {
            registry.registered().forEach((name, node) -> m.put(name, node.machine()));
        }
        return m;
    }

    /**
     * The run's end: what failed run again until confirmed or cleared, suspects retested with
     * partners that passed (and their failures confirmed), then the verdicts.
     */
    public Blame conclude() {
        Set<String> registered = machines().keySet();
        Observations first = new Observations(plan.nodes(), registered, outcomes());
        Coordinator c = coordinator();
        Blame blame = Verdicts.reach(
                first,
                new Verdicts.Reruns() {
                    @Override
                    public List<PairOutcome> run(Stage stage, List<RerunRound> rounds) {
                        return c == null ? List.of() : rerun(c, stage, rounds);
                    }

                    @Override
                    public void planned(Stage stage, int pairs, int runs, int rounds) {
                        listener.on(new CampaignEvent.RerunsPlanned(stage, pairs, runs, rounds));
                    }

                    @Override
                    public void unplanned(List<String> suspects) {
                        listener.on(new CampaignEvent.RetestsUnplanned(suspects));
                    }
                },
                settings.blame());
        listener.on(new CampaignEvent.Concluded(blame));
        long sinceRegistered = registeredAt == 0 ? 0 : System.nanoTime() - registeredAt;
        listener.on(
                new CampaignEvent.Cost(roundNanos.get() / 1e9, slowestPairNanos.get() / 1e9, sinceRegistered / 1e9));
        return blame;
    }

    /** Runs each round of one point's pairs at once; their outcomes, judged as the first round's were. */
    private List<PairOutcome> rerun(Coordinator c, Stage stage, List<RerunRound> rounds) {
        List<PairOutcome> all = new ArrayList<>();
        for (int i = 0; i < rounds.size(); i++) {
            RerunRound round = rounds.get(i);
            PointRun point = byId.get(round.point().id());
            if (point == null) {
                continue; // a point that never ran here (its outcomes came from elsewhere): nothing to run it with
            }
            long start = System.nanoTime();
            List<PairRun> runs = timed(
                    c, round.pairs(), point.spec().withPointId(point.spec().pointId() + "/" + stage.slug()));
            long failed = 0;
            for (PairRun run : runs) {
                Optional<FailureKind> kind = point.failure(run);
                failed += kind.isPresent() ? 1 : 0;
                point.outcome(run, kind, stage).ifPresent(all::add);
            }
            listener.on(new CampaignEvent.RerunRoundRan(
                    stage,
                    point.point().name(),
                    i + 1,
                    rounds.size(),
                    round.pairs().size(),
                    (System.nanoTime() - start) / 1e9,
                    failed));
        }
        return all;
    }

    /**
     * Acts on the verdicts as the settings say: drains (Slurm) or labels and taints (Kubernetes) the
     * nodes a {@link Selection} picks — never past the breaker's share, and with a history only the
     * nodes it blamed often enough — then brings back the nodes Linkproof took out earlier that pass
     * now; or prints the commands for an operator. Each command under a deadline, each outcome
     * reported. Returns every command's outcome.
     *
     * @param history earlier runs, empty when none are kept
     */
    public List<CommandOutcome> act(Blame blame, Optional<History> history) {
        return actions.act(blame, history, this::machines);
    }

    /**
     * The whole campaign without JUnit: registers, runs every point, records each pair's first run
     * as its outcome (judged by the point's check), concludes and acts.
     */
    public Blame run(List<PointRun> pointRuns, Optional<History> history) throws InterruptedException {
        points(pointRuns.size());
        register();
        Set<Pair> all = Set.copyOf(plan.pairs());
        for (PointRun p : pointRuns) {
            for (PairRun run : runPoint(p, all).values()) {
                p.outcome(run, p.failure(run), Stage.FIRST).ifPresent(this::record);
            }
        }
        Blame blame = conclude();
        act(blame, history);
        return blame;
    }

    private synchronized Coordinator coordinator() {
        return coordinator;
    }

    /** A round through the coordinator, its wall time and its slowest pair's added to the run's cost. */
    private List<PairRun> timed(Coordinator c, List<Pair> round, TransferSpec spec) {
        long start = System.nanoTime();
        List<PairRun> runs = c.runRound(round, spec);
        roundNanos.addAndGet(System.nanoTime() - start);
        slowestPairNanos.addAndGet(
                runs.stream().mapToLong(PairRun::wallNanos).max().orElse(0));
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
