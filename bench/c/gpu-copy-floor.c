/* The CUDA driver's own floor for the copies Linkproof's gpu-ipc transport makes, in C, so
 * bench/gpu-copy-floor.sh can put our per-copy cost beside what the driver allows on the same GPU.
 * Same calls as GpuIpcDataPath + EventRingStream: cuMemcpyDtoDAsync_v2 on a non-blocking stream,
 * then cuEventRecord of a timing-free event, then cuEventQuery polled until it is no longer
 * CUDA_ERROR_NOT_READY. Without -C it leaves out what ours adds per call (cuCtxSetCurrent before
 * each copy and each record), with -C it makes those calls too. Both buffers are this process's own
 * allocations, not validated (ours copies into a buffer another process exported through an IPC handle: the same
 * HBM on one GPU).
 *
 *   stop-and-wait SIZE: one copy, record, poll; a sample is clock_gettime from before the copy to
 *                       the poll that sees the event (as our latency mode times one iteration)
 *   batch SIZE xB:      B copies into B slots, one record, poll; GB/s and time per copy
 *   depth SIZE xD:      D copies in flight, each followed by its own event (a ring, as our
 *                       pipeline depth); GB/s over the timed iterations
 *
 * No CUDA toolkit is needed: the few driver entry points are declared here and taken from
 * libcuda.so.1 with dlopen, as our FFM bindings do. Build: cc -O2 -o gpu-copy-floor gpu-copy-floor.c -ldl
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int CUresult;
typedef uint64_t CUdeviceptr;
typedef void *CUcontext, *CUstream, *CUevent;
#define CUDA_ERROR_NOT_READY 600
#define CU_STREAM_NON_BLOCKING 1
#define CU_EVENT_DISABLE_TIMING 2

static CUresult (*cuInit)(unsigned);
static CUresult (*cuDeviceGet)(int *, int);
static CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, int);
static CUresult (*cuCtxSetCurrent)(CUcontext);
static CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
static CUresult (*cuStreamCreate)(CUstream *, unsigned);
static CUresult (*cuEventCreate)(CUevent *, unsigned);
static CUresult (*cuEventRecord)(CUevent, CUstream);
static CUresult (*cuEventQuery)(CUevent);
static CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);

#define DIE(...) do { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); exit(1); } while (0)
#define CK(call) do { CUresult rc_ = (call); if (rc_) DIE("%s: CUresult %d", #call, rc_); } while (0)

static CUcontext ctx;
static CUstream stream;
static int set_current;

static double now_us(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }
static int cmp(const void *a, const void *b) { double x = *(const double *) a, y = *(const double *) b; return x < y ? -1 : x > y; }

static void *sym(void *lib, const char *name) {
    void *p = dlsym(lib, name);
    if (!p) DIE("libcuda.so.1 lacks %s", name);
    return p;
}

static void copy(CUdeviceptr dst, CUdeviceptr src, size_t n) {
    if (set_current) CK(cuCtxSetCurrent(ctx));
    CK(cuMemcpyDtoDAsync(dst, src, n, stream));
}

static void record(CUevent e) {
    if (set_current) CK(cuCtxSetCurrent(ctx));
    CK(cuEventRecord(e, stream));
}

static void wait_for(CUevent e) {
    CUresult rc;
    while ((rc = cuEventQuery(e)) == CUDA_ERROR_NOT_READY) {
    }
    if (rc) DIE("cuEventQuery: CUresult %d", rc);
}

static void stop_and_wait(CUdeviceptr dst, CUdeviceptr src, size_t n, int iters, int warmup, CUevent e) {
    double *s = malloc(sizeof(double) * iters), sum = 0;
    for (int i = -warmup; i < iters; i++) {
        double t0 = now_us();
        copy(dst, src, n);
        record(e);
        wait_for(e);
        if (i >= 0) { s[i] = now_us() - t0; sum += s[i]; }
    }
    qsort(s, iters, sizeof(double), cmp);
    printf("stop-and-wait\t%zu\t1\t%d\tavg_us=%.2f\tp50_us=%.2f\tp99_us=%.2f\tgbps=%.3f\n", n, iters, sum / iters,
           s[iters / 2], s[(int) (iters * 0.99)], n * (double) iters / sum / 1e3);
    free(s);
}

static void batch(CUdeviceptr dst, CUdeviceptr src, size_t n, int b, int iters, int warmup, CUevent e) {
    double t0 = 0;
    for (int i = -warmup; i < iters; i++) {
        if (i == 0) t0 = now_us();
        for (int k = 0; k < b; k++) copy(dst + (size_t) k * n, src + (size_t) k * n, n);
        record(e);
        wait_for(e);
    }
    double us = now_us() - t0;
    printf("batch\t%zu\t%d\t%d\tper_copy_us=%.2f\tgbps=%.3f\n", n, b, iters, us / ((double) iters * b),
           n * (double) b * iters / us / 1e3);
}

static void depth(CUdeviceptr dst, CUdeviceptr src, size_t n, int d, int iters, int warmup, CUevent *ring) {
    double t0 = 0;
    long posted = 0, done = 0, total = (long) iters + warmup;
    while (done < total) {
        while (posted < total && posted - done < d) {
            copy(dst, src, n);
            record(ring[posted % d]);
            posted++;
        }
        wait_for(ring[done % d]);
        if (++done == warmup) t0 = now_us();
    }
    double us = now_us() - t0;
    printf("depth\t%zu\t%d\t%d\tgbps=%.3f\n", n, d, iters, n * (double) iters / us / 1e3);
}

int main(int argc, char **argv) {
    set_current = argc > 1 && strcmp(argv[1], "-C") == 0;
    void *lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (!lib) DIE("dlopen libcuda.so.1: %s", dlerror());
    cuInit = sym(lib, "cuInit");
    cuDeviceGet = sym(lib, "cuDeviceGet");
    cuDevicePrimaryCtxRetain = sym(lib, "cuDevicePrimaryCtxRetain");
    cuCtxSetCurrent = sym(lib, "cuCtxSetCurrent");
    cuMemAlloc = sym(lib, "cuMemAlloc_v2");
    cuStreamCreate = sym(lib, "cuStreamCreate");
    cuEventCreate = sym(lib, "cuEventCreate");
    cuEventRecord = sym(lib, "cuEventRecord");
    cuEventQuery = sym(lib, "cuEventQuery");
    cuMemcpyDtoDAsync = sym(lib, "cuMemcpyDtoDAsync_v2");

    int dev;
    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    CK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    CUevent ring[4];
    for (int i = 0; i < 4; i++) CK(cuEventCreate(&ring[i], CU_EVENT_DISABLE_TIMING));
    size_t cap = 256u << 20;
    CUdeviceptr src, dst;
    CK(cuMemAlloc(&src, cap));
    CK(cuMemAlloc(&dst, cap));
    printf("# gpu-copy-floor%s: shape, bytes, copies per wait, timed iterations, figures\n",
           set_current ? " -C (cuCtxSetCurrent before each call, as ours)" : "");

    /* The shapes of GpuIpcCorrectness and GpuIpcBandwidth: latency points (8 B, 4 KiB; 2000
     * iterations after 200), stop-and-wait 4 KiB..64 MiB, 64 KiB batches of 16 and 128, 256 MiB. */
    stop_and_wait(dst, src, 8, 2000, 200, ring[0]);
    for (size_t n = 4096; n <= (64u << 20); n *= 4) {
        int iters = (int) ((256u << 20) / n);
        iters = iters < 10 ? 10 : iters > 1000 ? 1000 : iters;
        stop_and_wait(dst, src, n, iters, iters / 10 < 2 ? 2 : iters / 10, ring[0]);
    }
    batch(dst, src, 65536, 16, 256, 25, ring[0]);
    batch(dst, src, 65536, 128, 32, 3, ring[0]);
    depth(dst, src, cap, 1, 50, 5, ring);
    depth(dst, src, cap, 4, 50, 5, ring);
    return 0;
}
