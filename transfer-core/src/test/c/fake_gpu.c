/*
 * A test double of the two GPU runtimes Linkproof binds through FFM: the subset of the CUDA driver
 * API (libcuda.so.1) and of HIP (libamdhip64.so) that dev.linkproof.transfer.gpu calls, with the
 * same symbol names and C signatures. It lets the whole GPU path -- the bindings, GPU buffers, tcp
 * staging and the gpu-ipc transport between two processes -- run on a machine without a GPU.
 *
 * It is strict where the real runtimes are, so binding mistakes fail here too:
 *   - nothing works before cuInit / hipInit;
 *   - CUDA calls need a current context (cuCtxSetCurrent) on the calling thread;
 *   - device pointers live in their own address range (0x100000000000 up) and every copy checks
 *     that [ptr, ptr + n) lies inside one allocation, so a host address passed as a device pointer,
 *     or a copy past the end, fails with CUDA_ERROR_INVALID_VALUE / hipErrorInvalidValue;
 *   - IPC handles open only in another process, only on an allocation's base, only with the flag
 *     the runtime's headers define (CUDA: 1; HIP: 0 before ROCm 6, 1 from ROCm 6).
 * Device memory is a shared memfd mapping, so another process can map it through the IPC handle.
 * Copies complete when they are queued; events and streams are always ready.
 *
 * Knobs (environment): FAKE_GPU_DEVICES (default 1), FAKE_GPU_INIT_ERROR (cuInit/hipInit return
 * it), FAKE_GPU_HANG=1 (streams and events never complete), FAKE_GPU_MEMORY (bytes per device,
 * default 8 GiB), FAKE_GPU_NO_DMABUF=1 (CUDA devices say they cannot export dma-bufs),
 * FAKE_HIP_VERSION (hipRuntimeGetVersion, default 60200000).
 *
 * Never a stand-in for the real check: scripts/gpu-check.sh runs the same classes on a GPU.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_ALLOCS 4096
#define VA_BASE 0x100000000000ULL
#define VA_ALIGN (2ULL << 20)
#define HANDLE_MAGIC "LPFAKEGPU"

/* status codes shared by both APIs (CUDA and HIP use the same numbers for these) */
enum {
    OK = 0, INVALID_VALUE = 1, OUT_OF_MEMORY = 2, NOT_INITIALIZED = 3, NO_DEVICE = 100,
    INVALID_DEVICE = 101, INVALID_CONTEXT = 201, INVALID_HANDLE = 400, NOT_READY = 600
};

struct alloc {
    int used;
    int imported; /* mapped from another process through an IPC handle */
    int device;
    uint64_t va;
    size_t size;
    void *host;
    int fd;
};

struct ipc_handle {
    char magic[16];
    int32_t pid;
    int32_t fd;
    uint64_t size;
    char pad[32];
};
_Static_assert(sizeof(struct ipc_handle) == 64, "IPC handles are 64 bytes");

typedef struct { char reserved[64]; } handle64;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct alloc allocs[MAX_ALLOCS];
static uint64_t next_va = VA_BASE;
static int initialized;
static __thread long current_ctx; /* CUDA: 0 = none */
static __thread int current_device; /* HIP */

static int env_int(const char *name, long def, long *out) {
    const char *v = getenv(name);
    *out = v && *v ? strtol(v, NULL, 0) : def;
    return 0;
}

static int devices(void) {
    long n;
    env_int("FAKE_GPU_DEVICES", 1, &n);
    return (int) n;
}

static int hang(void) {
    long h;
    env_int("FAKE_GPU_HANG", 0, &h);
    return h != 0;
}

static int do_init(void) {
    long err;
    env_int("FAKE_GPU_INIT_ERROR", 0, &err);
    if (err) {
        return (int) err;
    }
    initialized = 1;
    return devices() == 0 ? NO_DEVICE : OK;
}

/* the allocation holding [va, va + n), or NULL */
static struct alloc *find(uint64_t va, size_t n) {
    for (int i = 0; i < MAX_ALLOCS; i++) {
        struct alloc *a = &allocs[i];
        if (a->used && va >= a->va && n <= a->size && va - a->va <= a->size - n) {
            return a;
        }
    }
    return NULL;
}

static struct alloc *slot(void) {
    for (int i = 0; i < MAX_ALLOCS; i++) {
        if (!allocs[i].used) {
            return &allocs[i];
        }
    }
    return NULL;
}

