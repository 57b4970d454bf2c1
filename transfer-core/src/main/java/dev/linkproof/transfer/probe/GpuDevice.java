package dev.linkproof.transfer.probe;

import java.util.Optional;

/**
 * A GPU or accelerator: found on the PCI bus, and, where a GPU runtime loads, as the runtime
 * enumerates it ({@link GpuInventory}).
 *
 * @param index   the runtime's device ordinal (what a placed {@code gpu:k} becomes) where a runtime
 *                is loaded, else PCI address order (as CUDA_DEVICE_ORDER=PCI_BUS_ID and ROCm count)
 * @param vendor  {@code amd}, {@code nvidia} or {@code intel}
 * @param model   e.g. {@code MI300X}, {@code H100 SXM5 80GB}; {@code unknown} when not in the tables
 */
public record GpuDevice(
        int index,
        String vendor,
        String model,
        PciFunction pci,
        Optional<String> drmCard,
        Optional<RuntimeView> runtime) {

    /**
     * The device as its runtime sees it.
     *
     * @param runtime     e.g. {@code CUDA driver API 12.8 (libcuda.so.1)}
     * @param name        the runtime's device name, e.g. {@code NVIDIA H200}
     * @param memoryBytes device memory
     * @param dmabuf      whether its memory can be exported as a dma-buf (GPUDirect RDMA through ibv_reg_dmabuf_mr)
     */
    public record RuntimeView(String runtime, String name, long memoryBytes, boolean dmabuf) {}

    /** A GPU seen on the bus only. */
    public GpuDevice(int index, String vendor, String model, PciFunction pci, Optional<String> drmCard) {
        this(index, vendor, model, pci, drmCard, Optional.empty());
    }

    public String driver() {
        return pci.driver();
    }

    public int numaNode() {
        return pci.numaNode();
    }
}
