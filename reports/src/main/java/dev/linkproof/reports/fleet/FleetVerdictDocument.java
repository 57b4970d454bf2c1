package dev.linkproof.reports.fleet;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.linkproof.fleet.blame.Blame;
import dev.linkproof.fleet.blame.Evidence;
import dev.linkproof.fleet.blame.NodeStatus;
import dev.linkproof.fleet.blame.PointStats;
import dev.linkproof.fleet.blame.Verdict;
import dev.linkproof.fleet.blame.VerdictKind;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The schema of fleet-verdict.json ({@link #SCHEMA}), as records Jackson writes and reads back: the
 * run, every node with its status, the verdicts with their evidence, and each point's fleet
 * figures. Figures not measured are absent (null), never NaN, which JSON has no word for. Kinds and
 * statuses are written as slugs ({@code bad-node}, {@code clear}), the names labels and taints use.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FleetVerdictDocument(String schema, Run run, Summary summary, List<Node> nodes, List<VerdictEntry> verdicts, List<PointEntry> points) {
    public static final String SCHEMA = "linkproof.fleet-verdict/1";

    public record Run(String id, String started, String finished, String pattern, String profile, double bandwidthFraction,
            double latencyMultiple) { }

    /** Counts for a glance: nodes, how many are clear, and verdicts by kind. */
    public record Summary(int nodes, int clear, Map<String, Integer> verdicts) { }

    public record Node(String name, String status) { }

    public record VerdictEntry(String kind, List<String> nodes, String reason, List<EvidenceEntry> evidence, int evidenceOmitted) { }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record EvidenceEntry(String initiator, String target, String pointId, String point, String fault, Double bandwidthGBps,
            Double latencyUs, Double fleetReference, boolean retest) { }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record PointEntry(String id, String name, int pairs, int measuredBandwidth, Double medianGBps, Double minGBps, Double maxGBps,
            int measuredLatency, Double lowestLatencyUs, Double medianLatencyUs) { }

    /** The document of {@code blame} for the run {@code run}. */
    public static FleetVerdictDocument of(FleetRunInfo run, Blame blame) {
        var t = blame.judge().fleet().thresholds();
        Run r = new Run(run.id(), run.started().toString(), run.finished().toString(), run.pattern(), run.profile(), t.bandwidthFraction(),
                t.latencyMultiple());
        List<Node> nodes = blame.nodes().stream().map(n -> new Node(n, slug(blame.statusOf(n)))).toList();
        Map<VerdictKind, Integer> byKind = new EnumMap<>(VerdictKind.class);
        blame.verdicts().forEach(v -> byKind.merge(v.kind(), 1, Integer::sum));
        Map<String, Integer> counts = new java.util.LinkedHashMap<>();
        byKind.forEach((k, c) -> counts.put(k.slug(), c));
        int clear = (int) blame.nodes().stream().filter(n -> blame.statusOf(n) == NodeStatus.CLEAR).count();
        return new FleetVerdictDocument(SCHEMA, r, new Summary(nodes.size(), clear, counts), nodes,
                blame.verdicts().stream().map(FleetVerdictDocument::entry).toList(),
                blame.points().stream().map(FleetVerdictDocument::entry).toList());
    }

    private static VerdictEntry entry(Verdict v) {
        return new VerdictEntry(v.kind().slug(), v.nodes(), v.reason(), v.evidence().stream().map(FleetVerdictDocument::entry).toList(),
                v.evidenceOmitted());
    }

    private static EvidenceEntry entry(Evidence e) {
        return new EvidenceEntry(e.pair().initiator(), e.pair().target(), e.point().id(), e.point().name(), e.fault().name().toLowerCase(Locale.ROOT),
                figure(e.bandwidthGBps()), figure(e.latencyUs()), figure(e.fleetReference()), e.retest());
    }

    private static PointEntry entry(PointStats s) {
        return new PointEntry(s.point().id(), s.point().name(), s.pairs(), s.measuredBandwidth(), figure(s.medianGBps()), figure(s.minGBps()),
                figure(s.maxGBps()), s.measuredLatency(), figure(s.lowestLatencyUs()), figure(s.medianLatencyUs()));
    }

    private static String slug(NodeStatus s) {
        return s.name().toLowerCase(Locale.ROOT);
    }

    private static Double figure(double v) {
        return Double.isNaN(v) ? null : v;
    }
}
