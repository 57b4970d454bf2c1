package dev.linkproof.profiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A malformed profile stops loading with file:line:column and the cause. */
class MalformedProfileTest {
    @TempDir
    Path dir;

    /** A lab profile's first seven lines, up to {@code criteria:}; RailsProfileErrorsTest uses it too. */
    static final String HEAD = """
        id: lab
        vendor: Lab
        match:
          nic:
            driver: mlx5_core
            link-rate: 400 Gb/s
        criteria:
        """;

    private ProfileException load(String yaml) throws IOException {
        Path file = dir.resolve("lab.yaml");
        Files.writeString(file, yaml);
        return catchThrowableOfType(
                ProfileException.class,
                () -> new ProfileLoader(Map.of(ProfileProperties.PROFILE, file.toString())).load(() -> {
                    throw new AssertionError("an explicit profile needs no probe");
                }));
    }

    private String file() {
        return dir.resolve("lab.yaml").toString();
    }

    @Test
    void unknownKey() throws IOException {
        ProfileException e = load(HEAD + """
              - name: big
                op: write
                min-bandwith: 0.9 × link
            """);
        assertThat(e).isNotNull();
        assertThat(e.source()).isEqualTo(file());
        assertThat(e.line()).isEqualTo(10);
        assertThat(e.column()).isEqualTo(5);
        assertThat(e.getMessage())
                .isEqualTo(file() + ":10:5: unknown key 'min-bandwith' in criterion, did you mean 'min-bandwidth'?"
                        + " (allowed: name, op, memory, mode, sizes, batch, rails, transport, settings,"
                        + " min-bandwidth, min-aggregate-bandwidth, min-rail-balance, max-avg-latency,"
                        + " max-p99-latency, max-drop, min-ops-per-second, enabled)");
    }

    /** An explicit profile is chosen by id only: a hardware rule or a fallback beside it contradicts it. */
    @Test
    void anExplicitProfileHasNoOtherMatchRule() throws IOException {
        assertThat(load("id: lab\nvendor: Lab\nmatch: {explicit: true, fallback: true}\n")
                        .getMessage())
                .startsWith(file() + ":3:")
                .contains("an explicit profile (chosen only by its id) has no nic, gpu or fallback rule");
        assertThat(load("id: lab\nvendor: Lab\nmatch:\n  explicit: true\n  nic: {driver: efa}\n")
                        .getMessage())
                .contains("an explicit profile (chosen only by its id) has no nic, gpu or fallback rule");
        assertThat(load("id: lab\nvendor: Lab\nmatch: {explicit: false}\n").getMessage())
                .contains("match needs a 'nic' or 'gpu' rule, 'fallback: true' or 'explicit: true'");
    }

    @Test
    void unknownTopLevelKey() throws IOException {
        ProfileException e = load("id: lab\nvendor: Lab\nmatch: {fallback: true}\ncriterias: []\n");
        assertThat(e.getMessage())
                .startsWith(file() + ":4:1: unknown key 'criterias' in profile, did you mean 'criteria'?");
    }

    @Test
    void badUnits() throws IOException {
        ProfileException bw = load(HEAD + """
              - name: big
                min-bandwidth: 45 GBps
            """);
        assertThat(bw.getMessage())
                .isEqualTo(file() + ":9:20: bad unit 'GBps' in '45 GBps' (expected GB/s, MB/s, GiB/s, "
                        + "MiB/s, Gb/s or Mb/s)");

        ProfileException ambiguous = load(HEAD + """
              - name: big
                min-bandwidth: 45 gb/s
            """);
        assertThat(ambiguous.getMessage()).contains(":9:20: ambiguous unit 'gb/s'");

        ProfileException lat = load(HEAD + """
              - name: small
                max-avg-latency: 7.5 usec
            """);
        assertThat(lat.getMessage())
                .isEqualTo(file() + ":9:22: bad duration '7.5 usec' (expected e.g. 7.5 µs, 7.5 us, " + "200 ns, 2 ms)");

        ProfileException size = load(HEAD + """
              - name: small
                sizes: 4KB/s..8MiB
                max-avg-latency: 7 us
            """);
        assertThat(size.getMessage()).startsWith(file() + ":9:12: bad size '4KB/s'");

        ProfileException rate = load("id: lab\nvendor: Lab\nmatch:\n  nic:\n    link-rate: 400 GB/s\n");
        assertThat(rate.getMessage())
                .startsWith(file() + ":5:16: bad unit 'GB/s' in link rate '400 GB/s' (a link rate is in bits");

        ProfileException pct = load(HEAD + """
              - name: curve
                max-drop: 0.1
            """);
        assertThat(pct.getMessage()).isEqualTo(file() + ":9:15: bad percentage '0.1' (expected e.g. 10%)");
    }

