package dev.linkproof.transfer.gpu;

import dev.linkproof.transfer.TransferException;

/**
 * A GPU runtime call failed. The message carries the runtime's own name and description of the
 * error code ({@code cuMemAlloc_v2: CUDA_ERROR_OUT_OF_MEMORY (out of memory)}), so a report reads
 * the way the vendor's tools would.
 */
public class GpuException extends TransferException {
    private final String api;
    private final String call;
    private final int code;

    public GpuException(String api, String call, int code, String errorName, String errorText) {
        super(call + ": " + errorName + " (" + errorText + ")"
                + (code == 0 ? "" : " [" + api + " error " + code + "]"));
        this.api = api;
        this.call = call;
        this.code = code;
    }

    /** A failure that is not a runtime error code (a deadline, a bad argument caught before the call). */
    public GpuException(String api, String message) {
        super(message);
        this.api = api;
        this.call = "";
        this.code = 0;
    }

    /** {@code cuda} or {@code hip}. */
    public String api() {
        return api;
    }

    /** The runtime function that failed; empty when none was called. */
    public String call() {
        return call;
    }

    /** The runtime's error code (CUresult, hipError_t); 0 when none. */
    public int code() {
        return code;
    }
}
