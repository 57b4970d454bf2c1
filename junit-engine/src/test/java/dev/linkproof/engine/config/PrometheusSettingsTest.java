package dev.linkproof.engine.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.engine.MapParameters;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** linkproof.prometheus.*: a bad URL, grouping, job or textfile directory is a configuration error naming its key. */
class PrometheusSettingsTest {
    @TempDir
    Path dir;

    private static LinkproofConfiguration.Parsed parse(String... keyValues) {
        Map<String, String> map = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put(keyValues[i], keyValues[i + 1]);
        }
        return LinkproofConfiguration.parse(new MapParameters(map));
    }

    @Test
    void unsetSendsNothingAnywhere() {
        LinkproofConfiguration.Parsed p = parse();
        assertThat(p.errors()).isEmpty();
        assertThat(p.config().prometheus()).isEqualTo(PrometheusSettings.NONE);
    }

    @Test
    void aGatewayWithJobAndGroupingIsTheGroupsUrl() {
        LinkproofConfiguration.Parsed p = parse(
                Constants.PROMETHEUS_PUSHGATEWAY,
                "http://gw.example:9091/",
                Constants.PROMETHEUS_JOB,
                "fleet-check",
                Constants.PROMETHEUS_GROUPING,
                "instance=node1, cluster=a b,rack=r/7",
                Constants.PROMETHEUS_TEXTFILE,
                dir.toString());
        assertThat(p.errors()).isEmpty();
        var gateway = p.config().prometheus().pushgateway().orElseThrow();
        assertThat(gateway.job()).isEqualTo("fleet-check");
        assertThat(gateway.grouping())
                .containsExactly(Map.entry("instance", "node1"), Map.entry("cluster", "a b"), Map.entry("rack", "r/7"));
        // A value with a slash cannot be a path segment: the Pushgateway takes it base64url-encoded.
        assertThat(gateway.url())
                .isEqualTo(
                        URI.create(
                                "http://gw.example:9091/metrics/job/fleet-check/instance/node1/cluster/a%20b/rack@base64/ci83"));
        assertThat(p.config().prometheus().textfile()).contains(dir);
    }

    @Test
    void theJobDefaultsToLinkproof() {
        var gateway = parse(Constants.PROMETHEUS_PUSHGATEWAY, "https://gw.example")
                .config()
                .prometheus()
                .pushgateway()
                .orElseThrow();
        assertThat(gateway.url()).isEqualTo(URI.create("https://gw.example/metrics/job/linkproof"));
    }

    @Test
    void aMalformedUrlIsAnErrorNamingTheKey() {
        for (String bad : List.of(
                "gw.example:9091", "ftp://gw.example", "http://", "http://gw.example:9091/?x=1", "http://gw example")) {
            assertThat(parse(Constants.PROMETHEUS_PUSHGATEWAY, bad).errors())
                    .as(bad)
                    .singleElement()
                    .asString()
                    .startsWith(Constants.PROMETHEUS_PUSHGATEWAY + "=" + bad + " is ");
        }
    }

    @Test
    void aMalformedGroupingIsAnErrorNamingTheKey() {
        assertThat(parse(Constants.PROMETHEUS_GROUPING, "instance").errors())
                .singleElement()
                .asString()
                .isEqualTo(Constants.PROMETHEUS_GROUPING
                        + "=instance: 'instance' is not name=value (e.g. instance=node1,cluster=a)");
        assertThat(parse(Constants.PROMETHEUS_GROUPING, "a=1,a=2").errors())
                .singleElement()
                .asString()
                .isEqualTo(Constants.PROMETHEUS_GROUPING + "=a=1,a=2 gives a twice");
        assertThat(parse(Constants.PROMETHEUS_GROUPING, "my-label=1").errors())
                .singleElement()
                .asString()
                .startsWith(Constants.PROMETHEUS_GROUPING + "=my-label=1: 'my-label' is not a Prometheus label name");
        assertThat(parse(Constants.PROMETHEUS_GROUPING, "job=x").errors())
                .singleElement()
                .asString()
                .contains("job is the group's job");
        assertThat(parse(Constants.PROMETHEUS_GROUPING, "instance=").errors())
                .singleElement()
                .asString()
                .contains("the label instance has no value");
        // Blank is unset, as for every key: the default job, no error.
        assertThat(parse(Constants.PROMETHEUS_JOB, " ").errors()).isEmpty();
    }

    @Test
    void aTextfileDirectoryThatIsAFileIsAnError() throws Exception {
        Path file = Files.writeString(dir.resolve("node.prom"), "");
        assertThat(parse(Constants.PROMETHEUS_TEXTFILE, file.toString()).errors())
                .singleElement()
                .asString()
                .startsWith(Constants.PROMETHEUS_TEXTFILE + "=" + file + " is a file, not a directory");
        // One that does not exist yet is created when the run writes to it.
        assertThat(parse(Constants.PROMETHEUS_TEXTFILE, dir.resolve("new").toString())
                        .errors())
                .isEmpty();
    }
}
