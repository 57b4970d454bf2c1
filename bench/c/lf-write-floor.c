/* What libfabric itself allows for the WRITE Linkproof's libfabric transport times, in C, so
 * bench/libfabric-vs-pingpong.sh can tell the operation's cost (a round trip: the payload and the
 * provider's acknowledgement of FI_DELIVERY_COMPLETE) from our Java path's (FFM downcalls, the JVM).
 * fi_pingpong times a one-way message, so it cannot say which of the two a gap to it is.
 *
 * Same calls and attributes as transfer-core's dev.linkproof.transfer.libfabric (FabricInfo,
 * FabricDomain, FabricEndpoint, FabricMemory, LibfabricDataPath, LibfabricTargetPoint):
 *   fi_getinfo(FI_VERSION(1, 17)) with caps FI_RMA, mode FI_CONTEXT | FI_CONTEXT2, FI_EP_RDM, mr_mode
 *   FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY | FI_MR_ENDPOINT, the provider by
 *   name; the first entry. fi_fabric, fi_domain, fi_av_open (FI_AV_TABLE, count 1), fi_cq_open
 *   (FI_CQ_FORMAT_CONTEXT, FI_WAIT_NONE; 65 entries on the initiator, 256 on the target), fi_endpoint,
 *   fi_ep_bind of the AV and of the CQ (FI_TRANSMIT | FI_RECV), fi_enable, fi_getname; fi_mr_reg of
 *   the buffer (every access, requested key 1), fi_mr_bind + fi_mr_enable under FI_MR_ENDPOINT.
 *   Initiator: fi_av_insert of the target's name; per write fi_writemsg of one prepared fi_msg_rma
 *   (its desc the MR's, its context a struct fi_context2) with FI_COMPLETION | FI_DELIVERY_COMPLETE,
 *   then fi_cq_read (64 entries) until its completion, a pause between empty reads; -FI_EAGAIN from
 *   the post: read completions and post again. Target: nothing but fi_cq_read (64 entries) in a
 *   loop, a pause between empty reads and sched_yield once every 1024 (manual-progress providers
 *   move only inside their calls), until the client says done.
 * The target's address, the MR key and the address the initiator writes to (the buffer's under
 * FI_MR_VIRT_ADDR, else 0) go over a plain TCP socket (-B / -P PORT), as does a checksum of the
 * target's buffer after each size (the writes are validated, untimed, as ours are).
 *
 *   target:    lf-write-floor -p PROVIDER -B PORT [-T DEADLINE_S]
 *   initiator: lf-write-floor -p PROVIDER -S SIZES -I ITERS [-W WARMUP] -P PORT HOST
 * SIZES: comma-separated bytes. Per size: WARMUP (default ITERS / 10) writes, then ITERS writes
 * stop-and-wait inside one clock_gettime(CLOCK_MONOTONIC) pair; one line per size:
 *   FLOOR write SIZE AVG_US ITERS
 * Lines starting with '#' describe the setup. Any failed call exits 1 naming it; 10 s without a
 * completion exits 1; the target exits when the initiator says done, or when it leaves, or after
 * DEADLINE_S (default 600). Build: cc -O2 -Wall -Wextra -o lf-write-floor lf-write-floor.c -lfabric
 */
#define _GNU_SOURCE
#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <getopt.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define DIE(...) do { fprintf(stderr, "lf-write-floor: " __VA_ARGS__); fputc('\n', stderr); exit(1); } while (0)
/* A libfabric call that returns a negative fi_errno on failure. */
#define CK(call) do { long rc_ = (long) (call); if (rc_ < 0) DIE("%s: %s (%ld)", #call, fi_strerror((int) -rc_), -rc_); } while (0)

#define CQ_ENTRIES 64          /* entries per fi_cq_read, both sides (LibfabricDataPath.ENTRIES) */
#define YIELD_MASK 1023        /* LibfabricTargetPoint.YIELD_MASK */
#define STALL_NS 10000000000LL /* no completion for this long: the wait fails */
#define QUIET_NS 2000000LL     /* FabricDomain.quiesce: the queue stays empty this long before closing */
#define QUIESCE_MAX_NS 50000000LL
#define CMD_CHECK 1
#define CMD_DONE 2