    @Test
    void emptyRanges() throws IOException {
        ProfileException sizes = load(HEAD + """
              - name: big
                sizes: 8MiB..4MiB
                min-bandwidth: 40 GB/s
            """);
        assertThat(sizes.getMessage())
                .isEqualTo(file() + ":9:12: empty range '8MiB..4MiB': nothing is at least 8 MiB and at most 4 MiB");

        ProfileException exclusive = load(HEAD + """
              - name: big
                batch: 4..<4
                min-bandwidth: 40 GB/s
            """);
        assertThat(exclusive.getMessage())
                .isEqualTo(file() + ":9:12: empty range '4..<4': nothing is at least 4 and below 4");
    }

    @Test
    void overlappingCriteria() throws IOException {
        ProfileException e = load(HEAD + """
              - name: large
                op: write
                sizes: 1MiB..64MiB
                min-bandwidth: 0.9 × link
              - name: huge
                op: [read, write]
                sizes: 32MiB..
                batch: 1..8
                min-bandwidth: 0.95 × link
            """);
        assertThat(e.line()).isEqualTo(12);
        assertThat(e.column()).isEqualTo(5);
        assertThat(e.getMessage())
                .isEqualTo(file() + ":12:5: criterion 'huge' overlaps criterion 'large' (at " + file()
                        + ":8:5): both set min-bandwidth for write, sizes 32 MiB..64 MiB, batch ..8; a point"
                        + " may have one criterion per threshold (scope them apart by op, memory, mode, sizes,"
                        + " batch, rails, transport or settings)");
    }

    @Test
    void criteriaThatShareNoThresholdMayOverlap() throws IOException {
        Path file = dir.resolve("ok.yaml");
        Files.writeString(file, HEAD + """
              - name: large
                op: write
                min-bandwidth: 0.9 × link
              - name: curve
                op: write
                sizes: 64KiB..
                max-drop: 5%
            """);
        HardwareProfile p = new ProfileLoader(Map.of(ProfileProperties.PROFILE, file.toString()))
                .load(() -> null)
                .profile();
        assertThat(p.criteria()).extracting(Criterion::name).containsExactly("large", "curve");
        assertThat(p.layers()).containsExactly("file " + file);
    }

    @Test
    void aBaselineToleranceIsAFractionBelowOne() throws IOException {
        for (String bad : new String[] {"5", "1.0", "-0.1", "100%", "lots"}) {
            ProfileException e =
                    load("id: lab\nvendor: Lab\nmatch: {fallback: true}\nbaseline:\n  tolerance: " + bad + "\n");
            assertThat(e.getMessage())
                    .as(bad)
                    .isEqualTo(file() + ":5:14: bad tolerance '" + bad + "' (expected a fraction in "
                            + "[0, 1) such as 0.08, or a percentage below 100% such as 8%)");
        }
        assertThat(load("id: lab\nvendor: Lab\nmatch: {fallback: true}\nbaseline:\n  tolerence: 0.1\n")
                        .getMessage())
                .isEqualTo(file()
                        + ":5:3: unknown key 'tolerence' in baseline, did you mean 'tolerance'? (allowed: tolerance)");
    }

    /** A profile's fleet-relative criteria: a fraction in (0, 1] and a multiple in (1, 1000], read; anything else named. */
    @Test
    void theFleetSectionTakesAFractionAndAMultiple() throws IOException {
        Path file = dir.resolve("fleet.yaml");
        Files.writeString(
                file,
                "id: lab\nvendor: Lab\nmatch: {fallback: true}\nfleet:\n  min-of-median-bandwidth: 0.8\n"
                        + "  max-of-lowest-latency: 3\n");
        HardwareProfile p = new ProfileLoader(Map.of(ProfileProperties.PROFILE, file.toString()))
                .load(() -> null)
                .profile();
        assertThat(p.fleet().minOfMedianBandwidth()).hasValue(0.8);
        assertThat(p.fleet().maxOfLowestLatency()).hasValue(3.0);
        assertThat(load("id: lab\nvendor: Lab\nmatch: {fallback: true}\nfleet:\n  min-of-median-bandwidth: 1.5\n")
                        .getMessage())
                .isEqualTo(file() + ":5:28: min-of-median-bandwidth 1.5 out of range (0.0, 1.0]");
        assertThat(load("id: lab\nvendor: Lab\nmatch: {fallback: true}\nfleet:\n  max-of-lowest-latency: half\n")
                        .getMessage())
                .isEqualTo(file() + ":5:26: bad max-of-lowest-latency 'half' (expected a number)");
        assertThat(load("id: lab\nvendor: Lab\nmatch: {fallback: true}\nfleet:\n  min-of-median: 0.9\n")
                        .getMessage())
                .startsWith(file() + ":5:3: unknown key 'min-of-median' in fleet");
    }

