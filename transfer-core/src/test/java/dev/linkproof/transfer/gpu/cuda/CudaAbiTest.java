package dev.linkproof.transfer.gpu.cuda;

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
 * The CUDA binding against {@code cuda.h}: every constant and handle size it uses, and the
 * versioned symbol each API name maps to ({@code cuMemAlloc} is {@code cuMemAlloc_v2}), printed by
 * {@code src/test/c/cuda_abi.c} compiled against the CUDA toolkit's header (/usr/local/cuda on these
 * machines). A value that drifts from the header fails here.
 */
class CudaAbiTest {
    static final Path INCLUDE = Path.of(System.getProperty("linkproof.cuda.include", "/usr/local/cuda/include"));

    @Test
    void constantsSizesAndSymbolsMatchCudaH() throws Exception {
        assumeTrue(
                Files.isRegularFile(INCLUDE.resolve("cuda.h")),
                "cuda.h not found under " + INCLUDE
                        + " (the CUDA toolkit; -Dlinkproof.cuda.include=<dir> names another)");
        Map<String, String> c = CProgram.facts(CProgram.compileAndRun("cuda_abi.c", List.of("-I" + INCLUDE)));
        List<String> problems = new ArrayList<>();
        Map<String, Long> facts = CudaRuntime.abiFacts();
        facts.forEach((k, v) -> CProgram.compare(problems, "cuda.h", k, Long.toString(v), c.get(k)));
        CudaRuntime.SYMBOLS.forEach(
                (api, symbol) -> CProgram.compare(problems, "cuda.h", "symbol." + api, symbol, c.get("symbol." + api)));
        c.keySet().stream()
                .filter(k -> k.startsWith("symbol.")
                        ? !CudaRuntime.SYMBOLS.containsKey(k.substring(7))
                        : !facts.containsKey(k))
                .forEach(k -> problems.add(k + ": printed by cuda_abi.c but not checked on the Java side"));
        assertThat(problems).as("CUDA ABI differences").isEmpty();
    }
}