static inline void spin_pause(void) { /* what Thread.onSpinWait compiles to */
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("isb" ::: "memory");
#endif
}

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* ---- the control socket: big-endian 64-bit words ---- */

static void put_bytes(int fd, const void *p, size_t n, const char *what) {
    const char *c = p;
    while (n > 0) {
        ssize_t k = send(fd, c, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) DIE("control socket: sending %s: %s", what, k < 0 ? strerror(errno) : "closed");
        c += k;
        n -= (size_t) k;
    }
}

/* Reads n bytes; 0 on EOF before the first byte (the peer left), -1 on timeout, 1 when read. */
static int get_bytes(int fd, void *p, size_t n, const char *what) {
    char *c = p;
    size_t got = 0;
    while (got < n) {
        ssize_t k = recv(fd, c + got, n - got, 0);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return -1;
        if (k < 0) DIE("control socket: reading %s: %s", what, strerror(errno));
        if (k == 0) {
            if (got == 0) return 0;
            DIE("control socket: the peer left in the middle of %s", what);
        }
        got += (size_t) k;
    }
    return 1;
}

static void put_u64(int fd, uint64_t v, const char *what) {
    uint64_t be = htobe64(v);
    put_bytes(fd, &be, sizeof be, what);
}

static uint64_t get_u64(int fd, const char *what) {
    uint64_t be;
    int r = get_bytes(fd, &be, sizeof be, what);
    if (r == 0) DIE("control socket: the peer left before sending %s", what);
    if (r < 0) DIE("control socket: no %s within 10 s", what);
    return be64toh(be);
}

static void recv_timeout(int fd, int seconds) {
    struct timeval tv = { .tv_sec = seconds };
    if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv)) DIE("setsockopt(SO_RCVTIMEO): %s", strerror(errno));
}

static uint64_t fnv1a(const unsigned char *p, size_t n) {
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

/* ---- libfabric setup, as FabricInfo / FabricDomain / FabricEndpoint / FabricMemory ---- */

struct side {
    struct fi_info *info;
    struct fid_fabric *fabric;
    struct fid_domain *domain;
    struct fid_av *av;
    struct fid_cq *cq;
    struct fid_ep *ep;
    struct fid_mr *mr;
    char name[256];
    size_t namelen;
};

static const char *mr_mode_text(int mode) {
    static char text[256];
    static const char *names[] = { "FI_MR_BASIC", "FI_MR_SCALABLE", "FI_MR_LOCAL", "FI_MR_RAW", "FI_MR_VIRT_ADDR",
        "FI_MR_ALLOCATED", "FI_MR_PROV_KEY", "FI_MR_MMU_NOTIFY", "FI_MR_RMA_EVENT", "FI_MR_ENDPOINT", "FI_MR_HMEM",
        "FI_MR_COLLECTIVE" };
    text[0] = 0;
    for (unsigned b = 0; b < sizeof names / sizeof names[0]; b++)
        if (mode & (1 << b)) {
            if (text[0]) strcat(text, "|");
            strcat(text, names[b]);
        }
    return text[0] ? text : "none";
}

static void open_side(struct side *s, const char *provider, size_t cq_size) {
    struct fi_info *hints = fi_allocinfo();
    if (!hints) DIE("fi_allocinfo returned NULL");
    hints->caps = FI_RMA;
    hints->mode = FI_CONTEXT | FI_CONTEXT2;
    hints->ep_attr->type = FI_EP_RDM;
    hints->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY | FI_MR_ENDPOINT;
    hints->fabric_attr->prov_name = strdup(provider);
    int rc = fi_getinfo(FI_VERSION(1, 17), NULL, NULL, 0, hints, &s->info);
    if (rc == -FI_ENODATA) DIE("fi_getinfo: provider %s offers no FI_RMA on FI_EP_RDM with these MR modes", provider);
    CK(rc);
    fi_freeinfo(hints);
    CK(fi_fabric(s->info->fabric_attr, &s->fabric, NULL));
    CK(fi_domain(s->fabric, s->info, &s->domain, NULL));
    struct fi_av_attr av = { .type = FI_AV_TABLE, .count = 1 };
    CK(fi_av_open(s->domain, &av, &s->av, NULL));
    struct fi_cq_attr cq = { .size = cq_size, .format = FI_CQ_FORMAT_CONTEXT, .wait_obj = FI_WAIT_NONE };
    CK(fi_cq_open(s->domain, &cq, &s->cq, NULL));
    CK(fi_endpoint(s->domain, s->info, &s->ep, NULL));
    CK(fi_ep_bind(s->ep, &s->av->fid, 0));
    CK(fi_ep_bind(s->ep, &s->cq->fid, FI_TRANSMIT | FI_RECV));
    CK(fi_enable(s->ep));
    s->namelen = sizeof s->name;
    CK(fi_getname(&s->ep->fid, s->name, &s->namelen));
    printf("# lf-write-floor provider=%s fabric=%s domain=%s mr_mode=%s mode=0x%llx\n", s->info->fabric_attr->prov_name,
           s->info->fabric_attr->name, s->info->domain_attr->name, mr_mode_text(s->info->domain_attr->mr_mode),
           (unsigned long long) s->info->mode);
    fflush(stdout);
}

static void register_buffer(struct side *s, void *buf, size_t len) {
    uint64_t access = FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE | FI_SEND | FI_RECV;
    CK(fi_mr_reg(s->domain, buf, len, access, 0, 1, 0, &s->mr, NULL));
    if (s->info->domain_attr->mr_mode & FI_MR_ENDPOINT) {
        CK(fi_mr_bind(s->mr, &s->ep->fid, 0));
        CK(fi_mr_enable(s->mr));
    }
}

static void *alloc_buffer(size_t len) {
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) DIE("mmap of %zu bytes: %s", len, strerror(errno));
    memset(p, 0, len);
    return p;
}

