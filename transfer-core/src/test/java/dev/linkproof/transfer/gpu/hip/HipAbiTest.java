package dev.linkproof.transfer.gpu.hip;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.transfer.testing.CProgram;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The HIP binding against {@code hip_runtime_api.h} (Debian's libamdhip64-dev, which
 * scripts/setup.sh --test installs): every constant and handle size it uses, printed by
 * {@code src/test/c/hip_abi.c}. The one flag whose value changed between ROCm releases is compared
 * for the headers' own HIP_VERSION.
 */
class HipAbiTest {
    @Test
    void constantsAndSizesMatchHipRuntimeApiH() throws Exception {
        assumeTrue(
                Files.isRegularFile(Path.of("/usr/include/hip/hip_runtime_api.h")),
                "hip_runtime_api.h not found (apt-get install libamdhip64-dev; scripts/setup.sh --test does)");
        Map<String, String> c = CProgram.facts(CProgram.compileAndRun("hip_abi.c", List.of()));
        int headerVersion = Integer.parseInt(c.get("const.HIP_VERSION"));
        List<String> problems = new ArrayList<>();
        Map<String, Long> facts = HipRuntime.abiFacts(headerVersion);
        facts.forEach((k, v) -> CProgram.compare(problems, "hip_runtime_api.h", k, Long.toString(v), c.get(k)));
        c.keySet().stream()
                .filter(k -> !facts.containsKey(k) && !k.equals("const.HIP_VERSION"))
                .forEach(k -> problems.add(k + ": printed by hip_abi.c but not checked on the Java side"));
        assertThat(problems)
                .as("HIP ABI differences (headers of HIP_VERSION " + headerVersion + ")")
                .isEmpty();
        assertThat(HipRuntime.lazyPeerAccessFlag(HipRuntime.ROCM6))
                .as("ROCm 6's value")
                .isEqualTo(1);
    }
}
