package dev.linkproof.profiles;

import java.util.List;
import java.util.Optional;

/**
 * What GPUs a host must have for a profile to match.
 *
 * @param vendor      {@code amd}, {@code nvidia} or {@code intel}
 * @param models      model names, any of them, matched as case-insensitive substrings of the probed model
 *                    ({@code H100} matches "H100 SXM5 80GB")
 * @param pciDevices  PCI device ids, any of them
 * @param minCount    how many GPUs must pass (default 1)
 */
public record GpuRule(Optional<String> vendor, List<String> models, List<Integer> pciDevices, int minCount) {
    public GpuRule {
        models = List.copyOf(models);
        pciDevices = List.copyOf(pciDevices);
    }

    int specificity() {
        return (vendor.isPresent() ? 1 : 0) + (models.isEmpty() ? 0 : 1) + (pciDevices.isEmpty() ? 0 : 1);
    }
}