/* An error entry waits (-FI_EAVAIL): its words, via fi_cq_readerr and fi_cq_strerror. */
static void cq_error(struct fid_cq *cq, const char *what, int fatal) {
    struct fi_cq_err_entry e = { 0 };
    ssize_t rc = fi_cq_readerr(cq, &e, 0);
    if (rc < 0) DIE("%s: fi_cq_readerr: %s (%zd)", what, fi_strerror((int) -rc), -rc);
    const char *prov = fi_cq_strerror(cq, e.prov_errno, e.err_data, NULL, 0);
    fprintf(stderr, "lf-write-floor: %s: an operation completed in error: %s (%d); the provider says: %s (prov_errno %d)\n",
            what, fi_strerror(e.err), e.err, prov ? prov : "nothing", e.prov_errno);
    if (fatal) exit(1);
}

/* Reads the queue until it stays empty for QUIET_NS (at most QUIESCE_MAX_NS), as FabricDomain.close. */
static void quiesce(struct side *s) {
    struct fi_cq_entry entries[CQ_ENTRIES];
    long long start = now_ns(), quiet_since = start;
    for (long long t = start; t - quiet_since < QUIET_NS && t - start < QUIESCE_MAX_NS; t = now_ns()) {
        ssize_t n = fi_cq_read(s->cq, entries, CQ_ENTRIES);
        if (n == -FI_EAVAIL) {
            cq_error(s->cq, "closing", 0);
            n = 1;
        }
        if (n > 0) quiet_since = now_ns();
        else spin_pause();
    }
}

static void close_side(struct side *s) {
    if (s->mr) CK(fi_close(&s->mr->fid));
    CK(fi_close(&s->ep->fid));
    CK(fi_close(&s->av->fid));
    CK(fi_close(&s->cq->fid));
    CK(fi_close(&s->domain->fid));
    CK(fi_close(&s->fabric->fid));
    fi_freeinfo(s->info);
}

/* ---- target ---- */

struct control {
    int fd;
    const unsigned char *buf;
    long long deadline;
    atomic_int stop; /* 1: the initiator said done; 2: it left or the deadline passed */
};

