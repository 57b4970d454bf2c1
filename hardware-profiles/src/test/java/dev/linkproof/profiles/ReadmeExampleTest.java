package dev.linkproof.profiles;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's complete example is a valid profile, so the documentation cannot drift from the parser. */
class ReadmeExampleTest {
    @Test
    void theCompleteExampleLoads(@TempDir Path dir) throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        int at = readme.indexOf("### A complete example");
        int start = readme.indexOf("```yaml\n", at) + "```yaml\n".length();
        int end = readme.indexOf("```", start);
        Path file = dir.resolve("lab-cx7-rack4.yaml");
        Files.writeString(file, readme.substring(start, end));

        HardwareProfile p = new ProfileLoader(Map.of(ProfileProperties.PROFILE, file.toString()))
                .load(() -> null)
                .profile();
        assertThat(p.id()).isEqualTo("lab-cx7-rack4");
        assertThat(p.layers()).containsExactly("built-in cx7-400g", "file " + file);
        assertThat(p.match().nic().orElseThrow().minCount()).isEqualTo(2);
        assertThat(p.match().gpu().orElseThrow().minCount()).isEqualTo(8);
        assertThat(p.resources().nics()).containsExactly("mlx5_0", "mlx5_1");
        assertThat(p.resources().cpuCores()).hasSize(64);
        assertThat(p.transport().environment()).containsEntry("UCX_NET_DEVICES", "mlx5_0:1");
        assertThat(p.criterion("write-large")
                        .orElseThrow()
                        .minBandwidth()
                        .orElseThrow()
                        .written())
                .isEqualTo("0.93 × link");
        assertThat(p.criterion("read-small-latency")).isEmpty();
        assertThat(p.criteria()).extracting(Criterion::name).contains("gpu-write", "gpu-small", "gpu-curve", "curve");
        assertThat(p.baseline().tolerance()).hasValue(0.08);
        assertThat(p.criterion("gpu-write").orElseThrow().transports()).containsExactly("verbs");
        assertThat(p.criterion("gpu-write-ucx").orElseThrow().settings())
                .containsExactly(Map.entry("UCX_TLS", SettingMatch.is("rc_x,cuda_copy,self")));
        assertThat(p.criterion("gpu-write-ucx-other").orElseThrow().settings())
                .containsExactly(Map.entry("UCX_TLS", SettingMatch.not("rc_x,cuda_copy,self")));
    }
}
