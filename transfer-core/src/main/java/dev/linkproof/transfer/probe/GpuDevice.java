package dev.linkproof.transfer.probe;

import java.util.Optional;

/**
 * A GPU or accelerator found on the PCI bus.
 *
 * @param index     0-based, in PCI address order (the order CUDA_DEVICE_ORDER=PCI_BUS_ID and ROCm use)
 * @param vendor    {@code amd}, {@code nvidia} or {@code intel}
 * @param model     short model name, e.g. {@code MI300X}, {@code H100 SXM5 80GB}; {@code unknown} when not in the tables
 * @param pci       its PCI function
 * @param drmCard   the {@code /sys/class/drm} card bound to it, e.g. {@code card1}, when any
 */
public record GpuDevice(int index, String vendor, String model, PciFunction pci, Optional<String> drmCard) {
    public String driver() {
        return pci.driver();
    }

    public int numaNode() {
        return pci.numaNode();
    }
}