static int do_alloc(int device, uint64_t *out, size_t size) {
    long limit;
    env_int("FAKE_GPU_MEMORY", 8L << 30, &limit);
    if (!initialized) return NOT_INITIALIZED;
    if (out == NULL || size == 0) return INVALID_VALUE;
    if (size > (size_t) limit) return OUT_OF_MEMORY;
    pthread_mutex_lock(&lock);
    struct alloc *a = slot();
    int fd = a ? (int) syscall(SYS_memfd_create, "fake-gpu", 0) : -1;
    if (fd < 0 || ftruncate(fd, (off_t) size) != 0) {
        if (fd >= 0) close(fd);
        pthread_mutex_unlock(&lock);
        return OUT_OF_MEMORY;
    }
    void *host = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (host == MAP_FAILED) {
        close(fd);
        pthread_mutex_unlock(&lock);
        return OUT_OF_MEMORY;
    }
    *a = (struct alloc) {1, 0, device, next_va, size, host, fd};
    next_va += (size + VA_ALIGN - 1) / VA_ALIGN * VA_ALIGN + VA_ALIGN;
    *out = a->va;
    pthread_mutex_unlock(&lock);
    return OK;
}

static int do_free(uint64_t va, int imported) {
    if (!initialized) return NOT_INITIALIZED;
    pthread_mutex_lock(&lock);
    struct alloc *a = find(va, 1);
    if (a == NULL || a->va != va || a->imported != imported) {
        pthread_mutex_unlock(&lock);
        return INVALID_VALUE;
    }
    munmap(a->host, a->size);
    if (a->fd >= 0) close(a->fd);
    a->used = 0;
    pthread_mutex_unlock(&lock);
    return OK;
}

/* kind: 1 host->device, 2 device->host, 3 device->device */
static int do_copy(int kind, uint64_t dst, uint64_t src, size_t n) {
    if (!initialized) return NOT_INITIALIZED;
    if (n == 0) return OK;
    pthread_mutex_lock(&lock);
    void *d = (void *) dst;
    const void *s = (const void *) src;
    if (kind == 1 || kind == 3) {
        struct alloc *a = find(dst, n);
        if (a == NULL) { pthread_mutex_unlock(&lock); return INVALID_VALUE; }
        d = (char *) a->host + (dst - a->va);
    }
    if (kind == 2 || kind == 3) {
        struct alloc *a = find(src, n);
        if (a == NULL) { pthread_mutex_unlock(&lock); return INVALID_VALUE; }
        s = (const char *) a->host + (src - a->va);
    }
    pthread_mutex_unlock(&lock);
    if (d == NULL || s == NULL) return INVALID_VALUE;
    memmove(d, s, n);
    return OK;
}