/* The control socket's thread: answers checksums, sets stop on done, on the initiator leaving, or at the deadline. */
static void *control_thread(void *arg) {
    struct control *c = arg;
    for (;;) {
        long long left_ms = (c->deadline - now_ns()) / 1000000;
        struct pollfd p = { .fd = c->fd, .events = POLLIN };
        int r = left_ms > 0 ? poll(&p, 1, (int) (left_ms > 60000 ? 60000 : left_ms)) : 0;
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) DIE("poll of the control socket: %s", strerror(errno));
        if (r == 0) {
            if (now_ns() < c->deadline) continue;
            fprintf(stderr, "lf-write-floor: target: deadline passed without the initiator saying done\n");
            atomic_store(&c->stop, 2);
            return NULL;
        }
        uint64_t be;
        if (get_bytes(c->fd, &be, sizeof be, "a command") != 1) {
            fprintf(stderr, "lf-write-floor: target: the initiator left without saying done\n");
            atomic_store(&c->stop, 2);
            return NULL;
        }
        uint64_t cmd = be64toh(be);
        if (cmd == CMD_DONE) {
            atomic_store(&c->stop, 1);
            return NULL;
        }
        if (cmd != CMD_CHECK) DIE("control socket: unknown command %llu", (unsigned long long) cmd);
        uint64_t size = get_u64(c->fd, "the checked size");
        put_u64(c->fd, fnv1a(c->buf, size), "the checksum");
    }
}

static int run_target(const char *provider, int port, int deadline_s) {
    struct side s = { 0 };
    open_side(&s, provider, 256);

    int lfd = socket(AF_INET6, SOCK_STREAM, 0);
    if (lfd < 0) DIE("socket: %s", strerror(errno));
    int one = 1, zero = 0;
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    setsockopt(lfd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);
    struct sockaddr_in6 a = { .sin6_family = AF_INET6, .sin6_port = htons((uint16_t) port), .sin6_addr = in6addr_any };
    if (bind(lfd, (struct sockaddr *) &a, sizeof a)) DIE("bind of control port %d: %s", port, strerror(errno));
    if (listen(lfd, 1)) DIE("listen: %s", strerror(errno));
    long long deadline = now_ns() + deadline_s * 1000000000LL;
    struct pollfd p = { .fd = lfd, .events = POLLIN };
    int r;
    long long left_ms;
    while ((left_ms = (deadline - now_ns()) / 1000000) > 0 && (r = poll(&p, 1, (int) left_ms)) < 0 && errno == EINTR) ;
    if (left_ms <= 0) r = 0;
    if (r < 0) DIE("poll of the listening socket: %s", strerror(errno));
    if (r == 0) DIE("target: no initiator connected to port %d within %d s", port, deadline_s);
    int fd = accept(lfd, NULL, NULL);
    if (fd < 0) DIE("accept: %s", strerror(errno));
    close(lfd);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    recv_timeout(fd, 10);

    size_t len = get_u64(fd, "the largest size");
    unsigned char *buf = alloc_buffer(len);
    register_buffer(&s, buf, len);
    uint64_t base = (s.info->domain_attr->mr_mode & FI_MR_VIRT_ADDR) ? (uintptr_t) buf : 0;
    put_u64(fd, s.namelen, "the name's length");
    put_bytes(fd, s.name, s.namelen, "the endpoint's name");
    put_u64(fd, fi_mr_key(s.mr), "the MR key");
    put_u64(fd, base, "the remote address");
    recv_timeout(fd, 0); /* the control thread waits with poll until the deadline */

    struct control c = { .fd = fd, .buf = buf, .deadline = deadline };
    atomic_init(&c.stop, 0);
    pthread_t t;
    if ((r = pthread_create(&t, NULL, control_thread, &c))) DIE("pthread_create: %s", strerror(r));

    /* LibfabricTargetPoint.progress: read, pause between empty reads, yield once every 1024. */
    struct fi_cq_entry entries[CQ_ENTRIES];
    unsigned long idle = 0;
    while (!atomic_load_explicit(&c.stop, memory_order_acquire)) {
        ssize_t n = fi_cq_read(s.cq, entries, CQ_ENTRIES);
        if (n == -FI_EAVAIL) {
            cq_error(s.cq, "target", 0); /* the initiator's completion says it; keep progressing */
            n = 1;
        } else if (n < 0 && n != -FI_EAGAIN) {
            DIE("target: fi_cq_read: %s (%zd)", fi_strerror((int) -n), -n);
        }
        if (n <= 0) {
            if ((++idle & YIELD_MASK) == 0) sched_yield();
            else spin_pause();
        }
    }
    pthread_join(t, NULL);
    int stop = atomic_load(&c.stop);
    quiesce(&s);
    if (stop == 1) put_u64(fd, 1, "the goodbye");
    close_side(&s);
    munmap(buf, len);
    close(fd);
    return stop == 1 ? 0 : 1;
}

