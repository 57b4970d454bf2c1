package dev.linkproof.profiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rails keys ({@code rails}, {@code min-aggregate-bandwidth}, {@code min-rail-balance}) parse
 * strictly: a bad value stops loading with file:line:column, the key and the value.
 */
class RailsProfileErrorsTest {
    @TempDir
    Path dir;

    /** Seven lines; a criterion's "- name" is line 8, its next keys lines 9, 10, .... */
    private static final String HEAD = MalformedProfileTest.HEAD;

    private HardwareProfile parse(String yaml, Map<String, String> properties) throws IOException {
        Path file = dir.resolve("lab.yaml");
        Files.writeString(file, yaml);
        Map<String, String> props = new HashMap<>(properties);
        props.put(ProfileProperties.PROFILE, file.toString());
        return new ProfileLoader(props)
                .load(() -> {
                    throw new AssertionError("an explicit profile needs no probe");
                })
                .profile();
    }

    private ProfileException load(String yaml) throws IOException {
        return load(yaml, Map.of());
    }

    private ProfileException load(String yaml, Map<String, String> properties) throws IOException {
        ProfileException e = catchThrowableOfType(ProfileException.class, () -> parse(yaml, properties));
        assertThat(e).as("a ProfileException for:\n" + yaml).isNotNull();
        return e;
    }

    /** A criterion named node for two or more rails, then {@code key: value} on line 10. */
    private ProfileException node(String key, String value) throws IOException {
        return load(HEAD + "  - name: node\n    rails: 2..\n    " + key + ": " + value + "\n");
    }

    private String file() {
        return dir.resolve("lab.yaml").toString();
    }

    @Test
    void aBalanceIsAFractionOfTheMedianAboveZeroAndAtMostOne() throws IOException {
        assertThat(node("min-rail-balance", "1.2 × median").getMessage())
                .isEqualTo(file() + ":10:23: min-rail-balance: fraction in '1.2 × median' must be above 0 and at most 1"
                        + " (the slowest rail is never above the median)");
        assertThat(node("min-rail-balance", "120% of median").getMessage())
                .isEqualTo(
                        file() + ":10:23: min-rail-balance: fraction in '120% of median' must be above 0 and at most 1"
                                + " (the slowest rail is never above the median)");
        assertThat(node("min-rail-balance", "0 × median").getMessage())
                .isEqualTo(file() + ":10:23: min-rail-balance: fraction in '0 × median' must be above 0 and at most 1"
                        + " (the slowest rail is never above the median)");
        assertThat(node("min-rail-balance", "-0.5 × median").getMessage())
                .isEqualTo(file() + ":10:23: min-rail-balance '-0.5 × median' must be above zero (it is negative)");
        assertThat(node("min-rail-balance", "0.9").getMessage())
                .isEqualTo(file() + ":10:23: bad min-rail-balance '0.9' (expected e.g. 0.90 × median or 90% of median:"
                        + " the slowest rail's bandwidth as a fraction of the median rail's)");
    }

