package dev.linkproof.transfer.gpu;

/**
 * One GPU as its runtime reports it.
 *
 * @param index           the runtime's device ordinal (the {@code N} of {@code gpu:N})
 * @param name            the marketing name, e.g. {@code NVIDIA H200}, {@code AMD Instinct MI300X}
 * @param pciBusId        {@code 0000:1b:00.0}, lower case, so it compares with sysfs addresses
 * @param totalBytes      device memory
 * @param dmabufSupported whether device memory can be exported as a dma-buf (for ibv_reg_dmabuf_mr)
 */
public record GpuDeviceInfo(int index, String name, String pciBusId, long totalBytes, boolean dmabufSupported) {}