static int do_ipc_get(handle64 *out, uint64_t va) {
    if (!initialized) return NOT_INITIALIZED;
    if (out == NULL) return INVALID_VALUE;
    pthread_mutex_lock(&lock);
    struct alloc *a = find(va, 1);
    int rc = a == NULL || a->va != va || a->imported ? INVALID_VALUE : OK;
    if (rc == OK) {
        struct ipc_handle h;
        memset(&h, 0, sizeof h);
        memcpy(h.magic, HANDLE_MAGIC, sizeof HANDLE_MAGIC);
        h.pid = getpid();
        h.fd = a->fd;
        h.size = a->size;
        memcpy(out, &h, sizeof h);
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

static int do_ipc_open(uint64_t *out, handle64 handle, int device) {
    if (!initialized) return NOT_INITIALIZED;
    struct ipc_handle h;
    memcpy(&h, &handle, sizeof h);
    if (out == NULL || memcmp(h.magic, HANDLE_MAGIC, sizeof HANDLE_MAGIC) != 0) return INVALID_VALUE;
    if (h.pid == getpid()) return INVALID_CONTEXT; /* like the real runtimes: not in the exporting process */
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd/%d", h.pid, h.fd);
    int fd = open(path, O_RDWR);
    if (fd < 0) return INVALID_HANDLE;
    void *host = mmap(NULL, h.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (host == MAP_FAILED) { close(fd); return INVALID_HANDLE; }
    pthread_mutex_lock(&lock);
    struct alloc *a = slot();
    if (a == NULL) { pthread_mutex_unlock(&lock); munmap(host, h.size); close(fd); return OUT_OF_MEMORY; }
    *a = (struct alloc) {1, 1, device, next_va, h.size, host, fd};
    next_va += (h.size + VA_ALIGN - 1) / VA_ALIGN * VA_ALIGN + VA_ALIGN;
    *out = a->va;
    pthread_mutex_unlock(&lock);
    return OK;
}

static int do_dmabuf(int *fd, uint64_t va, size_t size) {
    if (!initialized) return NOT_INITIALIZED;
    if (fd == NULL || va % 4096 != 0 || size % 4096 != 0) return INVALID_VALUE;
    pthread_mutex_lock(&lock);
    struct alloc *a = find(va, size);
    int rc = a == NULL ? INVALID_VALUE : OK;
    if (rc == OK) *fd = dup(a->fd); /* stands in for a dma-buf: a file the caller must close */
    pthread_mutex_unlock(&lock);
    return rc;
}

static const char *error_name(int rc, int hip) {
    switch (rc) {
        case OK: return hip ? "hipSuccess" : "CUDA_SUCCESS";
        case INVALID_VALUE: return hip ? "hipErrorInvalidValue" : "CUDA_ERROR_INVALID_VALUE";
        case OUT_OF_MEMORY: return hip ? "hipErrorOutOfMemory" : "CUDA_ERROR_OUT_OF_MEMORY";
        case NOT_INITIALIZED: return hip ? "hipErrorNotInitialized" : "CUDA_ERROR_NOT_INITIALIZED";
        case NO_DEVICE: return hip ? "hipErrorNoDevice" : "CUDA_ERROR_NO_DEVICE";
        case INVALID_DEVICE: return hip ? "hipErrorInvalidDevice" : "CUDA_ERROR_INVALID_DEVICE";
        case INVALID_CONTEXT: return hip ? "hipErrorInvalidContext" : "CUDA_ERROR_INVALID_CONTEXT";
        case INVALID_HANDLE: return hip ? "hipErrorInvalidHandle" : "CUDA_ERROR_INVALID_HANDLE";
        case NOT_READY: return hip ? "hipErrorNotReady" : "CUDA_ERROR_NOT_READY";
        default: return NULL;
    }
}

static const char *error_text(int rc) {
    switch (rc) {
        case OK: return "no error";
        case INVALID_VALUE: return "invalid argument";
        case OUT_OF_MEMORY: return "out of memory";
        case NOT_INITIALIZED: return "initialization error";
        case NO_DEVICE: return "no GPU device is detected (fake runtime)";
        case INVALID_DEVICE: return "invalid device ordinal";
        case INVALID_CONTEXT: return "invalid device context";
        case INVALID_HANDLE: return "invalid resource handle";
        case NOT_READY: return "device not ready";
        default: return NULL;
    }
}

static int device_ok(int d) {
    return initialized && d >= 0 && d < devices();
}

static void device_name(char *name, int len, int d) {
    snprintf(name, (size_t) len, "Linkproof fake GPU %d (test double)", d);
}

static void bus_id(char *bus, int len, int d) {
    snprintf(bus, (size_t) len, "0000:%02X:00.0", 0xA0 + d);
}

/* a stream or event handle: a tagged heap cell */
static uint64_t new_handle(void) {
    long *h = malloc(sizeof(long));
    if (h) *h = 0x5EA11;
    return (uint64_t) h;
}

static int check_handle(uint64_t h) {
    return h != 0 && *(long *) h == 0x5EA11 ? OK : INVALID_HANDLE;
}

static int drop_handle(uint64_t h) {
    if (check_handle(h) != OK) return INVALID_HANDLE;
    *(long *) h = 0;
    free((void *) h);
    return OK;
}

static int ready(uint64_t h) {
    int rc = check_handle(h);
    return rc != OK ? rc : hang() ? NOT_READY : OK;
}

/* ---------------- CUDA driver API ---------------- */

typedef int CUresult;
typedef uint64_t CUdeviceptr;
typedef int CUdevice;

#define CTX(d) (0xC7C70000L + (d))
#define NEED_CTX() do { if (!initialized) return NOT_INITIALIZED; if (current_ctx == 0) return INVALID_CONTEXT; } while (0)

CUresult cuInit(unsigned int flags) { return flags != 0 ? INVALID_VALUE : do_init(); }
CUresult cuDriverGetVersion(int *v) { if (!v) return INVALID_VALUE; *v = 12080; return OK; }
CUresult cuDeviceGetCount(int *n) { if (!initialized) return NOT_INITIALIZED; if (!n) return INVALID_VALUE; *n = devices(); return OK; }
CUresult cuDeviceGet(CUdevice *d, int ordinal) {
    if (!initialized) return NOT_INITIALIZED;
    if (!d || !device_ok(ordinal)) return INVALID_DEVICE;
    *d = ordinal;
    return OK;
}
CUresult cuDeviceGetName(char *name, int len, CUdevice d) {
    if (!device_ok(d)) return INVALID_DEVICE;
    if (!name || len <= 0) return INVALID_VALUE;
    device_name(name, len, d);
    return OK;
}
CUresult cuDeviceGetPCIBusId(char *bus, int len, CUdevice d) {
    if (!device_ok(d)) return INVALID_DEVICE;
    if (!bus || len < 13) return INVALID_VALUE;
    bus_id(bus, len, d);
    return OK;
}
CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice d) {
    long limit;
    env_int("FAKE_GPU_MEMORY", 8L << 30, &limit);
    if (!device_ok(d)) return INVALID_DEVICE;
    if (!bytes) return INVALID_VALUE;
    *bytes = (size_t) limit;
    return OK;
}
CUresult cuDeviceGetAttribute(int *v, int attribute, CUdevice d) {
    if (!device_ok(d)) return INVALID_DEVICE;
    if (!v) return INVALID_VALUE;
    long no_dmabuf;
    env_int("FAKE_GPU_NO_DMABUF", 0, &no_dmabuf);
    *v = attribute == 124 /* CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED */ && !no_dmabuf ? 1 : 0;
    return OK;
}
CUresult cuDevicePrimaryCtxRetain(long *ctx, CUdevice d) {
    if (!device_ok(d)) return INVALID_DEVICE;
    if (!ctx) return INVALID_VALUE;
    *ctx = CTX(d);
    return OK;
}
CUresult cuCtxSetCurrent(long ctx) {
    if (!initialized) return NOT_INITIALIZED;
    if (ctx != 0 && (ctx < CTX(0) || ctx >= CTX(devices()))) return INVALID_CONTEXT;
    current_ctx = ctx;
    return OK;
}
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n) { NEED_CTX(); return do_alloc((int) (current_ctx - CTX(0)), p, n); }
CUresult cuMemFree_v2(CUdeviceptr p) { NEED_CTX(); return do_free(p, 0); }
CUresult cuStreamCreate(uint64_t *s, unsigned int flags) { NEED_CTX(); if (!s || flags > 1) return INVALID_VALUE; *s = new_handle(); return OK; }
CUresult cuStreamDestroy_v2(uint64_t s) { NEED_CTX(); return drop_handle(s); }
CUresult cuStreamQuery(uint64_t s) { NEED_CTX(); return ready(s); }
CUresult cuEventCreate(uint64_t *e, unsigned int flags) { NEED_CTX(); if (!e || flags > 0xF) return INVALID_VALUE; *e = new_handle(); return OK; }
CUresult cuEventDestroy_v2(uint64_t e) { NEED_CTX(); return drop_handle(e); }
CUresult cuEventRecord(uint64_t e, uint64_t s) { NEED_CTX(); int rc = check_handle(e); return rc ? rc : check_handle(s); }
CUresult cuEventQuery(uint64_t e) { return ready(e); }
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, uint64_t s) {
    NEED_CTX(); int rc = check_handle(s); return rc ? rc : do_copy(1, dst, (uint64_t) src, n);
}
CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, uint64_t s) {
    NEED_CTX(); int rc = check_handle(s); return rc ? rc : do_copy(2, (uint64_t) dst, src, n);
}
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, uint64_t s) {
    NEED_CTX(); int rc = check_handle(s); return rc ? rc : do_copy(3, dst, src, n);
}
CUresult cuIpcGetMemHandle(handle64 *h, CUdeviceptr p) { NEED_CTX(); return do_ipc_get(h, p); }
CUresult cuIpcOpenMemHandle_v2(CUdeviceptr *p, handle64 h, unsigned int flags) {
    NEED_CTX();
    if (flags != 1 /* CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS */) return INVALID_VALUE;
    return do_ipc_open(p, h, (int) (current_ctx - CTX(0)));
}
CUresult cuIpcCloseMemHandle(CUdeviceptr p) { NEED_CTX(); return do_free(p, 1); }
CUresult cuMemGetHandleForAddressRange(void *handle, CUdeviceptr p, size_t n, int type, unsigned long long flags) {
    NEED_CTX();
    if (type != 1 || flags != 0) return INVALID_VALUE;
    return do_dmabuf((int *) handle, p, n);
}
CUresult cuGetErrorName(CUresult rc, const char **s) {
    const char *n = error_name(rc, 0);
    if (!s || !n) return INVALID_VALUE;
    *s = n;
    return OK;
}
CUresult cuGetErrorString(CUresult rc, const char **s) {
    const char *t = error_text(rc);
    if (!s || !t) return INVALID_VALUE;
    *s = t;
    return OK;
}

