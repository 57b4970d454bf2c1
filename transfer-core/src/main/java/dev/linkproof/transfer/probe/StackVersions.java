package dev.linkproof.transfer.probe;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Versions of the software a transfer goes through; a package version is dpkg's.
 *
 * @param kernel      {@code /proc/sys/kernel/osrelease}
 * @param libibverbs  the version in libibverbs' file name ({@code libibverbs.so.1.14.50.0})
 * @param ucx         the package version, else {@code ucx.pc}'s
 * @param gpuDriver   the GPU kernel driver and its version ({@code nvidia 550.54.15}), when loaded
 * @param libfabric   the package version, else the loaded library's API version
 */
public record StackVersions(
        String kernel,
        Optional<String> rdmaCore,
        Optional<String> libibverbs,
        Optional<String> ucx,
        Optional<String> gpuDriver,
        String jdk,
        Optional<String> libfabric) {
    /** Without libfabric (the stack before the libfabric transport; a report that does not look for it). */
    public StackVersions(
            String kernel,
            Optional<String> rdmaCore,
            Optional<String> libibverbs,
            Optional<String> ucx,
            Optional<String> gpuDriver,
            String jdk) {
        this(kernel, rdmaCore, libibverbs, ucx, gpuDriver, jdk, Optional.empty());
    }

    /** Name → version for reports; absent software reads {@code not found}. */
    public Map<String, String> asMap() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("kernel", kernel);
        m.put("rdma-core", rdmaCore.orElse("not found"));
        m.put("libibverbs", libibverbs.orElse("not found"));
        m.put("ucx", ucx.orElse("not found"));
        m.put("libfabric", libfabric.orElse("not found"));
        m.put("gpu driver", gpuDriver.orElse("not found"));
        m.put("jdk", jdk);
        return m;
    }
}