    @Test
    void anAggregateFloorIsPositiveAndAtMostTheLinks() throws IOException {
        assertThat(node("min-aggregate-bandwidth", "1.5 × links").getMessage())
                .isEqualTo(file() + ":10:30: min-aggregate-bandwidth: fraction in '1.5 × links' must be above 0 and at"
                        + " most 1 (no rails beat their links)");
        assertThat(node("min-aggregate-bandwidth", "110% of links").getMessage())
                .contains(":10:30: min-aggregate-bandwidth: "
                        + "fraction in '110% of links' must be above 0 and at most 1");
        assertThat(node("min-aggregate-bandwidth", "-5 GB/s").getMessage())
                .isEqualTo(file() + ":10:30: min-aggregate-bandwidth '-5 GB/s' must be above zero (it is negative)");
        assertThat(node("min-aggregate-bandwidth", "0 GB/s").getMessage())
                .isEqualTo(file() + ":10:30: min-aggregate-bandwidth '0 GB/s' must be above zero");
        assertThat(node("min-aggregate-bandwidth", "0.9 × link").getMessage())
                .isEqualTo(file() + ":10:30: min-aggregate-bandwidth '0.9 × link' must be an absolute rate (e.g. 360"
                        + " GB/s) or a fraction of the rails' link rates summed (e.g. 0.90 × links, 90% of"
                        + " links)");
        assertThat(node("min-aggregate-bandwidth", "fast").getMessage())
                .isEqualTo(
                        file() + ":10:30: bad min-aggregate-bandwidth 'fast' (expected e.g. 360 GB/s, 2880 Gb/s, 0.90"
                                + " × links, 90% of links)");
        assertThat(node("min-aggregate-bandwidth", "360 gb/s").getMessage()).contains(":10:30: ambiguous unit 'gb/s'");
        ProfileException noRate = load("id: lab\nvendor: Lab\nmatch: {fallback: true}\ncriteria:\n  - name: node\n"
                + "    rails: 2..\n    min-aggregate-bandwidth: 0.9 × links\n");
        assertThat(noRate.getMessage())
                .isEqualTo(file() + ":7:30: min-aggregate-bandwidth '0.9 × links' is relative to "
                        + "the links, but the profile sets no match.nic.link-rate");
    }

    @Test
    void aPerPairFloorIsNeitherNegativeNorOfTheLinks() throws IOException {
        assertThat(node("min-bandwidth", "-45 GB/s").getMessage())
                .isEqualTo(file() + ":10:20: min-bandwidth '-45 GB/s' must be above zero (it is negative)");
        assertThat(node("min-bandwidth", "0.9 × links").getMessage())
                .isEqualTo(
                        file() + ":10:20: min-bandwidth '0.9 × links': '× links' (the rails' link rates summed) is for"
                                + " min-aggregate-bandwidth; min-bandwidth judges one pair, or each rail of a rails"
                                + " point, so write a fraction of one link (e.g. 0.90 × link)");
    }

    @Test
    void unknownKeysAreNamedWithTheNearestKnownOne() throws IOException {
        ProfileException e = node("min-rail-balanse", "0.9 × median");
        assertThat(e.line()).isEqualTo(10);
        assertThat(e.column()).isEqualTo(5);
        assertThat(e.getMessage())
                .startsWith(file() + ":10:5: unknown key 'min-rail-balanse' in criterion, did you mean "
                        + "'min-rail-balance'? (allowed: ");
        assertThat(load(HEAD + "  - name: node\n    rail: 8\n    min-rail-balance: 0.9 × median\n")
                        .getMessage())
                .startsWith(file() + ":9:5: unknown key 'rail' in criterion, did you mean 'rails'?");
    }

    @Test
    void railCountsAreWholeNumbersFromOne() throws IOException {
        assertThat(load(HEAD + "  - name: node\n    rails: 0\n    max-drop: 5%\n")
                        .getMessage())
                .isEqualTo(file() + ":9:12: rails '0' must be at least 1");
        assertThat(load(HEAD + "  - name: node\n    rails: many\n    max-drop: 5%\n")
                        .getMessage())
                .isEqualTo(file() + ":9:12: bad rails 'many' (expected a whole number)");
        assertThat(load(HEAD + "  - name: node\n    rails: 8..2\n    max-drop: 5%\n")
                        .getMessage())
                .isEqualTo(file() + ":9:12: empty range '8..2': nothing is at least 8 and at most 2");
    }

    /** The aggregate and the balance of one pair are the pair: a criterion that sets them says which rail counts. */
    @Test
    void aggregateAndBalanceNeedARailScopeWithoutOne() throws IOException {
        assertThat(load(HEAD + "  - name: node\n    op: read\n    min-aggregate-bandwidth: 360 GB/s\n")
                        .getMessage())
                .isEqualTo(
                        file() + ":10:5: criterion 'node' sets min-aggregate-bandwidth, which judges points of several"
                                + " rails, but its rails are not set (any, 1 included); scope it with rails: 2.. (or a"
                                + " count, e.g. rails: 8)");
        assertThat(load(HEAD + "  - name: node\n    rails: ..8\n    min-rail-balance: 0.9 × median\n")
                        .getMessage())
                .isEqualTo(
                        file() + ":10:5: criterion 'node' sets min-rail-balance, which judges points of several rails,"
                                + " but its rails '..8' include 1; scope it with rails: 2.. (or a count, e.g. rails:"
                                + " 8)");
    }

