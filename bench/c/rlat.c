/* Stop-and-wait RDMA READ (or WRITE, -W) latency in C with the QP and MR attributes Linkproof's verbs
 * transport uses (QpSet, VerbsDevice: access flags, CQ of send WRs + 16, one send WR, 220 B inline
 * asked, max_rd_atomic = the device's, min_rnr_timer 1, timeout 14, retry 7/7, GRH hop limit 64), so
 * bench/verbs-read-latency.sh can tell "our attributes" from "our process" against ib_read_lat.
 * Two contexts (initiator, target) in one process, one RC QP each, connected to each other; the
 * initiator posts one signaled WR, polls its CQ (16 per call, as verbs.cqBatch), repeats; each
 * sample is clock_gettime before the post to after the completion, as our loop times it.
 * -c CQ entries, -t send WRs, -i inline asked, -o rd_atomic, -r min_rnr_timer, -a remote-atomic
 * access (perftest's), -T N: walk N extra pages per sample (a larger working set), -g GID index.
 * The output line gives, beside the latencies, this process's (one thread) user and system CPU per sample over the
 * timed samples (getrusage): on rxe the READ runs in the kernel, inside post_send. */
#include <infiniband/verbs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <getopt.h>

static double now_us(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }
static int cmp(const void *a, const void *b) { double x = *(double *) a, y = *(double *) b; return x < y ? -1 : x > y; }
#define DIE(...) do { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); exit(1); } while (0)

struct side { struct ibv_context *ctx; struct ibv_pd *pd; struct ibv_mr *mr; struct ibv_cq *cq; struct ibv_qp *qp; char *buf; union ibv_gid gid; };
static int gidx = 1, cqe = 17, sendwr = 1, inl = 220, rd = 0, access_atomic = 0, rnr = 1, touch = 0;
static long bufbytes = 4096;

