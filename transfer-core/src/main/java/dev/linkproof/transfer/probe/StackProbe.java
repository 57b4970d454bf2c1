package dev.linkproof.transfer.probe;

import dev.linkproof.transfer.libfabric.FabricProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The software-stack part of {@link HardwareProbe}: the versions of the kernel, rdma-core,
 * libibverbs, UCX, libfabric and the GPU driver, read from files below the probe's root (dpkg's
 * status file, {@code ucx.pc}, library file names, {@code /sys/module}) the way the host's package
 * tools would report them. Only on the machine itself ({@code /}) is libfabric asked for its version
 * when no package names it.
 */
final class StackProbe {
    private static final List<String> LIB_DIRS = List.of(
            "/usr/lib/x86_64-linux-gnu",
            "/usr/lib/aarch64-linux-gnu",
            "/usr/lib64",
            "/usr/lib",
            "/lib/x86_64-linux-gnu",
            "/lib64");

    private final Sysfs fs;

    StackProbe(Sysfs fs) {
        this.fs = fs;
    }

    StackVersions read() {
        Map<String, String> dpkg = dpkgVersions();
        Optional<String> rdmaCore = first(dpkg, "rdma-core", "ibverbs-providers", "libibverbs1");
        Optional<String> ucx = first(dpkg, "ucx", "libucx0", "libucx-dev");
        if (ucx.isEmpty()) {
            ucx = ucxPkgConfig();
        }
        String jdk = Runtime.version() + " (" + System.getProperty("java.vendor", "unknown vendor") + ")";
        Optional<String> libfabric = first(dpkg, "libfabric1", "libfabric");
        if (libfabric.isEmpty() && fs.root().toAbsolutePath().normalize().equals(Path.of("/"))) {
            libfabric = FabricProvider.libraryVersion();
        }
        return new StackVersions(
                fs.readOr(fs.at("/proc/sys/kernel"), "osrelease", "unknown"),
                rdmaCore,
                libibverbsFile(),
                ucx,
                gpuDriver(),
                jdk,
                libfabric);
    }

    private static Optional<String> first(Map<String, String> versions, String... packages) {
        for (String p : packages) {
            String v = versions.get(p);
            if (v != null) {
                return Optional.of(v + " (" + p + ")");
            }
        }
        return Optional.empty();
    }

    /** Installed packages' versions from dpkg's status file (Debian, Ubuntu). */
    private Map<String, String> dpkgVersions() {
        Map<String, String> out = new HashMap<>();
        String status = fs.read(fs.at("/var/lib/dpkg/status")).orElse("");
        String pkg = null;
        String version = null;
        boolean installed = false;
        for (String line : (status + "\n\n").split("\n", -1)) {
            if (line.isEmpty()) {
                if (pkg != null && version != null && installed) {
                    out.putIfAbsent(pkg, version);
                }
                pkg = null;
                version = null;
                installed = false;
            } else if (line.startsWith("Package: ")) {
                pkg = line.substring(9).strip();
            } else if (line.startsWith("Version: ")) {
                version = line.substring(9).strip();
            } else if (line.startsWith("Status: ")) {
                installed = line.endsWith(" installed");
            }
        }
        return out;
    }

    private Optional<String> ucxPkgConfig() {
        for (String dir : List.of(
                "/usr/lib/x86_64-linux-gnu/pkgconfig",
                "/usr/lib/aarch64-linux-gnu/pkgconfig",
                "/usr/lib64/pkgconfig",
                "/usr/lib/pkgconfig",
                "/usr/local/lib/pkgconfig",
                "/opt/ucx/lib/pkgconfig")) {
            for (String line : fs.read(fs.at(dir + "/ucx.pc")).orElse("").split("\n")) {
                if (line.startsWith("Version:")) {
                    return Optional.of(line.substring(8).strip() + " (ucx.pc)");
                }
            }
        }
        return Optional.empty();
    }

    /** rdma-core installs {@code libibverbs.so.1.<abi>.<rdma-core>.0}; the name is the version. */
    private Optional<String> libibverbsFile() {
        for (String dir : LIB_DIRS) {
            for (Path p : fs.list(fs.at(dir))) {
                String n = p.getFileName().toString();
                if (n.startsWith("libibverbs.so.1.") && n.length() > "libibverbs.so.".length()) {
                    return Optional.of(n.substring("libibverbs.so.".length()));
                }
            }
        }
        return Optional.empty();
    }

    private Optional<String> gpuDriver() {
        List<String> found = new ArrayList<>();
        Optional<String> nv = fs.read(fs.at("/sys/module/nvidia/version"));
        if (nv.isEmpty()) {
            // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar  5 22:23:56 UTC 2024"
            nv = fs.read(fs.at("/proc/driver/nvidia/version")).flatMap(t -> {
                Matcher m = Pattern.compile("Kernel Module\\s+([0-9][0-9.]*)").matcher(t);
                return m.find() ? Optional.of(m.group(1)) : Optional.empty();
            });
        }
        nv.ifPresent(v -> found.add("nvidia " + v));
        if (fs.isDirectory(fs.at("/sys/module/amdgpu"))) {
            found.add("amdgpu "
                    + fs.read(fs.at("/sys/module/amdgpu/version"))
                            .filter(s -> !s.isEmpty())
                            .orElse("(in-tree)"));
        }
        return found.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", found));
    }
}
