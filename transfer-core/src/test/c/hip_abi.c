/* What the HIP binding (dev.linkproof.transfer.gpu.hip.HipRuntime) assumes, printed from
 * hip_runtime_api.h (Debian's libamdhip64-dev): constants, handle sizes, and the runtime version the
 * headers belong to (hipIpcMemLazyEnablePeerAccess changed from 0 to 1 in ROCm 6). */
#define __HIP_PLATFORM_AMD__ 1
#include <hip/hip_runtime_api.h>
#include <stdio.h>

#define CONST(name) printf("const.%s %lld\n", #name, (long long) (name))
#define SIZE(type) printf("sizeof.%s %zu\n", #type, sizeof(type))

int main(void) {
    CONST(hipSuccess); CONST(hipErrorNotReady); CONST(hipMemcpyHostToDevice); CONST(hipMemcpyDeviceToHost);
    CONST(hipMemcpyDeviceToDevice); CONST(hipStreamNonBlocking); CONST(hipEventDisableTiming);
    CONST(HIP_IPC_HANDLE_SIZE); CONST(hipIpcMemLazyEnablePeerAccess); CONST(HIP_VERSION);
    SIZE(hipIpcMemHandle_t); SIZE(hipStream_t); SIZE(hipEvent_t); SIZE(hipError_t); SIZE(hipDevice_t);
    return 0;
}