static void setup(struct side *s, struct ibv_device *dev) {
    s->ctx = ibv_open_device(dev); if (!s->ctx) DIE("open");
    s->pd = ibv_alloc_pd(s->ctx);
    s->buf = mmap(NULL, bufbytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    memset(s->buf, 1, bufbytes);
    int acc = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | (access_atomic ? IBV_ACCESS_REMOTE_ATOMIC : 0);
    s->mr = ibv_reg_mr(s->pd, s->buf, bufbytes, acc); if (!s->mr) DIE("reg_mr");
    s->cq = ibv_create_cq(s->ctx, cqe, NULL, NULL, 0); if (!s->cq) DIE("cq");
    struct ibv_qp_init_attr ia = { .send_cq = s->cq, .recv_cq = s->cq, .qp_type = IBV_QPT_RC,
        .cap = { .max_send_wr = sendwr, .max_recv_wr = 1, .max_send_sge = 1, .max_recv_sge = 1, .max_inline_data = inl } };
    s->qp = ibv_create_qp(s->pd, &ia); if (!s->qp) DIE("qp");
    struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .pkey_index = 0, .port_num = 1, .qp_access_flags = acc };
    if (ibv_modify_qp(s->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS)) DIE("init");
    ibv_query_gid(s->ctx, 1, gidx, &s->gid);
}
static void connect_to(struct side *s, struct side *peer, int mtu, int rdat) {
    struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTR, .path_mtu = mtu, .dest_qp_num = peer->qp->qp_num, .rq_psn = 0,
        .max_dest_rd_atomic = rdat, .min_rnr_timer = rnr,
        .ah_attr = { .is_global = 1, .port_num = 1, .grh = { .dgid = peer->gid, .sgid_index = gidx, .hop_limit = 64 } } };
    if (ibv_modify_qp(s->qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN
            | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER)) DIE("rtr");
    struct ibv_qp_attr b = { .qp_state = IBV_QPS_RTS, .sq_psn = 0, .timeout = 14, .retry_cnt = 7, .rnr_retry = 7, .max_rd_atomic = rdat };
    if (ibv_modify_qp(s->qp, &b, IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY
            | IBV_QP_MAX_QP_RD_ATOMIC)) DIE("rts");
}
int main(int argc, char **argv) {
    int n = 8000, w = 1000, size = 8, c, op = IBV_WR_RDMA_READ;
    while ((c = getopt(argc, argv, "n:w:s:b:c:t:i:o:g:ar:T:W")) != -1) switch (c) {
        case 'n': n = atoi(optarg); break; case 'w': w = atoi(optarg); break; case 's': size = atoi(optarg); break;
        case 'b': bufbytes = atol(optarg); break; case 'c': cqe = atoi(optarg); break; case 't': sendwr = atoi(optarg); break;
        case 'i': inl = atoi(optarg); break; case 'o': rd = atoi(optarg); break; case 'g': gidx = atoi(optarg); break;
        case 'a': access_atomic = 1; break; case 'r': rnr = atoi(optarg); break; case 'T': touch = atoi(optarg); break;
        case 'W': op = IBV_WR_RDMA_WRITE; break; }
    struct ibv_device **l = ibv_get_device_list(NULL); if (!l || !l[0]) DIE("no device");
    struct side I = {0}, T = {0};
    setup(&I, l[0]); setup(&T, l[0]);
    struct ibv_device_attr da; ibv_query_device(I.ctx, &da); struct ibv_port_attr pa; ibv_query_port(I.ctx, 1, &pa);
    int rdat = rd ? rd : da.max_qp_rd_atom;
    connect_to(&I, &T, pa.active_mtu, rdat); connect_to(&T, &I, pa.active_mtu, rdat);
    struct ibv_sge sge = { .addr = (uintptr_t) I.buf, .length = size, .lkey = I.mr->lkey };
    struct ibv_send_wr wr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1, .opcode = op, .send_flags = IBV_SEND_SIGNALED,
        .wr.rdma = { .remote_addr = (uintptr_t) T.buf, .rkey = T.mr->rkey } }, *bad;
    struct ibv_wc wc[16];
    double *lat = malloc(sizeof(double) * n);
    /* touch: pages of an extra working set walked every iteration, to mimic a larger process footprint */
    char *ws = touch ? mmap(NULL, (size_t) touch * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0) : NULL;
    volatile long sink = 0;
    struct rusage ru0, ru1;
    for (int it = -w; it < n; it++) {
        if (it == 0) getrusage(RUSAGE_SELF, &ru0);
        double t0 = now_us();
        if (ibv_post_send(I.qp, &wr, &bad)) DIE("post");
        int got;
        while ((got = ibv_poll_cq(I.cq, 16, wc)) == 0) ;
        if (got < 0 || wc[0].status != IBV_WC_SUCCESS) DIE("wc %d %d", got, got > 0 ? wc[0].status : 0);
        double t1 = now_us();
        for (int p = 0; p < touch; p++) sink += ws[(size_t) p * 4096 + (it & 63) * 8]++;
        if (it >= 0) lat[it] = t1 - t0;
    }
    getrusage(RUSAGE_SELF, &ru1);
    double user = ((ru1.ru_utime.tv_sec - ru0.ru_utime.tv_sec) * 1e6 + (ru1.ru_utime.tv_usec - ru0.ru_utime.tv_usec)) / n;
    double sys = ((ru1.ru_stime.tv_sec - ru0.ru_stime.tv_sec) * 1e6 + (ru1.ru_stime.tv_usec - ru0.ru_stime.tv_usec)) / n;
    qsort(lat, n, sizeof(double), cmp);
    double sum = 0; for (int i = 0; i < n; i++) sum += lat[i];
    printf("c-lat op=%s size=%d n=%d buf=%ld cqe=%d sendwr=%d inline=%d rd=%d touch=%d p50_us=%.2f avg_us=%.2f p99_us=%.2f user_us=%.2f sys_us=%.2f\n",
           op == IBV_WR_RDMA_READ ? "read" : "write", size, n, bufbytes, cqe, sendwr, inl, rdat, touch, lat[n / 2], sum / n, lat[n * 99 / 100], user, sys);
    return 0;
}
