/* A cache line handed back and forth between two CPUs: nanoseconds per round trip. It tells which
 * mode the host placed this VM's vCPUs in for the run beside it. On the 2-CPU VMs this project is
 * built on, CPU 0 <-> CPU 1 takes 64-74 ns in the usual mode and 340-365 ns in a slow one that lasts
 * whole runs; every cross-CPU latency (a 4 KiB shm write, ours, fi_pingpong's and the C floor's
 * alike) is then 3-4 x slower (bench/history/2026-12-06.md). bench/libfabric-vs-pingpong.sh runs it
 * before and after each tool's run and takes its fast-mode medians from the runs both probes call fast.
 *
 *   cacheline-rtt [CPU_A CPU_B [ROUND_TRIPS]]   defaults 0 1 200000; prints one number: ns per round trip
 *
 * Exits 1 naming the call when a thread cannot be pinned or started. Each side waits with a pause
 * between reads; the other side is a thread of this process, so nothing outlives it.
 * Build: cc -O2 -Wall -pthread -o cacheline-rtt cacheline-rtt.c
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static _Alignas(64) atomic_long ball;
static long round_trips = 200000;
static int cpu_b = 1;

static void pin(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    int r = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    if (r) {
        fprintf(stderr, "cacheline-rtt: pthread_setaffinity_np(CPU %d): %s\n", cpu, strerror(r));
        exit(1);
    }
}

static void pause_once(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

/* The other side: waits for each odd value and answers with the next even one. */
static void *answer(void *unused) {
    (void) unused;
    pin(cpu_b);
    for (long i = 0; i < round_trips; i++) {
        while (atomic_load_explicit(&ball, memory_order_acquire) != 2 * i + 1) pause_once();
        atomic_store_explicit(&ball, 2 * i + 2, memory_order_release);
    }
    return NULL;
}

int main(int argc, char **argv) {
    int cpu_a = argc > 1 ? atoi(argv[1]) : 0;
    cpu_b = argc > 2 ? atoi(argv[2]) : 1;
    round_trips = argc > 3 ? atol(argv[3]) : round_trips;
    if (round_trips <= 0) {
        fprintf(stderr, "cacheline-rtt: ROUND_TRIPS must be positive, got '%s'\n", argv[3]);
        return 1;
    }
    pin(cpu_a);
    pthread_t other;
    int r = pthread_create(&other, NULL, answer, NULL);
    if (r) {
        fprintf(stderr, "cacheline-rtt: pthread_create: %s\n", strerror(r));
        return 1;
    }
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (long i = 0; i < round_trips; i++) {
        atomic_store_explicit(&ball, 2 * i + 1, memory_order_release);
        while (atomic_load_explicit(&ball, memory_order_acquire) != 2 * i + 2) pause_once();
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    pthread_join(other, NULL);
    printf("%.1f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / round_trips);
    return 0;
}
