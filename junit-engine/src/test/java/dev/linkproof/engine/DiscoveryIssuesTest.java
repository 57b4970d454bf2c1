package dev.linkproof.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.descriptor.SweepPointDescriptor;
import dev.linkproof.engine.fixtures.InvalidSweeps;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.testkit.engine.EngineDiscoveryResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/** Broken {@code @TransferTest} methods are discovery issues naming the method and the cause, never exceptions. */
class DiscoveryIssuesTest {
    private static final String CLASS = InvalidSweeps.class.getName();
    private static EngineDiscoveryResults results;
    private static Map<String, DiscoveryIssue> byMethod;

    @BeforeAll
    static void discover() {
        results = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.PROGRESS, "false")
                .selectors(selectClass(InvalidSweeps.class))
                .discover();
        byMethod = results.getDiscoveryIssues().stream()
                .collect(Collectors.toMap(i -> ((MethodSource) i.source().orElseThrow()).getMethodName(), i -> i));
    }

    @Test
    void everyBrokenMethodIsOneErrorIssueWithItsMethodSource() {
        assertThat(results.getDiscoveryIssues()).hasSize(22);
        assertThat(results.getDiscoveryIssues()).allSatisfy(i -> {
            assertThat(i.severity()).isEqualTo(DiscoveryIssue.Severity.ERROR);
            assertThat(i.source()).containsInstanceOf(MethodSource.class);
            MethodSource s = (MethodSource) i.source().orElseThrow();
            assertThat(s.getClassName()).isEqualTo(CLASS);
            assertThat(i.message()).startsWith("@TransferTest method " + CLASS + "#" + s.getMethodName() + " ");
        });
        assertThat(byMethod).doesNotContainKey("stillFine");
    }

    @Test
    void brokenMethodsHaveNoPointsAndTheRestOfTheClassStillDiscovers() {
        List<SweepPointDescriptor> points = results.getEngineDescriptor().getDescendants().stream()
                .filter(SweepPointDescriptor.class::isInstance)
                .map(SweepPointDescriptor.class::cast)
                .toList();
        assertThat(points).hasSize(1);
        assertThat(points.getFirst().getParent().orElseThrow().getDisplayName()).isEqualTo("stillFine");
        TestDescriptor clazz =
                results.getEngineDescriptor().getChildren().iterator().next();
        assertThat(clazz.getChildren())
                .extracting(TestDescriptor::getDisplayName)
                .containsExactly("stillFine");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "fromAfterTo|has an invalid sweep: sizes: from 8KiB is larger than to 4KiB (empty range)",
                "badUnit|has an invalid sweep: sizes: bad size '4QiB'",
                "zeroBatch|has an invalid sweep: batch 0 out of range 1..65536",
                "zeroQps|has an invalid sweep: qps 0 out of range 1..256",
                "valuesAndRange|has an invalid sweep: sizes: give either values or from/to, not both",
                "latencyPipelined|has an invalid sweep: pipeline 4 with mode = LATENCY",
                "stepThatDoesNotGrow|has an invalid sweep: sizes: step 'x1' must multiply by at least 2",
                "rangeWithoutTo|has an invalid sweep: sizes: a range needs both from and to",
                "regionTooLarge|exceeds the limit of 2147483647 bytes",
                "unknownMemory|has an invalid sweep: memory: unknown memory kind 'ram'",
                "badSetting|has an invalid sweep: settings: 'NO_EQUALS_SIGN' is not KEY=value",
                "offsetTooLarge|has an invalid sweep: offset 4096 out of range 0..4095",
                "tooManySizes|gives more than 10000 sizes",
                "sizeTooLarge|has an invalid sweep: sizes: 2GiB out of range 1 B..1 GiB",
                "unsupportedParameter|has a parameter of type java.lang.String that the engine cannot supply",
                "staticMethod|must not be static",
                "returnsSomething|must return void, not int",
                "transportThatIsNoTag|has an invalid sweep: transport 'warp drive' is not a valid transport id",
                "zeroStep|has an invalid sweep: sizes: step '+0' must be positive",
            })
    void issueNamesTheCause(String method, String expected) {
        assertThat(byMethod).containsKey(method);
        assertThat(byMethod.get(method).message()).contains(expected);
    }

    @Test
    void aMethodWithSeveralMistakesNamesThemAllInOneIssue() {
        assertThat(byMethod.get("severalMistakes").message())
                .isEqualTo("@TransferTest method " + CLASS
                        + "#severalMistakes must not be static; and has an invalid sweep: sizes: bad size '4QiB'"
                        + " (expected e.g. 4096, 4KiB, 1MiB); batch 0 out of range 1..65536; offset 4096 out of range"
                        + " 0..4095; memory: unknown memory kind 'ram' (expected host, hugepage, gpu or gpu:N)");
    }

    @Test
    void badPointsAreNamedUpToThreeAndCounted() {
        String m = byMethod.get("manyBadPoints").message();
        assertThat(m.split("point op=write,size=1073741824,batch=", -1)).hasSize(4);
        assertThat(m).contains("exceeds the limit").endsWith("; and 1 more point(s) like these");
    }

    @Test
    void tooManyPointsIsNamedBesideTheOtherMistakes() {
        assertThat(byMethod.get("tooManyPointsAndABadOffset").message())
                .contains("offset 5000 out of range 0..4095; the sweep expands to 32768 points, more than 10000");
    }

    @Test
    void unsupportedParameterListsWhatIsSupported() {
        assertThat(byMethod.get("unsupportedParameter").message())
                .contains("Measurement", "SweepPoint", "TransferSpec", "TransferSession");
    }

    @Test
    void selectingOneBrokenMethodGivesItsIssueAndNoPoints() {
        EngineDiscoveryResults r = EngineTestKit.engine(Constants.ENGINE_ID)
                .selectors(selectMethod(InvalidSweeps.class, "zeroBatch", ""))
                .discover();
        assertThat(r.getDiscoveryIssues())
                .singleElement()
                .satisfies(i -> assertThat(i.message()).contains("zeroBatch").contains("batch 0"));
        assertThat(r.getEngineDescriptor().getDescendants()).noneMatch(SweepPointDescriptor.class::isInstance);
    }
}
