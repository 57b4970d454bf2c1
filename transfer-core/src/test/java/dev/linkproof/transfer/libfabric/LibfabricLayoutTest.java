package dev.linkproof.transfer.libfabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.transfer.testing.CProgram;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The libfabric binding's layouts, table offsets and constants against the real headers:
 * src/test/c/libfabric_layout.c is compiled with gcc against libfabric-dev and prints
 * sizeof/offsetof/values; every line must match {@link LibfabricAbi#layoutFacts()}, and neither side
 * may have a key the other lacks. The headers' own FI_VERSION must be the API the layouts are.
 */
class LibfabricLayoutTest {
    private static final Path HEADER = Path.of("/usr/include/rdma/fabric.h");

    @Test
    void javaLayoutsMatchTheHeaders() throws Exception {
        assumeTrue(
                Files.isRegularFile(HEADER),
                "libfabric headers absent: " + HEADER + " (apt-get install libfabric-dev)");
        CProgram.Output out = CProgram.compileAndRun("libfabric_layout.c", List.of());
        assertThat(differences(LibfabricAbi.layoutFacts(), parse(out.text()))).isEmpty();
    }

    @Test
    void aChangedOffsetOrAMissingConstantIsReported() {
        Map<String, Long> java = LibfabricAbi.layoutFacts();
        Map<String, Long> c = new LinkedHashMap<>(java);
        c.put("offsetof fi_ops_rma.write", 40L);
        c.remove("const FI_MR_ENDPOINT");
        c.put("offsetof fid_ep.extra", 72L);
        assertThat(differences(java, c))
                .containsExactly(
                        "offsetof fi_ops_rma.write: Java 32, C 40",
                        "const FI_MR_ENDPOINT: Java 512, C (missing)",
                        "offsetof fid_ep.extra: Java (missing), C 72");
    }

    static List<String> differences(Map<String, Long> java, Map<String, Long> c) {
        List<String> diff = new ArrayList<>();
        java.forEach((k, v) -> {
            if (!v.equals(c.get(k))) {
                diff.add(k + ": Java " + v + ", C " + (c.containsKey(k) ? c.get(k) : "(missing)"));
            }
        });
        c.forEach((k, v) -> {
            if (!java.containsKey(k)) {
                diff.add(k + ": Java (missing), C " + v);
            }
        });
        return diff;
    }

    private static Map<String, Long> parse(String text) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                int sp = line.lastIndexOf(' ');
                m.put(
                        line.substring(0, sp),
                        Long.parseLong(line.substring(sp + 1).trim()));
            }
        }
        return m;
    }
}
