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
public record FleetVerdictDocument(
        String schema,
        Run run,
        Summary summary,
        List<Node> nodes,
        List<VerdictEntry> verdicts,
        List<PointEntry> points,
        List<ClearedEntry> cleared) {
    public static final String SCHEMA = "linkproof.fleet-verdict/1";

    /**
     * The run and how it reached its verdicts: the fleet-relative ratios and spread, the population a
     * point needs to be judged against the fleet, the confirmations per failing pair, and the breaker.
     */
    public record Run(
            String id,
            String started,
            String finished,
            String pattern,
            String profile,
            double bandwidthFraction,
            double latencyMultiple,
            Double maxDeviations,
            Integer minNodes,
            Integer minPairs,
            Integer confirmations,
            Double maxBlamedFraction) {}

    /** Counts for a glance: nodes, how many are clear, and verdicts by kind. */
    public record Summary(int nodes, int clear, Map<String, Integer> verdicts) {}

    public record Node(String name, String status) {}

    public record VerdictEntry(
            String kind, List<String> nodes, String reason, List<EvidenceEntry> evidence, int evidenceOmitted) {}

    /**
     * One run a verdict rests on. {@code fault} absent: this run passed (a verdict lists every run of
     * the pairs it rests on); {@code stage}: first, confirmation or retest; {@code at}: when it ended.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record EvidenceEntry(
            String initiator,
            String target,
            String pointId,
            String point,
            String fault,
            Double bandwidthGBps,
            Double latencyUs,
            Double fleetReference,
            boolean retest,
            String stage,
            String at) {}

    /** A (pair, point) that failed and that its other runs cleared: no verdict rests on it. */
    public record ClearedEntry(
            String initiator, String target, String point, long failed, int runs, List<EvidenceEntry> evidence) {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record PointEntry(
            String id,
            String name,
            int pairs,
            int measuredBandwidth,
            Double medianGBps,
            Double minGBps,
            Double maxGBps,
            int measuredLatency,
            Double lowestLatencyUs,
            Double medianLatencyUs,
            String judgedOn,
            Double referenceGBps,
            Double bandwidthSpread,
            Double referenceLatencyUs,
            Double latencySpread,
            String notJudged) {}

    /** The document of {@code blame} for the run {@code run}. */
    public static FleetVerdictDocument of(FleetRunInfo run, Blame blame) {
        var t = blame.judge().fleet().thresholds();
        Run r = new Run(
                run.id(),
                run.started().toString(),
                run.finished().toString(),
                run.pattern(),
                run.profile(),
                t.bandwidthFraction(),
                t.latencyMultiple(),
                t.maxDeviations(),
                t.minNodes(),
                t.minPairs(),
                blame.settings().confirmations(),
                blame.settings().maxBlamedFraction());
        List<Node> nodes = blame.nodes().stream()
                .map(n -> new Node(n, slug(blame.statusOf(n))))
                .toList();
        Map<VerdictKind, Integer> byKind = new EnumMap<>(VerdictKind.class);
        blame.verdicts().forEach(v -> byKind.merge(v.kind(), 1, Integer::sum));
        Map<String, Integer> counts = new java.util.LinkedHashMap<>();
        byKind.forEach((k, c) -> counts.put(k.slug(), c));
        int clear = (int) blame.nodes().stream()
                .filter(n -> blame.statusOf(n) == NodeStatus.CLEAR)
                .count();
        return new FleetVerdictDocument(
                SCHEMA,
                r,
                new Summary(nodes.size(), clear, counts),
                nodes,
                blame.verdicts().stream().map(FleetVerdictDocument::entry).toList(),
                blame.points().stream().map(FleetVerdictDocument::entry).toList(),
                blame.cleared().stream()
                        .map(c -> new ClearedEntry(
                                c.runs().getFirst().pair().initiator(),
                                c.runs().getFirst().pair().target(),
                                c.runs().getFirst().point().name(),
                                c.failed(),
                                c.runs().size(),
                                c.runs().stream()
                                        .map(FleetVerdictDocument::entry)
                                        .toList()))
                        .toList());
    }

    private static VerdictEntry entry(Verdict v) {
        return new VerdictEntry(
                v.kind().slug(),
                v.nodes(),
                v.reason(),
                v.evidence().stream().map(FleetVerdictDocument::entry).toList(),
                v.evidenceOmitted());
    }

    private static EvidenceEntry entry(Evidence e) {
        return new EvidenceEntry(
                e.pair().initiator(),
                e.pair().target(),
                e.point().id(),
                e.point().name(),
                e.fault().map(f -> f.name().toLowerCase(Locale.ROOT)).orElse(null),
                figure(e.bandwidthGBps()),
                figure(e.latencyUs()),
                figure(e.fleetReference()),
                e.retest(),
                e.stage().slug(),
                e.atMillis() > 0 ? java.time.Instant.ofEpochMilli(e.atMillis()).toString() : null);
    }

    private static PointEntry entry(PointStats s) {
        return new PointEntry(
                s.point().id(),
                s.point().name(),
                s.pairs(),
                s.measuredBandwidth(),
                figure(s.medianGBps()),
                figure(s.minGBps()),
                figure(s.maxGBps()),
                s.measuredLatency(),
                figure(s.lowestLatencyUs()),
                figure(s.medianLatencyUs()),
                s.point().judgedOn().name().toLowerCase(Locale.ROOT),
                figure(s.referenceGBps()),
                figure(s.bandwidthSpread()),
                figure(s.referenceLatencyUs()),
                figure(s.latencySpread()),
                s.notJudged().orElse(null));
    }

    private static String slug(NodeStatus s) {
        return s.name().toLowerCase(Locale.ROOT);
    }

    private static Double figure(double v) {
        return Double.isNaN(v) ? null : v;
    }
}