/* ---- initiator ---- */

static int connect_to(const char *host, int port) {
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res;
    int rc = getaddrinfo(host, service, &hints, &res);
    if (rc) DIE("getaddrinfo(%s): %s", host, gai_strerror(rc));
    long long deadline = now_ns() + 10000000000LL;
    for (;;) {
        for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
            int fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
            if (fd < 0) continue;
            if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) {
                freeaddrinfo(res);
                int one = 1;
                setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                recv_timeout(fd, 10);
                return fd;
            }
            close(fd);
        }
        if (now_ns() > deadline) DIE("no target listening on %s port %d within 10 s: %s", host, port, strerror(errno));
        usleep(50000);
    }
}

struct writer {
    struct fid_ep *ep;
    struct fid_cq *cq;
    struct fi_msg_rma msg;
    struct iovec iov;
    struct fi_rma_iov rma_iov;
    void *desc;
    struct fi_context2 ctx;
    struct fi_cq_entry entries[CQ_ENTRIES];
    size_t size;
    long seq;
};

/* LibfabricDataPath.stalled: the first empty read starts the stall; later ones check it and pause. */
static long long stalled(struct writer *w, long long since) {
    long long t = now_ns();
    if (since == 0) return t;
    if (t - since > STALL_NS)
        DIE("no completion of fi_writemsg #%ld of %zu bytes for %lld s: the target is hung or unreachable", w->seq,
            w->size, STALL_NS / 1000000000LL);
    spin_pause();
    return since;
}

/* Reads what completed; how many entries there were (each should be this write's). */
static int drain(struct writer *w, int *pending) {
    ssize_t n = fi_cq_read(w->cq, w->entries, CQ_ENTRIES);
    if (n == -FI_EAGAIN) return 0;
    if (n == -FI_EAVAIL) cq_error(w->cq, "initiator", 1);
    if (n < 0) DIE("fi_cq_read: %s (%zd)", fi_strerror((int) -n), -n);
    for (ssize_t i = 0; i < n; i++) {
        if (w->entries[i].op_context != &w->ctx) DIE("a completion with a context not ours: %p", w->entries[i].op_context);
        (*pending)--;
    }
    return (int) n;
}

/* One write, stop and wait: LibfabricDataPath.post() then awaitOldest(). */
static inline void write_one(struct writer *w) {
    int pending = 1;
    ssize_t rc;
    long long since = 0;
    while ((rc = fi_writemsg(w->ep, &w->msg, FI_COMPLETION | FI_DELIVERY_COMPLETE)) == -FI_EAGAIN)
        since = drain(w, &pending) > 0 ? 0 : stalled(w, since);
    if (rc < 0) DIE("fi_writemsg #%ld of %zu bytes: %s (%zd)", w->seq, w->size, fi_strerror((int) -rc), -rc);
    since = 0;
    while (pending > 0) since = drain(w, &pending) > 0 ? 0 : stalled(w, since);
    w->seq++;
}

