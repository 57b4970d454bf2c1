package dev.linkproof.engine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.engine.MapParameters;
import dev.linkproof.fleet.blame.Thresholds;
import dev.linkproof.profiles.FleetCriteria;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** The fleet keys: absent without linkproof.fleet, their defaults, each bad value named, and the criteria's precedence. */
class FleetSettingsTest {
    private static LinkproofConfiguration.Parsed parse(Map<String, String> map) {
        return LinkproofConfiguration.parse(new MapParameters(map));
    }

    @Test
    void noFleetKeyNoFleetAndItsDefaultsOtherwise() {
        assertThat(parse(Map.of()).config().fleet()).isEmpty();
        FleetSettings f = parse(Map.of(Constants.FLEET, "slurm")).config().fleet().orElseThrow();
        assertThat(f.registryHost()).isEqualTo("0.0.0.0");
        assertThat(f.registryPort()).isEqualTo(7470);
        assertThat(f.pattern()).isEqualTo("pairwise");
        assertThat(f.registerWithin()).isEqualTo(Duration.ofSeconds(60));
        assertThat(f.act()).isEmpty();
        assertThat(f.thresholds(FleetCriteria.NONE)).isEqualTo(Thresholds.CLUSTERKIT);
    }

    @Test
    void theKeysOverTheProfileOverClusterKitsFigures() {
        FleetCriteria profile = new FleetCriteria(OptionalDouble.of(0.8), OptionalDouble.of(3));
        FleetSettings plain = parse(Map.of(Constants.FLEET, "slurm")).config().fleet().orElseThrow();
        assertThat(plain.thresholds(profile)).isEqualTo(new Thresholds(0.8, 3));
        FleetSettings keyed = parse(Map.of(Constants.FLEET, "slurm", Constants.FLEET_MIN_OF_MEDIAN, "0.5")).config().fleet()
                .orElseThrow();
        assertThat(keyed.thresholds(profile)).isEqualTo(new Thresholds(0.5, 3));
    }

    @Test
    void eachBadValueIsNamedWithItsKey() {
        assertThat(parse(Map.of(Constants.FLEET, "slurm", Constants.FLEET_REGISTRY, "nohost")).errors())
                .singleElement().asString().startsWith("linkproof.fleet.registry=nohost must be host:port");
        assertThat(parse(Map.of(Constants.FLEET, "slurm", Constants.FLEET_REGISTRY, "h:70000")).errors())
                .singleElement().asString().contains("the port must be 0..65535");
        assertThat(parse(Map.of(Constants.FLEET, "slurm", Constants.FLEET_ACT, "reboot")).errors())
                .singleElement().asString().isEqualTo("linkproof.fleet.act=reboot must be one of slurm, kubernetes, print (or unset: "
                        + "act on nothing)");
        assertThat(parse(Map.of(Constants.FLEET, "slurm", Constants.FLEET_MIN_OF_MEDIAN, "1.5")).errors())
                .singleElement().asString().contains(Constants.FLEET_MIN_OF_MEDIAN).contains("bandwidth fraction must be in (0, 1]");
        assertThat(parse(Map.of(Constants.FLEET, "slurm", Constants.FLEET_MAX_OF_LOWEST, "x")).errors())
                .singleElement().asString().isEqualTo("linkproof.fleet.maxOfLowestLatency=x is not a number");
        assertThat(parse(Map.of(Constants.FLEET, "slurm", Constants.PEER, "h:1")).errors())
                .singleElement().asString().contains("give one or the other");
        assertThatThrownBy(() -> LinkproofConfiguration.from(new MapParameters(Map.of(Constants.FLEET, "slurm",
                Constants.FLEET_REGISTER_WITHIN, "soon")))).hasMessageContaining(Constants.FLEET_REGISTER_WITHIN);
    }
}
