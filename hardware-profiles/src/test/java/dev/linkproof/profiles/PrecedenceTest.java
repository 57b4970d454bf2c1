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

/** built-in &lt; profile file &lt; overlay file &lt; linkproof.criteria.* properties, as DCGM diagnostics layers its config. */
class PrecedenceTest {
    static final BuiltinProfiles SET = BuiltinProfiles.of(Map.of(
            "base",
            """
            id: base
            vendor: Lab
            match:
              nic:
                driver: mlx5_core
                link-rate: 400 Gb/s
            transport:
              environment:
                UCX_TLS: rc_x
                UCX_IB_GID_INDEX: "3"
            defaults:
              iterations: 500
              warmup: 50
            criteria:
              - name: write-large
                op: write
                sizes: 8MiB..
                min-bandwidth: 0.90 × link
              - name: curve
                op: write
                sizes: 64KiB..
                max-drop: 5%
            """,
            "loop-a",
            "id: loop-a\nvendor: x\nextends: loop-b\n",
            "loop-b",
            "id: loop-b\nvendor: x\nextends: loop-a\n"));

    @TempDir
    Path dir;

    private Path write(String name, String yaml) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, yaml);
        return p;
    }

    private HardwareProfile load(Map<String, String> props) {
        return new ProfileLoader(props, SET)
                .load(() -> {
                    throw new AssertionError("no probe for an explicit profile");
                })
                .profile();
    }

    private static String floor(HardwareProfile p, String criterion) {
        return p.criterion(criterion).orElseThrow().minBandwidth().orElseThrow().written();
    }

    @Test
    void eachLayerOverridesTheOneBelow() throws IOException {
        Map<String, String> props = new HashMap<>();
        props.put(ProfileProperties.PROFILE, "base");
        HardwareProfile builtin = load(props);
        assertThat(floor(builtin, "write-large")).isEqualTo("0.90 × link");
        assertThat(builtin.layers()).containsExactly("built-in base");

        Path file = write("lab.yaml", """
            extends: base
            id: lab
            defaults:
              warmup: 20
            criteria:
              - name: write-large
                min-bandwidth: 0.85 × link
              - name: read-large
                op: read
                sizes: 8MiB..
                min-bandwidth: 0.80 × link
            """);
        props.put(ProfileProperties.PROFILE, file.toString());
        HardwareProfile fromFile = load(props);
        assertThat(fromFile.id()).isEqualTo("lab");
        assertThat(floor(fromFile, "write-large")).isEqualTo("0.85 × link");
        assertThat(fromFile.criterion("write-large").orElseThrow().sizes().describeSizes())
                .isEqualTo("8 MiB..");
        assertThat(fromFile.criteria())
                .extracting(Criterion::name)
                .containsExactly("write-large", "curve", "read-large");
        assertThat(fromFile.defaults().iterations()).hasValue(500);
        assertThat(fromFile.defaults().warmup()).hasValue(20);
        assertThat(fromFile.layers()).containsExactly("built-in base", "file " + file);

        Path overlay = write("overlay.yaml", """
            transport:
              environment:
                UCX_TLS: rc_verbs
                UCX_IB_GID_INDEX: ~
            criteria:
              - name: write-large
                min-bandwidth: 0.80 × link
              - name: curve
                enabled: false
            """);
        props.put(ProfileProperties.OVERLAY, overlay.toString());
        HardwareProfile overlaid = load(props);
        assertThat(floor(overlaid, "write-large")).isEqualTo("0.80 × link");
        assertThat(overlaid.criterion("curve")).isEmpty();
        assertThat(overlaid.transport().environment()).containsExactly(Map.entry("UCX_TLS", "rc_verbs"));
        assertThat(overlaid.layers()).containsExactly("built-in base", "file " + file, "overlay " + overlay);

        props.put("linkproof.criteria.write-large.min-bandwidth", "30 GB/s");
        props.put("linkproof.criteria.read-large.op", "read,write");
        props.put("linkproof.criteria.read-large.sizes", "..<8MiB");
        HardwareProfile withProps = load(props);
        assertThat(floor(withProps, "write-large")).isEqualTo("30.0 GB/s");
        assertThat(withProps.criterion("read-large").orElseThrow().describeSelector())
                .isEqualTo("write, read · any · sizes ..<8 MiB · batch any");
        assertThat(withProps.layers())
                .endsWith(
                        "overlay " + overlay,
                        "property linkproof.criteria.read-large.op",
                        "property linkproof.criteria.read-large.sizes",
                        "property linkproof.criteria.write-large.min-bandwidth");
    }

    @Test
    void theBaselineToleranceIsPerProfileAndLayersLikeTheRest() throws IOException {
        assertThat(load(Map.of(ProfileProperties.PROFILE, "base")).baseline().tolerance())
                .isEmpty();
        Path file = write("tolerant.yaml", "extends: base\nid: tolerant\nbaseline:\n  tolerance: 0.08\n");
        HardwareProfile p = load(Map.of(ProfileProperties.PROFILE, file.toString()));
        assertThat(p.baseline().tolerance()).hasValue(0.08);
        Path overlay = write("stricter.yaml", "baseline: {tolerance: 3%}\n");
        HardwareProfile o =
                load(Map.of(ProfileProperties.PROFILE, file.toString(), ProfileProperties.OVERLAY, overlay.toString()));
        assertThat(o.baseline().tolerance()).hasValue(0.03);
        Path removes = write("default.yaml", "baseline: {tolerance: ~}\n");
        assertThat(load(Map.of(
                                ProfileProperties.PROFILE,
                                file.toString(),
                                ProfileProperties.OVERLAY,
                                removes.toString()))
                        .baseline()
                        .tolerance())
                .isEmpty();
    }

    @Test
    void aFileWithoutExtendsStandsAlone() throws IOException {
        Path file = write("alone.yaml", "id: alone\nvendor: Lab\nmatch: {fallback: true}\n");
        HardwareProfile p = load(Map.of(ProfileProperties.PROFILE, file.toString()));
        assertThat(p.criteria()).isEmpty();
        assertThat(p.layers()).containsExactly("file " + file);
    }

    @Test
    void propertiesCanDisableAndDeleteButOnlyExistingCriteria() {
        HardwareProfile p = load(Map.of(
                ProfileProperties.PROFILE,
                "base",
                "linkproof.criteria.curve.enabled",
                "false",
                "linkproof.criteria.write-large.max-avg-latency",
                "2 ms"));
        assertThat(p.criterion("curve")).isEmpty();
        assertThat(p.criterion("write-large").orElseThrow().maxAverageLatency())
                .hasValue(java.time.Duration.ofMillis(2));

        ProfileException deleted = catchThrowableOfType(
                ProfileException.class,
                () -> load(Map.of(ProfileProperties.PROFILE, "base", "linkproof.criteria.curve.max-drop", "")));
        assertThat(deleted.getMessage())
                .startsWith(BuiltinProfiles.label("base") + ":19:5: criterion 'curve' sets no threshold");

        ProfileException unknown = catchThrowableOfType(
                ProfileException.class,
                () -> load(Map.of(
                        ProfileProperties.PROFILE, "base", "linkproof.criteria.write-lage.min-bandwidth", "1 GB/s")));
        assertThat(unknown.getMessage())
                .isEqualTo("property linkproof.criteria.write-lage.min-bandwidth: the profile has no criterion"
                        + " 'write-lage', did you mean 'write-large'? (it has: write-large, curve); properties"
                        + " change criteria, an overlay file can add them");

        ProfileException badKey = catchThrowableOfType(
                ProfileException.class,
                () -> load(Map.of(
                        ProfileProperties.PROFILE, "base", "linkproof.criteria.write-large.min-bandwith", "1 GB/s")));
        assertThat(badKey.getMessage())
                .startsWith("property linkproof.criteria.write-large.min-bandwith: unknown key "
                        + "'min-bandwith' in criterion, did you mean 'min-bandwidth'?");

        ProfileException badValue = catchThrowableOfType(
                ProfileException.class,
                () -> load(Map.of(
                        ProfileProperties.PROFILE, "base", "linkproof.criteria.write-large.min-bandwidth", "fast")));
        assertThat(badValue.getMessage())
                .startsWith("property linkproof.criteria.write-large.min-bandwidth: bad bandwidth 'fast'");

        ProfileException badShape = catchThrowableOfType(
                ProfileException.class,
                () -> load(Map.of(ProfileProperties.PROFILE, "base", "linkproof.criteria.min-bandwidth", "1 GB/s")));
        assertThat(badShape.getMessage())
                .isEqualTo("property linkproof.criteria.min-bandwidth: expected "
                        + "linkproof.criteria.<criterion-name>.<key>");

        ProfileException typo = catchThrowableOfType(
                ProfileException.class,
                () -> load(Map.of(ProfileProperties.PROFILE, "base", "linkproof.profile.overlays", "x.yaml")));
        assertThat(typo.getMessage())
                .startsWith("property linkproof.profile.overlays: unknown property, did you mean "
                        + "'linkproof.profile.overlay'?");
    }

    @Test
    void overlaysChangeButDoNotChoose() throws IOException {
        Path renames = write("renames.yaml", "id: other\n");
        ProfileException e = catchThrowableOfType(
                ProfileException.class,
                () -> load(Map.of(ProfileProperties.PROFILE, "base", ProfileProperties.OVERLAY, renames.toString())));
        assertThat(e.getMessage()).startsWith(renames + ":1:1: an overlay cannot set 'id'");

        Path unnamed = write("unnamed.yaml", "criteria:\n  - min-bandwidth: 1 GB/s\n");
        e = catchThrowableOfType(
                ProfileException.class,
                () -> load(Map.of(ProfileProperties.PROFILE, "base", ProfileProperties.OVERLAY, unnamed.toString())));
        assertThat(e.getMessage()).startsWith(unnamed + ":2:5: a criterion in an overlay needs a 'name'");

        Path adds = write(
                "adds.yaml",
                "criteria:\n  - name: huge\n    sizes: 1GiB\n    op: write\n    min-bandwidth: 0.95 × link\n");
        e = catchThrowableOfType(
                ProfileException.class,
                () -> load(Map.of(ProfileProperties.PROFILE, "base", ProfileProperties.OVERLAY, adds.toString())));
        assertThat(e.getMessage())
                .startsWith(adds + ":2:5: criterion 'huge' overlaps criterion 'write-large' (at "
                        + BuiltinProfiles.label("base") + ":15:5)");
    }

    @Test
    void extendsMustNameABuiltinAndMustNotLoop() throws IOException {
        Path file = write("bad.yaml", "extends: bsae\nid: x\n");
        ProfileException e = catchThrowableOfType(
                ProfileException.class, () -> load(Map.of(ProfileProperties.PROFILE, file.toString())));
        assertThat(e.getMessage())
                .startsWith(file + ":1:10: extends 'bsae', which is not a built-in profile, did you mean 'base'?");

        e = catchThrowableOfType(ProfileException.class, () -> load(Map.of(ProfileProperties.PROFILE, "loop-a")));
        assertThat(e.getMessage())
                .isEqualTo(BuiltinProfiles.label("loop-b") + ":3:10: extends chain loops: loop-a → loop-b → loop-a");
    }

    @Test
    void autoAppliesOverlaysAndPropertiesToTheMatchedBuiltin(@TempDir Path tmp) throws IOException {
        Path overlay = write("site.yaml", "resources:\n  hugepages: 1024\n");
        ProfileLoader loader = new ProfileLoader(Map.of(
                ProfileProperties.OVERLAY,
                overlay.toString(),
                "linkproof.criteria.write-large.min-bandwidth",
                "0.85 × link"));
        LoadedProfile loaded = loader.load(() -> FakeHosts.probe("cx7-host"));
        assertThat(loaded.profile().id()).isEqualTo("cx7-400g");
        assertThat(loaded.selection()).isEqualTo("auto");
        assertThat(loaded.profile().resources().hugepages()).isEqualTo(1024);
        assertThat(floor(loaded.profile(), "write-large")).isEqualTo("0.85 × link");
        assertThat(floor(loaded.profile(), "read-large")).isEqualTo("0.80 × link");
        assertThat(loaded.describe())
                .isEqualTo("cx7-400g (auto; built-in cx7-400g ← overlay " + overlay
                        + " ← property linkproof.criteria.write-large.min-bandwidth)");

        Map<String, String> rooted = Map.of(
                ProfileProperties.PROBE_ROOT, FakeHosts.root("thor2-host").toString());
        assertThat(new ProfileLoader(rooted).load().profile().id()).isEqualTo("thor2-400g");
    }
}
