package dev.linkproof.transfer.libfabric;

import dev.linkproof.transfer.gpu.GpuBuffer;
import dev.linkproof.transfer.gpu.GpuRuntime;
import dev.linkproof.transfer.gpu.cuda.CudaRuntime;
import dev.linkproof.transfer.gpu.hip.HipRuntime;
import dev.linkproof.transfer.memory.Buffer;
import java.lang.foreign.MemorySegment;

/**
 * The memory of a buffer as the provider sees it: host memory by its address ({@code fi_mr_reg}), or
 * device memory by its device pointer, interface ({@code FI_HMEM_CUDA}, {@code FI_HMEM_ROCR}) and
 * device ordinal ({@code fi_mr_regattr}). Every address a provider is given (a local op's buffer, the
 * target's base under FI_MR_VIRT_ADDR, a receive's buffer) comes from here, never from a GPU buffer's
 * host copy, which only the validation reads.
 */
record FabricRegion(long address, long length, boolean hmem, int iface, int device) {
    /** Host memory, registered with fi_mr_reg as before FI_HMEM. */
    static FabricRegion host(MemorySegment segment) {
        return new FabricRegion(segment.address(), segment.byteSize(), false, LibfabricAbi.FI_HMEM_SYSTEM, 0);
    }

    /** Memory registered with fi_mr_regattr as {@code iface}'s on {@code device}. */
    static FabricRegion device(long address, long length, int iface, int device) {
        return new FabricRegion(address, length, true, iface, device);
    }

    /** {@code buffer}'s memory: a GPU buffer's device memory (not its host copy), else its segment. */
    static FabricRegion of(Buffer buffer) {
        if (buffer instanceof GpuBuffer gpu) {
            return device(gpu.devicePointer(), gpu.size(), iface(gpu.runtime()), gpu.device());
        }
        return host(buffer.segment());
    }

    /** The interface libfabric knows {@code runtime}'s memory by: CUDA's FI_HMEM_CUDA, HIP's (ROCm) FI_HMEM_ROCR. */
    static int iface(GpuRuntime runtime) {
        return switch (runtime.api()) {
            case CudaRuntime.API -> LibfabricAbi.FI_HMEM_CUDA;
            case HipRuntime.API -> LibfabricAbi.FI_HMEM_ROCR;
            default -> throw new IllegalArgumentException("libfabric has no FI_HMEM interface for " + runtime.api());
        };
    }

    static String ifaceName(int iface) {
        return switch (iface) {
            case LibfabricAbi.FI_HMEM_SYSTEM -> "FI_HMEM_SYSTEM";
            case LibfabricAbi.FI_HMEM_CUDA -> "FI_HMEM_CUDA";
            case LibfabricAbi.FI_HMEM_ROCR -> "FI_HMEM_ROCR";
            default -> "fi_hmem_iface " + iface;
        };
    }

    /** What a failure says this memory is: "4096 bytes of FI_HMEM_CUDA memory on device 0", or of host memory. */
    String describe() {
        return length + " bytes of " + (hmem ? ifaceName(iface) + " memory on device " + device : "host memory");
    }
}
