/**
 * HIP ({@code libamdhip64.so}, ROCm 5 and 6) behind {@code GpuRuntime}, through hand-written FFM bindings.
 * Only {@code gpu.select} creates it.
 */
package dev.linkproof.transfer.gpu.hip;
