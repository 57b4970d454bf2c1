/**
 * The vendor-neutral GPU API ({@code GpuRuntime}, streams, device info, {@code GpuBuffer}) and what both
 * vendors' bindings share. It names no vendor: {@code gpu.cuda} and {@code gpu.hip} implement it.
 */
package dev.linkproof.transfer.gpu;
