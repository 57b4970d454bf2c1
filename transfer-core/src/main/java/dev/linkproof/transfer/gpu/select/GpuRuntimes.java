package dev.linkproof.transfer.gpu.select;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.gpu.GpuException;
import dev.linkproof.transfer.gpu.GpuRuntime;
import dev.linkproof.transfer.gpu.cuda.CudaRuntime;
import dev.linkproof.transfer.gpu.hip.HipRuntime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Picks this process's GPU runtime once, by configuration: {@link #RUNTIME} and the library keys,
 * each also read as an environment variable so that a target agent started by hand picks the same
 * runtime (values and defaults: docs/transports/gpu.md, "The runtime"). A runtime that cannot be
 * used is reported with every reason, in the dynamic loader's own words for a library it cannot
 * open, never as a crash or a link error.
 */
public final class GpuRuntimes {
    public static final String RUNTIME = "linkproof.gpu.runtime";
    public static final String CUDA_LIBRARY = "linkproof.gpu.cuda.library";
    public static final String HIP_LIBRARY = "linkproof.gpu.hip.library";

    private static final List<String> HIP_DEFAULTS = List.of("libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5");

    /** One resolution per configuration: tests may point a later lookup at another library. */
    private static final Map<Config, Resolution> RESOLVED = new ConcurrentHashMap<>();

    private GpuRuntimes() {}

    /** What the configuration selects, from system properties, then the environment. */
    record Config(String runtime, String cudaLibrary, List<String> hipLibraries) {
        static Config current() {
            String runtime = setting(RUNTIME).orElse("auto").trim().toLowerCase(Locale.ROOT);
            String cuda = setting(CUDA_LIBRARY).orElse(CudaRuntime.LIBRARY);
            List<String> hip = setting(HIP_LIBRARY).map(List::of).orElse(HIP_DEFAULTS);
            return new Config(runtime, cuda, hip);
        }
    }

    /** Either a runtime or why there is none. */
    record Resolution(Optional<GpuRuntime> runtime, String reason) {}

    /**
     * What is wrong with this process's GPU settings: a runtime that is none of auto, cuda, hip and
     * none. The engine fails the run on it; left to {@link #find}, every GPU point would skip with it
     * as the reason and the build would stay green.
     */
    public static Optional<String> configurationProblem() {
        String runtime = Config.current().runtime();
        return List.of("auto", "cuda", "hip", "none").contains(runtime)
                ? Optional.empty()
                : Optional.of(RUNTIME + "=" + runtime + " (system property, else $" + envName(RUNTIME)
                        + ") is not a GPU runtime: expected auto, cuda, hip or none");
    }

    /** Whether this run turned GPUs off ({@code linkproof.gpu.runtime=none}): GPU points skip as intended. */
    public static boolean disabled() {
        return "none".equals(Config.current().runtime());
    }

    /** The runtime, when one is usable here. */
    public static Optional<GpuRuntime> find() {
        return resolve().runtime();
    }

    /** The runtime, or a {@link GpuException} with every reason there is none. */
    public static GpuRuntime require() throws GpuException {
        Resolution r = resolve();
        if (r.runtime().isEmpty()) {
            throw new GpuException("none", "GPU unavailable: " + r.reason());
        }
        return r.runtime().get();
    }

    /** Whether GPU memory can be used in this process, and if not, why. */
    public static Availability availability() {
        Resolution r = resolve();
        return r.runtime()
                .map(rt -> Availability.yes(rt.describe() + ", " + rt.deviceCount() + " device(s)"))
                .orElseGet(() -> Availability.no("GPU unavailable: " + r.reason()));
    }

    /** Whether {@code device} exists here. */
    public static Availability availability(int device) {
        Resolution r = resolve();
        if (r.runtime().isEmpty()) {
            return Availability.no("GPU unavailable: " + r.reason());
        }
        GpuRuntime rt = r.runtime().get();
        if (device >= rt.deviceCount()) {
            return Availability.no(
                    "no GPU " + device + ": " + rt.describe() + " sees " + rt.deviceCount() + " device(s)");
        }
        return Availability.yes(rt.describe() + ": " + rt.devices().get(device).name());
    }

    /**
     * This JVM's GPU settings as {@code -Dkey=value} options, for a target agent started on the same
     * host: both ranks then load the same runtime. Only keys set as system properties; environment
     * variables reach a child process by themselves.
     */
    public static List<String> jvmOptions() {
        List<String> out = new ArrayList<>();
        for (String key : List.of(RUNTIME, CUDA_LIBRARY, HIP_LIBRARY)) {
            String v = System.getProperty(key);
            if (v != null && !v.isBlank()) {
                out.add("-D" + key + "=" + v);
            }
        }
        return out;
    }

    private static Resolution resolve() {
        return RESOLVED.computeIfAbsent(Config.current(), GpuRuntimes::load);
    }

    private static Resolution load(Config config) {
        List<String> reasons = new ArrayList<>();
        switch (config.runtime()) {
            case "none" -> {
                return new Resolution(Optional.empty(), RUNTIME + "=none");
            }
            case "cuda" -> {
                return tryCuda(config, reasons).map(GpuRuntimes::found).orElseGet(() -> missing(reasons));
            }
            case "hip" -> {
                return tryHip(config, reasons).map(GpuRuntimes::found).orElseGet(() -> missing(reasons));
            }
            case "auto" -> {
                Optional<GpuRuntime> rt = tryCuda(config, reasons);
                if (rt.isEmpty()) {
                    rt = tryHip(config, reasons);
                }
                return rt.map(GpuRuntimes::found).orElseGet(() -> missing(reasons));
            }
            default -> {
                return new Resolution(
                        Optional.empty(),
                        "unknown " + RUNTIME + " '" + config.runtime() + "' (expected auto, cuda, hip or none)");
            }
        }
    }

    private static Optional<GpuRuntime> tryCuda(Config config, List<String> reasons) {
        try {
            return Optional.of(CudaRuntime.load(config.cudaLibrary()));
        } catch (RuntimeException | LinkageError e) {
            reasons.add("cuda: " + e.getMessage());
            return Optional.empty();
        }
    }

    private static Optional<GpuRuntime> tryHip(Config config, List<String> reasons) {
        try {
            return Optional.of(HipRuntime.load(config.hipLibraries()));
        } catch (RuntimeException | LinkageError e) {
            reasons.add("hip: " + e.getMessage());
            return Optional.empty();
        }
    }

    private static Resolution found(GpuRuntime rt) {
        return new Resolution(Optional.of(rt), "");
    }

    private static Resolution missing(List<String> reasons) {
        return new Resolution(Optional.empty(), String.join("; ", reasons));
    }

    private static Optional<String> setting(String key) {
        String v = System.getProperty(key);
        if (v == null || v.isBlank()) {
            v = System.getenv(envName(key));
        }
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(v.trim());
    }

    /** {@code linkproof.gpu.runtime} → {@code LINKPROOF_GPU_RUNTIME}. */
    private static String envName(String key) {
        return key.toUpperCase(Locale.ROOT).replace('.', '_');
    }
}