    @Test
    void otherMistakes() throws IOException {
        assertThat(load("id: lab\nvendor: Lab\nvendor: Again\nmatch: {fallback: true}\n")
                        .getMessage())
                .isEqualTo(file() + ":3:1: duplicate key 'vendor' (first at " + file() + ":2:1)");
        assertThat(load("id: lab\nvendor: [Lab\n").getMessage()).startsWith(file() + ":3:1: YAML syntax error");
        assertThat(load("id: lab\nvendor: Lab\n").getMessage())
                .isEqualTo(file() + ":1:1: profile 'lab' has no 'match' section");
        assertThat(load("id: lab\n"
                                + "vendor: Lab\n"
                                + "match: {fallback: true}\n"
                                + "criteria:\n"
                                + "  - name: a\n"
                                + "    min-bandwidth: 0.9 × link\n")
                        .getMessage())
                .isEqualTo(file() + ":6:20: '0.9 × link' is relative to the link, but the profile sets no "
                        + "match.nic.link-rate");
        assertThat(load(HEAD + "  - name: a\n    op: write\n").getMessage())
                .isEqualTo(file()
                        + ":8:5: criterion 'a' sets no threshold (one of min-bandwidth, min-aggregate-bandwidth, "
                        + "min-rail-balance, max-avg-latency, max-p99-latency, max-drop, min-ops-per-second)");
        assertThat(load(HEAD + "  - name: a\n    op: writ\n    max-drop: 5%\n").getMessage())
                .isEqualTo(file()
                        + ":9:9: unknown op 'writ' (expected write, read, send, write-with-imm, fetch-add,"
                        + " compare-swap or any)");
        assertThat(load(HEAD + "  - name: a\n    memory: host->vram\n    max-drop: 5%\n")
                        .getMessage())
                .startsWith(file() + ":9:13: unknown memory kind 'host->vram'");
        assertThat(load(HEAD + "  - name: a\n    mode: bandwidth\n    max-p99-latency: 5 us\n")
                        .getMessage())
                .startsWith(file() + ":10:5: max-p99-latency can never be judged in bandwidth mode");
        assertThat(load(HEAD + "  - name: A.b\n    max-drop: 5%\n").getMessage())
                .startsWith(file() + ":8:11: bad criterion name 'A.b'");
        assertThat(load("id: lab\nvendor: Lab\nmatch:\n  nic:\n    pci-vendor: 5555\n")
                        .getMessage())
                .isEqualTo(file() + ":5:17: bad PCI id '5555' (expected 0x and four hex digits, e.g. 0x15b3)");
        assertThat(load("").getMessage()).isEqualTo(file() + ":1:1: the document is empty");
    }

    @Test
    void missingFileAndUnknownIdNameTheProperty() {
        ProfileException missing = catchThrowableOfType(
                ProfileException.class,
                () -> new ProfileLoader(Map.of(
                                ProfileProperties.PROFILE,
                                dir.resolve("nope.yaml").toString()))
                        .load(() -> null));
        assertThat(missing.getMessage())
                .startsWith("property linkproof.profile: cannot read profile file ")
                .endsWith("nope.yaml: no such file");
        ProfileException unknown = catchThrowableOfType(
                ProfileException.class,
                () -> new ProfileLoader(Map.of(ProfileProperties.PROFILE, "cx7-400")).load(() -> null));
        assertThat(unknown.getMessage())
                .startsWith("property linkproof.profile: 'cx7-400' is neither a built-in profile, "
                        + "did you mean 'cx7-400g'?");
        assertThat(unknown.line()).isZero();
    }
}