    @Test
    void criteriaForOverlappingRailCountsOverlap() throws IOException {
        ProfileException e = load(HEAD + """
              - name: node
                rails: 2..
                min-aggregate-bandwidth: 0.9 × links
              - name: eight
                sizes: 1MiB..
                rails: 8
                min-aggregate-bandwidth: 360 GB/s
            """);
        assertThat(e.getMessage())
                .isEqualTo(file() + ":11:5: criterion 'eight' overlaps criterion 'node' (at " + file()
                        + ":8:5): both set min-aggregate-bandwidth for write, read, send, write-with-imm, sizes 1"
                        + " MiB.., batch any, rails 8; a point may have one criterion per threshold (scope them apart"
                        + " by op, memory, mode, sizes, batch, rails, transport or settings)");
    }

    @Test
    void aPropertyIsCheckedAsTheFileIs() throws IOException {
        String yaml = HEAD + "  - name: node\n    rails: 2..\n    min-rail-balance: 0.9 × median\n";
        ProfileException e = load(yaml, Map.of("linkproof.criteria.node.min-rail-balance", "1.5 × median"));
        assertThat(e.getMessage())
                .isEqualTo("property linkproof.criteria.node.min-rail-balance: min-rail-balance: fraction in '1.5 ×"
                        + " median' must be above 0 and at most 1 (the slowest rail is never above the median)");
        ProfileException one = load(yaml, Map.of("linkproof.criteria.node.rails", "1"));
        assertThat(one.getMessage())
                .endsWith("criterion 'node' sets min-rail-balance, which judges points of several rails, "
                        + "but its rails '1' include 1; scope it with rails: 2.. (or a count, e.g. rails: 8)");
        HardwareProfile eight = parse(
                yaml,
                Map.of(
                        "linkproof.criteria.node.rails",
                        "8",
                        "linkproof.criteria.node.min-rail-balance",
                        "85% of the median"));
        assertThat(eight.criterion("node").orElseThrow().rails()).isEqualTo(new Range(8, 8));
        assertThat(eight.criterion("node").orElseThrow().minRailBalance()).hasValue(0.85);
    }

    @Test
    void theWrittenFormsThatParse() throws IOException {
        HardwareProfile p = parse(HEAD + """
              - name: a
                op: write
                rails: 2..
                min-aggregate-bandwidth: 90% of the links
                min-rail-balance: 0.9 x median
              - name: b
                op: read
                rails: 8
                min-aggregate-bandwidth: 2880 Gb/s
                min-rail-balance: 0.80 × the median rail
              - name: c
                op: send
                rails: 2..4
                min-aggregate-bandwidth: 0.5 * links
                min-rail-balance: 75% of median
            """, Map.of());
        Criterion a = p.criterion("a").orElseThrow();
        assertThat(a.minAggregateBandwidth()).contains(new BandwidthFloor.OfLinks(0.9));
        assertThat(a.minRailBalance()).hasValue(0.9);
        assertThat(a.rails()).isEqualTo(new Range(2, Long.MAX_VALUE));
        Criterion b = p.criterion("b").orElseThrow();
        assertThat(b.minAggregateBandwidth()).contains(new BandwidthFloor.Absolute(360));
        assertThat(b.minRailBalance()).hasValue(0.8);
        Criterion c = p.criterion("c").orElseThrow();
        assertThat(c.minAggregateBandwidth().orElseThrow().written()).isEqualTo("0.50 × links");
        assertThat(c.minRailBalance()).hasValue(0.75);
        assertThat(c.thresholds())
                .containsExactly(Criterion.Threshold.MIN_AGGREGATE_BANDWIDTH, Criterion.Threshold.MIN_RAIL_BALANCE);
        // Existing criteria cover any rail count.
        assertThat(BuiltinProfiles.standard().profile("cx7-400g").criteria())
                .allMatch(k -> k.rails().isAny());
    }
}