/* ---------------- HIP ---------------- */

typedef int hipError_t;

static int hip_version(void) {
    long v;
    env_int("FAKE_HIP_VERSION", 60200000, &v);
    return (int) v;
}

#define NEED_INIT() do { if (!initialized) return NOT_INITIALIZED; } while (0)

hipError_t hipInit(unsigned int flags) {
    if (flags != 0) return INVALID_VALUE;
    int rc = do_init();
    return rc == NO_DEVICE ? INVALID_DEVICE : rc; /* what ROCm's hipInit says when there is no GPU */
}
hipError_t hipRuntimeGetVersion(int *v) { if (!v) return INVALID_VALUE; *v = hip_version(); return OK; }
hipError_t hipGetDeviceCount(int *n) {
    if (!n) return INVALID_VALUE;
    *n = initialized ? devices() : 0;
    return *n == 0 ? NO_DEVICE : OK;
}
hipError_t hipDeviceGet(int *d, int ordinal) { NEED_INIT(); if (!d || !device_ok(ordinal)) return INVALID_DEVICE; *d = ordinal; return OK; }
hipError_t hipDeviceGetName(char *name, int len, int d) {
    if (!device_ok(d)) return INVALID_DEVICE;
    if (!name || len <= 0) return INVALID_VALUE;
    device_name(name, len, d);
    return OK;
}
hipError_t hipDeviceGetPCIBusId(char *bus, int len, int d) {
    if (!device_ok(d)) return INVALID_DEVICE;
    if (!bus || len < 13) return INVALID_VALUE;
    bus_id(bus, len, d);
    return OK;
}
hipError_t hipDeviceTotalMem(size_t *bytes, int d) { return cuDeviceTotalMem_v2(bytes, d); }
hipError_t hipSetDevice(int d) { NEED_INIT(); if (!device_ok(d)) return INVALID_DEVICE; current_device = d; return OK; }
hipError_t hipMalloc(void **p, size_t n) { NEED_INIT(); return do_alloc(current_device, (uint64_t *) p, n); }
hipError_t hipFree(void *p) { NEED_INIT(); return do_free((uint64_t) p, 0); }
hipError_t hipStreamCreateWithFlags(uint64_t *s, unsigned int flags) { NEED_INIT(); if (!s || flags > 1) return INVALID_VALUE; *s = new_handle(); return OK; }
hipError_t hipStreamDestroy(uint64_t s) { NEED_INIT(); return drop_handle(s); }
hipError_t hipStreamQuery(uint64_t s) { NEED_INIT(); return ready(s); }
hipError_t hipEventCreateWithFlags(uint64_t *e, unsigned int flags) { NEED_INIT(); if (!e || flags > 0xF) return INVALID_VALUE; *e = new_handle(); return OK; }
hipError_t hipEventDestroy(uint64_t e) { NEED_INIT(); return drop_handle(e); }
hipError_t hipEventRecord(uint64_t e, uint64_t s) { NEED_INIT(); int rc = check_handle(e); return rc ? rc : check_handle(s); }
hipError_t hipEventQuery(uint64_t e) { return ready(e); }
hipError_t hipMemcpyAsync(void *dst, const void *src, size_t n, int kind, uint64_t s) {
    NEED_INIT();
    int rc = check_handle(s);
    if (rc) return rc;
    if (kind < 1 || kind > 3) return INVALID_VALUE;
    return do_copy(kind, (uint64_t) dst, (uint64_t) src, n);
}
hipError_t hipIpcGetMemHandle(handle64 *h, void *p) { NEED_INIT(); return do_ipc_get(h, (uint64_t) p); }
hipError_t hipIpcOpenMemHandle(void **p, handle64 h, unsigned int flags) {
    NEED_INIT();
    if (flags != (hip_version() >= 60000000 ? 1u : 0u)) return INVALID_VALUE; /* hipIpcMemLazyEnablePeerAccess */
    return do_ipc_open((uint64_t *) p, h, current_device);
}
hipError_t hipIpcCloseMemHandle(void *p) { NEED_INIT(); return do_free((uint64_t) p, 1); }
hipError_t hipMemGetHandleForAddressRange(void *handle, uint64_t p, size_t n, int type, unsigned long long flags) {
    NEED_INIT();
    if (type != 1 || flags != 0) return INVALID_VALUE;
    return do_dmabuf((int *) handle, p, n);
}
const char *hipGetErrorName(hipError_t rc) { const char *n = error_name(rc, 1); return n ? n : "hipErrorUnknown"; }
const char *hipGetErrorString(hipError_t rc) { const char *t = error_text(rc); return t ? t : "unknown error"; }
