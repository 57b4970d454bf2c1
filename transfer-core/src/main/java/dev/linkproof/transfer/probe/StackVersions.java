package dev.linkproof.transfer.probe;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Versions of the software a transfer goes through.
 *
 * @param kernel      {@code /proc/sys/kernel/osrelease}
 * @param rdmaCore    rdma-core's package version (dpkg), when installed
 * @param libibverbs  the version in libibverbs' file name ({@code libibverbs.so.1.14.50.0}), when found
 * @param ucx         UCX's package version (dpkg, or {@code ucx.pc}), when installed
 * @param gpuDriver   the GPU kernel driver and its version ({@code nvidia 550.54.15}), when loaded
 * @param jdk         the running JDK
 * @param libfabric   libfabric's package version (dpkg), else the loaded library's API version, when found
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
