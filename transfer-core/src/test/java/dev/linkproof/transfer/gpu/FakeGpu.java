package dev.linkproof.transfer.gpu;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Builds {@code src/test/c/fake_gpu.c} — a strict test double of the CUDA driver API and HIP — into
 * a shared library with gcc, once per build, and hands out copies under the names the runtimes
 * load ({@code libcuda.so.1}, {@code libamdhip64.so}). Each copy has its own path, so the dynamic
 * loader gives each its own state (a test that makes cuInit fail does not poison another).
 */
public final class FakeGpu {
    private static final Path DIR = Path.of("target/fake-gpu").toAbsolutePath();
    private static final AtomicInteger COPIES = new AtomicInteger();
    private static Path built;

    private FakeGpu() {}

    /** A fresh copy of the fake library named {@code fileName}, in a directory of its own. */
    public static synchronized Path library(String fileName) throws IOException, InterruptedException {
        if (built == null) {
            Path source = Path.of("src/test/c/fake_gpu.c").toAbsolutePath();
            assertThat(source).exists();
            Files.createDirectories(DIR);
            Path out = DIR.resolve("libfakegpu.so");
            Process p = new ProcessBuilder(List.of(
                            "gcc",
                            "-shared",
                            "-fPIC",
                            "-O1",
                            "-Wall",
                            "-Wextra",
                            "-Werror",
                            "-o",
                            out.toString(),
                            source.toString(),
                            "-lpthread"))
                    .redirectErrorStream(true)
                    .start();
            String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("gcc finished").isTrue();
            assertThat(p.exitValue()).as("gcc: " + log).isZero();
            built = out;
        }
        Path dir = Files.createDirectories(
                DIR.resolve("copy-" + ProcessHandle.current().pid() + "-" + COPIES.incrementAndGet()));
        return Files.copy(built, dir.resolve(fileName), StandardCopyOption.REPLACE_EXISTING);
    }

    public static Path cuda() throws IOException, InterruptedException {
        return library("libcuda.so.1");
    }

    public static Path hip() throws IOException, InterruptedException {
        return library("libamdhip64.so");
    }

    /** The fake reads its knobs (FAKE_GPU_*) from the environment at every call; this sets them in-process. */
    public static void setenv(String name, String value) {
        Linker linker = Linker.nativeLinker();
        try (Arena a = Arena.ofConfined()) {
            if (value == null) {
                MethodHandle unsetenv = linker.downcallHandle(
                        linker.defaultLookup().find("unsetenv").orElseThrow(),
                        FunctionDescriptor.of(JAVA_INT, ADDRESS));
                int rc = (int) unsetenv.invokeExact(a.allocateFrom(name));
                assertThat(rc).isZero();
            } else {
                MethodHandle setenv = linker.downcallHandle(
                        linker.defaultLookup().find("setenv").orElseThrow(),
                        FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
                int rc = (int) setenv.invokeExact(a.allocateFrom(name), a.allocateFrom(value), 1);
                assertThat(rc).isZero();
            }
        } catch (Throwable t) {
            throw new AssertionError("setenv " + name, t);
        }
    }
}
