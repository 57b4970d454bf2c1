package dev.linkproof.engine.run;

import dev.linkproof.engine.api.SweepPoint;
import dev.linkproof.engine.config.FleetSettings;
import dev.linkproof.engine.reporting.ProgressPrinter;
import dev.linkproof.fleet.act.History;
import dev.linkproof.fleet.blame.Blame;
import dev.linkproof.fleet.blame.Measure;
import dev.linkproof.fleet.blame.Point;
import dev.linkproof.fleet.blame.Stage;
import dev.linkproof.fleet.campaign.Campaign;
import dev.linkproof.fleet.campaign.CampaignEvent;
import dev.linkproof.fleet.campaign.CampaignSettings;
import dev.linkproof.fleet.campaign.FleetPlan;
import dev.linkproof.fleet.campaign.Outcomes;
import dev.linkproof.fleet.campaign.PointCheck;
import dev.linkproof.fleet.coordinate.PairRun;
import dev.linkproof.fleet.plan.Pair;
import dev.linkproof.reports.fleet.FleetHistory;
import dev.linkproof.reports.fleet.FleetRunInfo;
import dev.linkproof.reports.prometheus.PointLabels;
import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.spi.Transports;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The engine's side of a fleet run: the {@link Campaign} (the fleet module's, which owns the
 * workflow, the confirmations, the blame and the acting) driven from the descriptors, its events
 * printed through the progress printer, and the engine's points and pair tests translated into the
 * campaign's. It decides nothing itself. {@link #close} ends the run for every agent.
 */
public final class FleetRun implements AutoCloseable {
    private final FleetSettings settings;
    private final Campaign campaign;
    /** Each point's labels in the fleet's metrics, by the campaign's point id. */
    private final Map<String, PointLabels> labels = new java.util.concurrent.ConcurrentHashMap<>();

    public FleetRun(
            FleetSettings settings,
            FleetPlan plan,
            CampaignSettings campaign,
            ProgressPrinter progress,
            Transports transports) {
        this.settings = settings;
        this.campaign = new Campaign(plan, campaign, (CampaignEvent e) -> progress.fleet(e.describe()), transports);
    }

    public FleetSettings settings() {
        return settings;
    }

    /** How many points the run has, for the plan's estimate. */
    public void points(int count) {
        campaign.points(count);
    }

    /** Starts the registry and waits for the expected nodes, once; later calls return at once. */
    public void register() throws InterruptedException {
        campaign.register();
    }

    /** Why {@code node} is not in the run, if it is not. */
    public Optional<String> notRegistered(String node) {
        return campaign.notRegistered(node);
    }

    /** The campaign's name for one of the engine's points: its unique id, display name and the figure it is judged on. */
    public static Point point(String uniqueId, SweepPoint point) {
        return new Point(
                uniqueId,
                point.displayName(),
                point.spec().mode() == Mode.LATENCY ? Measure.LATENCY : Measure.BANDWIDTH);
    }

    /**
     * Runs a point's rounds for the selected pairs; {@code check}: the profile's judgement of a rerun's
     * measurement; {@code labels}: the point in the fleet's metrics.
     */
    public Map<Pair, PairRun> runPoint(
            Point point, TransferSpec spec, PointLabels labels, Set<Pair> selected, PointCheck check) {
        this.labels.put(point.id(), labels);
        return campaign.runPoint(new Campaign.PointRun(point, spec, check), selected);
    }

    /** A point's labels in the fleet's metrics; null for a point whose rounds never ran. */
    public PointLabels labels(Point point) {
        return labels.get(point.id());
    }

    /** A pair's test ended: how blame sees it ({@code failed}: the test's failure kind, empty when it passed). */
    public void recordTest(Point point, Pair pair, Measurement m, Optional<FailureKind> failed) {
        Outcomes.of(point, pair, m, failed, Stage.FIRST, System.currentTimeMillis())
                .ifPresent(campaign::record);
    }

    /** Confirmations, retests and the verdicts. */
    public Blame conclude() {
        return campaign.conclude();
    }

    /** Every first-round outcome, for the reports. */
    public java.util.List<dev.linkproof.fleet.blame.PairOutcome> outcomes() {
        return campaign.outcomes();
    }

    /** The run as fleet-verdict.json names it. */
    public FleetRunInfo runInfo(String profile) {
        return new FleetRunInfo(
                campaign.id(),
                campaign.started(),
                Instant.now(),
                campaign.plan().pattern(),
                profile);
    }

    /**
     * Acts on the verdicts as the settings say, weighed against the history when one is kept. A
     * history that cannot be read acts on nothing and says why: a verdict that would drain a node
     * must not be taken alone because its record was lost.
     */
    public void act(Blame blame, ProgressPrinter progress) {
        Optional<History> history;
        try {
            history = settings.history().map(FleetHistory::read);
        } catch (RuntimeException e) {
            progress.fleet("acting on nothing: " + e.getMessage());
            return;
        }
        campaign.act(blame, history);
    }

    @Override
    public void close() {
        campaign.close();
    }
}
