package dev.linkproof.engine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.engine.MapParameters;
import dev.linkproof.fleet.act.ActAfter;
import dev.linkproof.fleet.blame.BlameSettings;
import dev.linkproof.fleet.blame.Thresholds;
import dev.linkproof.profiles.FleetCriteria;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** The fleet keys: absent without linkproof.fleet, their defaults, each bad value named, and the criteria's precedence. */
class FleetSettingsTest {
    private static LinkproofConfiguration.Parsed parse(Map<String, String> map) {
        return LinkproofConfiguration.parse(new MapParameters(map));
    }

    @Test
    void noFleetKeyNoFleetAndItsDefaultsOtherwise() {
        assertThat(parse(Map.of()).config().fleet()).isEmpty();
        FleetSettings f =
                parse(Map.of(Constants.FLEET, "slurm")).config().fleet().orElseThrow();
        assertThat(f.registryHost()).isEqualTo("0.0.0.0");
        assertThat(f.registryPort()).isEqualTo(7470);
        assertThat(f.pattern()).isEqualTo("pairwise");
        assertThat(f.registerWithin()).isEqualTo(Duration.ofSeconds(60));
        assertThat(f.act()).isEmpty();
        assertThat(f.blame(FleetCriteria.NONE)).isEqualTo(BlameSettings.DEFAULTS);
        assertThat(f.actAfter(FleetCriteria.NONE)).isEqualTo(ActAfter.DEFAULT);
        assertThat(f.history()).isEmpty();
    }

    @Test
    void theKeysOverTheProfileOverTheDefaultsEachOnItsOwn() {
        FleetCriteria profile = new FleetCriteria(
                OptionalDouble.of(0.8),
                OptionalDouble.of(3),
                OptionalDouble.of(4),
                OptionalInt.of(5),
                OptionalInt.empty(),
                OptionalInt.of(2),
                OptionalDouble.empty(),
                Optional.of("3/5"));
        FleetSettings plain =
                parse(Map.of(Constants.FLEET, "slurm")).config().fleet().orElseThrow();
        assertThat(plain.blame(profile)).isEqualTo(new BlameSettings(new Thresholds(0.8, 3, 4, 5, 6), 2, 0.25, 32));
        assertThat(plain.actAfter(profile)).isEqualTo(new ActAfter(3, 5));
        FleetSettings keyed = parse(Map.of(
                        Constants.FLEET,
                        "slurm",
                        Constants.FLEET_MIN_OF_MEDIAN,
                        "0.5",
                        Constants.FLEET_CONFIRMATIONS,
                        "5",
                        Constants.FLEET_MAX_BLAMED_FRACTION,
                        "0.5",
                        Constants.FLEET_MIN_PAIRS,
                        "10",
                        Constants.FLEET_ACT_AFTER,
                        "1/1",
                        Constants.FLEET_HISTORY,
                        "/var/lib/linkproof/history"))
                .config()
                .fleet()
                .orElseThrow();
        assertThat(keyed.blame(profile)).isEqualTo(new BlameSettings(new Thresholds(0.5, 3, 4, 5, 10), 5, 0.5, 32));
        assertThat(keyed.actAfter(profile)).isEqualTo(new ActAfter(1, 1));
        assertThat(keyed.history()).contains(java.nio.file.Path.of("/var/lib/linkproof/history"));
    }

    @Test
    void eachBadValueIsNamedWithItsKey() {
        assertThat(parse(Map.of(Constants.FLEET, "slurm", Constants.FLEET_REGISTRY, "fe80::1:7470"))
                        .errors())
                .singleElement()
                .asString()
                .startsWith(
                        "linkproof.fleet.registry=fe80::1:7470 is not HOST:PORT: an IPv6 " + "address needs brackets");
        assertThat(parse(Map.of(Constants.FLEET, "slurm", Constants.FLEET_REGISTRY, "h:70000"))
                        .errors())
                .singleElement()
                .asString()
                .contains("port 70000 is outside 0..65535");
        // Without a port, the registry's own; port 0 (any free one) is allowed for listening.
        assertThat(parse(Map.of(Constants.FLEET, "slurm", Constants.FLEET_REGISTRY, "[::]"))
                        .config()
                        .fleet()
                        .orElseThrow()
                        .registryPort())
                .isEqualTo(7470);
        assertThat(parse(Map.of(Constants.FLEET, "slurm", Constants.FLEET_ACT, "reboot"))
                        .errors())
                .singleElement()
                .asString()
                .isEqualTo("linkproof.fleet.act=reboot must be slurm (drain), kubernetes (label and taint) "
                        + "or print (the commands)");
        assertThat(parse(Map.of(Constants.FLEET, "slurm", Constants.FLEET_MIN_OF_MEDIAN, "1.5"))
                        .errors())
                .singleElement()
                .asString()
                .contains(Constants.FLEET_MIN_OF_MEDIAN)
                .contains("bandwidth fraction must be in (0, 1]");
        assertThat(parse(Map.of(Constants.FLEET, "slurm", Constants.FLEET_MAX_OF_LOWEST, "x"))
                        .errors())
                .singleElement()
                .asString()
                .isEqualTo("linkproof.fleet.maxOfLowestLatency=x is not a number");
        assertThat(parse(Map.of(Constants.FLEET, "slurm", Constants.FLEET_CONFIRMATIONS, "0"))
                        .errors())
                .singleElement()
                .asString()
                .contains("confirmations must be 1..20 (a verdict never rests on one run), not 0");
        assertThat(parse(Map.of(Constants.FLEET, "slurm", Constants.FLEET_MIN_NODES, "many"))
                        .errors())
                .singleElement()
                .asString()
                .isEqualTo("linkproof.fleet.minNodes=many is not a whole number");
        assertThat(parse(Map.of(Constants.FLEET, "slurm", Constants.FLEET_ACT_AFTER, "often"))
                        .errors())
                .singleElement()
                .asString()
                .startsWith("linkproof.fleet.actAfter: 'often' is not COUNT/WINDOW");
        assertThat(parse(Map.of(Constants.FLEET, "slurm", Constants.PEER, "h:1"))
                        .errors())
                .singleElement()
                .asString()
                .contains("give one or the other");
        assertThatThrownBy(() -> LinkproofConfiguration.from(
                        new MapParameters(Map.of(Constants.FLEET, "slurm", Constants.FLEET_REGISTER_WITHIN, "soon"))))
                .hasMessageContaining(Constants.FLEET_REGISTER_WITHIN);
    }
}