static int run_initiator(const char *provider, const char *sizes_arg, long iters, long warmup, const char *host, int port) {
    size_t sizes[64], nsizes = 0, max = 0;
    char *copy = strdup(sizes_arg), *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (nsizes == sizeof sizes / sizeof sizes[0]) DIE("at most 64 sizes");
        char *end;
        unsigned long long v = strtoull(tok, &end, 10);
        if (*end || v == 0) DIE("-S: '%s' is not a size in bytes", tok);
        sizes[nsizes++] = v;
        if (v > max) max = v;
    }
    free(copy);
    if (nsizes == 0) DIE("-S: no sizes");

    int fd = connect_to(host, port);
    put_u64(fd, max, "the largest size");
    struct side s = { 0 };
    /* LibfabricDataPath.connect: the queue holds ops × depth + ENTRIES (1 × 1 + 64). */
    open_side(&s, provider, 1 + CQ_ENTRIES);
    unsigned char *buf = alloc_buffer(max);
    register_buffer(&s, buf, max);

    size_t namelen = get_u64(fd, "the name's length");
    if (namelen > 256) DIE("the target's name is %zu bytes", namelen);
    char name[256];
    if (get_bytes(fd, name, namelen, "the endpoint's name") != 1) DIE("control socket: no endpoint name");
    uint64_t key = get_u64(fd, "the MR key");
    uint64_t base = get_u64(fd, "the remote address");
    fi_addr_t peer;
    int n = fi_av_insert(s.av, name, 1, &peer, 0, NULL);
    if (n != 1) DIE("fi_av_insert of the target's name: %s", n < 0 ? fi_strerror(-n) : "not inserted");

    struct writer w = { .ep = s.ep, .cq = s.cq, .desc = fi_mr_desc(s.mr) };
    w.iov.iov_base = buf;
    w.rma_iov.addr = base;
    w.rma_iov.key = key;
    w.msg = (struct fi_msg_rma) { .msg_iov = &w.iov, .desc = &w.desc, .iov_count = 1, .addr = peer,
        .rma_iov = &w.rma_iov, .rma_iov_count = 1, .context = &w.ctx };
    printf("# lf-write-floor initiator: %ld warm-up writes, then %ld timed, per size; remote base 0x%llx key 0x%llx\n",
           warmup, iters, (unsigned long long) base, (unsigned long long) key);
    fflush(stdout);

    int bad = 0;
    for (size_t i = 0; i < nsizes; i++) {
        size_t size = sizes[i];
        for (size_t b = 0; b < size; b++) buf[b] = (unsigned char) (b * 131 + size + i);
        w.size = size;
        w.iov.iov_len = size;
        w.rma_iov.len = size;
        w.seq = 0;
        for (long k = 0; k < warmup; k++) write_one(&w);
        long long t0 = now_ns();
        for (long k = 0; k < iters; k++) write_one(&w);
        long long t1 = now_ns();
        put_u64(fd, CMD_CHECK, "a check");
        put_u64(fd, size, "the checked size");
        uint64_t theirs = get_u64(fd, "the checksum"), ours = fnv1a(buf, size);
        if (theirs != ours) {
            fprintf(stderr, "lf-write-floor: %zu bytes: the target's buffer does not hold what was written "
                    "(fnv1a %016llx, written %016llx)\n", size, (unsigned long long) theirs, (unsigned long long) ours);
            bad = 1;
        }
        printf("FLOOR write %zu %.3f %ld%s\n", size, (t1 - t0) / 1e3 / iters, iters, theirs == ours ? "" : " INVALID");
        fflush(stdout);
    }
    quiesce(&s);
    put_u64(fd, CMD_DONE, "done");
    get_u64(fd, "the goodbye");
    close_side(&s);
    munmap(buf, max);
    close(fd);
    return bad;
}

static void usage(void) {
    fprintf(stderr, "usage: lf-write-floor -p PROVIDER -B PORT [-T DEADLINE_S]                       (target)\n"
                    "       lf-write-floor -p PROVIDER -S SIZES -I ITERS [-W WARMUP] -P PORT HOST   (initiator)\n");
    exit(2);
}

int main(int argc, char **argv) {
    const char *provider = NULL, *sizes = NULL;
    int listen_port = 0, port = 0, deadline_s = 600, c;
    long iters = 0, warmup = -1;
    while ((c = getopt(argc, argv, "p:B:P:S:I:W:T:h")) != -1) switch (c) {
        case 'p': provider = optarg; break;
        case 'B': listen_port = atoi(optarg); break;
        case 'P': port = atoi(optarg); break;
        case 'S': sizes = optarg; break;
        case 'I': iters = atol(optarg); break;
        case 'W': warmup = atol(optarg); break;
        case 'T': deadline_s = atoi(optarg); break;
        default: usage();
    }
    if (!provider) usage();
    if (listen_port > 0 && optind == argc) return run_target(provider, listen_port, deadline_s);
    if (port <= 0 || !sizes || iters <= 0 || optind != argc - 1) usage();
    return run_initiator(provider, sizes, iters, warmup >= 0 ? warmup : iters / 10, argv[optind], port);
}
