package dev.linkproof.engine.judging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.engine.MapParameters;
import dev.linkproof.engine.api.SweepPoint;
import dev.linkproof.engine.config.LinkproofConfiguration;
import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.LatencyStats;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.measure.RailResult;
import dev.linkproof.transfer.validate.Validation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A point that ran several rails, judged: a lagging rail fails it below criterion, naming the rail;
 * the figure drawn as its criterion is the aggregate's floor, never a rail's; the console's headline
 * is about the whole point.
 */
class RailsJudgingTest {
    static final TransferSpec SPEC =
            TransferSpec.builder().pointId("rails").size(1 << 20).iterations(10).build();
    static final SweepPoint POINT = new SweepPoint(SPEC, "write 1 MiB ×1 · 1 conn · tcp · 3 rails", "seg");

    @TempDir
    Path dir;

    private PointJudge judge(String criteria) throws Exception {
        Path profile = Files.writeString(dir.resolve("node.yaml"), """
            id: node
            vendor: test
            description: rails criteria
            match:
              fallback: true
            criteria:
            """ + criteria);
        Map<String, String> params =
                Map.of("linkproof.results", dir.resolve("r.jsonl").toString());
        return PointJudge.load(
                LinkproofConfiguration.from(new MapParameters(params)),
                RunProfile.load(Map.of("linkproof.profile", profile.toString()), ProfilePlacement.DeviceChoice.REMOTE)
                        .criteria());
    }

    /** Rails over the same second at these GB/s, on address pairs 10.77.i.1->10.77.i.2. */
    static Measurement rails(double... gbps) {
        List<RailResult> rails = new ArrayList<>();
        for (int i = 0; i < gbps.length; i++) {
            long bytes = Math.round(gbps[i] * 1e9);
            Measurement m = new Measurement(
                    SPEC,
                    bytes,
                    1_000_000_000L,
                    gbps[i],
                    LatencyStats.averageOnly(1e5),
                    new Validation(1, 1 << 20, 0, Optional.empty()),
                    Map.of(),
                    List.of());
            rails.add(new RailResult(i, "10.77." + i + ".1->10.77." + i + ".2", m, 1_000_000_000L, 2_000_000_000L));
        }
        return Measurement.ofRails(SPEC, rails);
    }

    private static final String NODE = """
          - name: per-pair
            op: write
            sizes: 1MiB..
            min-bandwidth: 0.5 GB/s
          - name: aggregate
            op: write
            sizes: 1MiB..
            rails: 2..
            min-aggregate-bandwidth: 2 GB/s
          - name: balance
            op: write
            sizes: 1MiB..
            rails: 2..
            min-rail-balance: 0.8 × median
        """;

    @Test
    void aLaggingRailFailsThePointBelowCriterionNamingIt() throws Exception {
        Judgement j = judge(NODE).judge("[point:rails]", POINT, rails(1.10, 0.05, 1.12), HostLoads.NONE, List.of());
        assertThat(j.failureKind()).contains(FailureKind.BELOW_CRITERION);
        assertThat(j.failure().orElseThrow())
                .startsWith("below criterion of profile 'node': ")
                .contains("write 1 MiB ×1 · 3 rails: rail 1 (10.77.1.1->10.77.1.2) 0.0500 GB/s < criterion 0.50 GB/s"
                        + " (per-pair)")
                .contains("write 1 MiB ×1 · 3 rails: rail 1 (10.77.1.1->10.77.1.2) 0.0500 GB/s is below 0.80 × the"
                        + " median rail (1.10 GB/s) (balance)");
        assertThat(j.criteria()).containsExactly("per-pair", "aggregate", "balance");
        // The aggregate's floor (2 GB/s; 2.27 GB/s measured), not a rail's 0.5.
        assertThat(j.criterionGBps()).isEqualTo(2.0);
        assertThat(j.headline()).isEqualTo("aggregate 2.27 GB/s ≥ criterion 2.00 GB/s (aggregate)");
        assertThat(j.performanceOnly()).isTrue();

        Judgement even = judge(NODE).judge("[point:rails]", POINT, rails(1.10, 1.05, 1.12), HostLoads.NONE, List.of());
        assertThat(even.failure()).isEmpty();
    }

    @Test
    void railsJudgedRailByRailOnlyHeadlineTheFailingRailAndDrawNoCriterion() throws Exception {
        PointJudge perPair = judge("""
              - name: per-pair
                op: write
                sizes: 1MiB..
                min-bandwidth: 0.5 GB/s
            """);
        Judgement j = perPair.judge("[point:rails]", POINT, rails(1.10, 0.05, 1.12), HostLoads.NONE, List.of());
        assertThat(j.failureKind()).contains(FailureKind.BELOW_CRITERION);
        assertThat(j.headline())
                .isEqualTo("rail 1 (10.77.1.1->10.77.1.2) 0.0500 GB/s < criterion 0.50 GB/s (per-pair)");
        assertThat(j.criterionGBps()).isNull();
        assertThat(j.verdicts()).filteredOn(v -> v.contains("per-pair")).hasSize(3);
    }
}
