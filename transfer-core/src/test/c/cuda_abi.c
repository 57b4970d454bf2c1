/* What the CUDA binding (dev.linkproof.transfer.gpu.cuda.CudaRuntime) assumes, printed from cuda.h:
 * the versioned symbol each API name maps to, the constants, and the handle sizes. */
#include <cuda.h>
#include <stdio.h>

#define STR(x) #x
#define SYMBOL(name) printf("symbol." #name " %s\n", STR(name))
#define CONST(name) printf("const.%s %lld\n", #name, (long long) (name))
#define SIZE(type) printf("sizeof.%s %zu\n", #type, sizeof(type))

int main(void) {
    SYMBOL(cuInit); SYMBOL(cuDriverGetVersion); SYMBOL(cuDeviceGetCount); SYMBOL(cuDeviceGet);
    SYMBOL(cuDeviceGetName); SYMBOL(cuDeviceGetPCIBusId); SYMBOL(cuDeviceTotalMem); SYMBOL(cuDeviceGetAttribute);
    SYMBOL(cuDevicePrimaryCtxRetain); SYMBOL(cuCtxSetCurrent); SYMBOL(cuMemAlloc); SYMBOL(cuMemFree);
    SYMBOL(cuStreamCreate); SYMBOL(cuStreamDestroy); SYMBOL(cuStreamQuery); SYMBOL(cuEventCreate);
    SYMBOL(cuEventDestroy); SYMBOL(cuEventRecord); SYMBOL(cuEventQuery); SYMBOL(cuMemcpyHtoDAsync);
    SYMBOL(cuMemcpyDtoHAsync); SYMBOL(cuMemcpyDtoDAsync); SYMBOL(cuIpcGetMemHandle); SYMBOL(cuIpcOpenMemHandle);
    SYMBOL(cuIpcCloseMemHandle); SYMBOL(cuGetErrorName); SYMBOL(cuGetErrorString); SYMBOL(cuMemGetHandleForAddressRange);
    CONST(CUDA_SUCCESS); CONST(CUDA_ERROR_NOT_READY); CONST(CU_STREAM_NON_BLOCKING); CONST(CU_EVENT_DISABLE_TIMING);
    CONST(CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS); CONST(CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD);
    CONST(CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED); CONST(CU_IPC_HANDLE_SIZE);
    SIZE(CUipcMemHandle); SIZE(CUdeviceptr); SIZE(CUdevice); SIZE(CUstream); SIZE(CUevent); SIZE(CUcontext); SIZE(CUresult);
    return 0;
}
