/**
 * The CUDA driver API ({@code libcuda.so.1}) behind {@code GpuRuntime}, through hand-written FFM bindings.
 * Only {@code gpu.select} creates it.
 */
package dev.linkproof.transfer.gpu.cuda;
