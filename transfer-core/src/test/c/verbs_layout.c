/*
 * Prints the libibverbs ABI facts the Java bindings (dev.linkproof.transfer.verbs.VerbsAbi) rely on:
 * offsetof/sizeof of every struct field they read or write, and every enum/flag value they pass,
 * one "NAME value" line each, NAME spelled exactly like the Java constant. VerbsAbiTest compiles
 * this against Debian's libibverbs-dev headers and fails on any difference, or on a Java constant
 * this program does not print.
 */
#include <stddef.h>
#include <stdio.h>
#include <poll.h>
#include <infiniband/verbs.h>

#define P(name, value) printf("%s %ld\n", #name, (long)(value))
#define OFF(name, type, field) P(name, offsetof(type, field))
#define SZ(name, type) P(name, sizeof(type))
#define FSZ(name, type, field) P(name, sizeof(((type *)0)->field))

int main(void) {
    /* struct ibv_context: the inline data-path calls go through its embedded ops table */
    SZ(CONTEXT_SIZE, struct ibv_context);
    OFF(CONTEXT_DEVICE, struct ibv_context, device);
    OFF(CONTEXT_OPS, struct ibv_context, ops);
    OFF(CONTEXT_NUM_COMP_VECTORS, struct ibv_context, num_comp_vectors);
    SZ(CONTEXT_OPS_SIZE, struct ibv_context_ops);
    OFF(OPS_POLL_CQ, struct ibv_context_ops, poll_cq);
    OFF(OPS_REQ_NOTIFY_CQ, struct ibv_context_ops, req_notify_cq);
    OFF(OPS_POST_SEND, struct ibv_context_ops, post_send);
    OFF(OPS_POST_RECV, struct ibv_context_ops, post_recv);

    /* struct ibv_device_attr (ibv_query_device) */
    SZ(DEVICE_ATTR_SIZE, struct ibv_device_attr);
    OFF(DEVICE_ATTR_FW_VER, struct ibv_device_attr, fw_ver);
    FSZ(DEVICE_ATTR_FW_VER_BYTES, struct ibv_device_attr, fw_ver);
    OFF(DEVICE_ATTR_MAX_MR_SIZE, struct ibv_device_attr, max_mr_size);
    OFF(DEVICE_ATTR_VENDOR_PART_ID, struct ibv_device_attr, vendor_part_id);
    OFF(DEVICE_ATTR_MAX_QP, struct ibv_device_attr, max_qp);
    OFF(DEVICE_ATTR_MAX_QP_WR, struct ibv_device_attr, max_qp_wr);
    OFF(DEVICE_ATTR_MAX_SGE, struct ibv_device_attr, max_sge);
    OFF(DEVICE_ATTR_MAX_CQE, struct ibv_device_attr, max_cqe);
    OFF(DEVICE_ATTR_MAX_QP_RD_ATOM, struct ibv_device_attr, max_qp_rd_atom);
    OFF(DEVICE_ATTR_MAX_QP_INIT_RD_ATOM, struct ibv_device_attr, max_qp_init_rd_atom);
    OFF(DEVICE_ATTR_PHYS_PORT_CNT, struct ibv_device_attr, phys_port_cnt);
    OFF(DEVICE_ATTR_ATOMIC_CAP, struct ibv_device_attr, atomic_cap);

    /* struct ibv_port_attr: the exported compat ibv_query_port fills only the older, shorter
       prefix (_compat_ibv_port_attr), so the bindings zero the whole struct first, as the inline
       ___ibv_query_port does, and read fields of that prefix only */
    SZ(PORT_ATTR_SIZE, struct ibv_port_attr);
    OFF(PORT_ATTR_STATE, struct ibv_port_attr, state);
    OFF(PORT_ATTR_MAX_MTU, struct ibv_port_attr, max_mtu);
    OFF(PORT_ATTR_ACTIVE_MTU, struct ibv_port_attr, active_mtu);
    OFF(PORT_ATTR_GID_TBL_LEN, struct ibv_port_attr, gid_tbl_len);
    OFF(PORT_ATTR_MAX_MSG_SZ, struct ibv_port_attr, max_msg_sz);
    OFF(PORT_ATTR_LID, struct ibv_port_attr, lid);
    OFF(PORT_ATTR_LINK_LAYER, struct ibv_port_attr, link_layer);
    SZ(GID_SIZE, union ibv_gid);

    /* struct ibv_mr, ibv_comp_channel, ibv_qp */
    OFF(MR_ADDR, struct ibv_mr, addr);
    OFF(MR_LENGTH, struct ibv_mr, length);
    OFF(MR_LKEY, struct ibv_mr, lkey);
    OFF(MR_RKEY, struct ibv_mr, rkey);
    OFF(COMP_CHANNEL_FD, struct ibv_comp_channel, fd);
    OFF(QP_QP_NUM, struct ibv_qp, qp_num);
    OFF(QP_STATE, struct ibv_qp, state);

    /* struct ibv_qp_init_attr / ibv_qp_cap (ibv_create_qp writes the granted caps back) */
    SZ(QP_INIT_ATTR_SIZE, struct ibv_qp_init_attr);
    OFF(QP_INIT_ATTR_QP_CONTEXT, struct ibv_qp_init_attr, qp_context);
    OFF(QP_INIT_ATTR_SEND_CQ, struct ibv_qp_init_attr, send_cq);
    OFF(QP_INIT_ATTR_RECV_CQ, struct ibv_qp_init_attr, recv_cq);
    OFF(QP_INIT_ATTR_SRQ, struct ibv_qp_init_attr, srq);
    OFF(QP_INIT_ATTR_CAP, struct ibv_qp_init_attr, cap);
    OFF(QP_INIT_ATTR_QP_TYPE, struct ibv_qp_init_attr, qp_type);
    OFF(QP_INIT_ATTR_SQ_SIG_ALL, struct ibv_qp_init_attr, sq_sig_all);
    OFF(QP_CAP_MAX_SEND_WR, struct ibv_qp_cap, max_send_wr);
    OFF(QP_CAP_MAX_RECV_WR, struct ibv_qp_cap, max_recv_wr);
    OFF(QP_CAP_MAX_SEND_SGE, struct ibv_qp_cap, max_send_sge);
    OFF(QP_CAP_MAX_RECV_SGE, struct ibv_qp_cap, max_recv_sge);
    OFF(QP_CAP_MAX_INLINE_DATA, struct ibv_qp_cap, max_inline_data);

    /* struct ibv_qp_attr and its address vector (ibv_modify_qp INIT -> RTR -> RTS) */
    SZ(QP_ATTR_SIZE, struct ibv_qp_attr);
    OFF(QP_ATTR_QP_STATE, struct ibv_qp_attr, qp_state);
    OFF(QP_ATTR_PATH_MTU, struct ibv_qp_attr, path_mtu);
    OFF(QP_ATTR_RQ_PSN, struct ibv_qp_attr, rq_psn);
    OFF(QP_ATTR_SQ_PSN, struct ibv_qp_attr, sq_psn);
    OFF(QP_ATTR_DEST_QP_NUM, struct ibv_qp_attr, dest_qp_num);
    OFF(QP_ATTR_QP_ACCESS_FLAGS, struct ibv_qp_attr, qp_access_flags);
    OFF(QP_ATTR_AH_ATTR, struct ibv_qp_attr, ah_attr);
    OFF(QP_ATTR_PKEY_INDEX, struct ibv_qp_attr, pkey_index);
    OFF(QP_ATTR_MAX_RD_ATOMIC, struct ibv_qp_attr, max_rd_atomic);
    OFF(QP_ATTR_MAX_DEST_RD_ATOMIC, struct ibv_qp_attr, max_dest_rd_atomic);
    OFF(QP_ATTR_MIN_RNR_TIMER, struct ibv_qp_attr, min_rnr_timer);
    OFF(QP_ATTR_PORT_NUM, struct ibv_qp_attr, port_num);
    OFF(QP_ATTR_TIMEOUT, struct ibv_qp_attr, timeout);
    OFF(QP_ATTR_RETRY_CNT, struct ibv_qp_attr, retry_cnt);
    OFF(QP_ATTR_RNR_RETRY, struct ibv_qp_attr, rnr_retry);
    OFF(AH_ATTR_GRH, struct ibv_ah_attr, grh);
    OFF(AH_ATTR_DLID, struct ibv_ah_attr, dlid);
    OFF(AH_ATTR_SL, struct ibv_ah_attr, sl);
    OFF(AH_ATTR_IS_GLOBAL, struct ibv_ah_attr, is_global);
    OFF(AH_ATTR_PORT_NUM, struct ibv_ah_attr, port_num);
    OFF(GRH_DGID, struct ibv_global_route, dgid);
    OFF(GRH_FLOW_LABEL, struct ibv_global_route, flow_label);
    OFF(GRH_SGID_INDEX, struct ibv_global_route, sgid_index);
    OFF(GRH_HOP_LIMIT, struct ibv_global_route, hop_limit);
    OFF(GRH_TRAFFIC_CLASS, struct ibv_global_route, traffic_class);

    /* work requests, scatter/gather entries, completions: pre-built in native memory */
    SZ(SGE_SIZE, struct ibv_sge);
    OFF(SGE_ADDR, struct ibv_sge, addr);
    OFF(SGE_LENGTH, struct ibv_sge, length);
    OFF(SGE_LKEY, struct ibv_sge, lkey);
    SZ(SEND_WR_SIZE, struct ibv_send_wr);
    OFF(SEND_WR_WR_ID, struct ibv_send_wr, wr_id);
    OFF(SEND_WR_NEXT, struct ibv_send_wr, next);
    OFF(SEND_WR_SG_LIST, struct ibv_send_wr, sg_list);
    OFF(SEND_WR_NUM_SGE, struct ibv_send_wr, num_sge);
    OFF(SEND_WR_OPCODE, struct ibv_send_wr, opcode);
    OFF(SEND_WR_SEND_FLAGS, struct ibv_send_wr, send_flags);
    OFF(SEND_WR_IMM_DATA, struct ibv_send_wr, imm_data);
    OFF(SEND_WR_RDMA_REMOTE_ADDR, struct ibv_send_wr, wr.rdma.remote_addr);
    OFF(SEND_WR_RDMA_RKEY, struct ibv_send_wr, wr.rdma.rkey);
    OFF(SEND_WR_ATOMIC_REMOTE_ADDR, struct ibv_send_wr, wr.atomic.remote_addr);
    OFF(SEND_WR_ATOMIC_COMPARE_ADD, struct ibv_send_wr, wr.atomic.compare_add);
    OFF(SEND_WR_ATOMIC_SWAP, struct ibv_send_wr, wr.atomic.swap);
    OFF(SEND_WR_ATOMIC_RKEY, struct ibv_send_wr, wr.atomic.rkey);
    SZ(RECV_WR_SIZE, struct ibv_recv_wr);
    OFF(RECV_WR_WR_ID, struct ibv_recv_wr, wr_id);
    OFF(RECV_WR_NEXT, struct ibv_recv_wr, next);
    OFF(RECV_WR_SG_LIST, struct ibv_recv_wr, sg_list);
    OFF(RECV_WR_NUM_SGE, struct ibv_recv_wr, num_sge);
    SZ(WC_SIZE, struct ibv_wc);
    OFF(WC_WR_ID, struct ibv_wc, wr_id);
    OFF(WC_STATUS, struct ibv_wc, status);
    OFF(WC_OPCODE, struct ibv_wc, opcode);
    OFF(WC_VENDOR_ERR, struct ibv_wc, vendor_err);
    OFF(WC_BYTE_LEN, struct ibv_wc, byte_len);
    OFF(WC_IMM_DATA, struct ibv_wc, imm_data);
    OFF(WC_QP_NUM, struct ibv_wc, qp_num);
    OFF(WC_WC_FLAGS, struct ibv_wc, wc_flags);

    /* enums and flags */
    P(WR_RDMA_WRITE, IBV_WR_RDMA_WRITE);
    P(WR_RDMA_WRITE_WITH_IMM, IBV_WR_RDMA_WRITE_WITH_IMM);
    P(WR_SEND, IBV_WR_SEND);
    P(WR_RDMA_READ, IBV_WR_RDMA_READ);
    P(WR_ATOMIC_CMP_AND_SWP, IBV_WR_ATOMIC_CMP_AND_SWP);
    P(WR_ATOMIC_FETCH_AND_ADD, IBV_WR_ATOMIC_FETCH_AND_ADD);
    P(ATOMIC_NONE, IBV_ATOMIC_NONE);
    P(SEND_SIGNALED, IBV_SEND_SIGNALED);
    P(SEND_INLINE, IBV_SEND_INLINE);
    P(QPS_RESET, IBV_QPS_RESET);
    P(QPS_INIT, IBV_QPS_INIT);
    P(QPS_RTR, IBV_QPS_RTR);
    P(QPS_RTS, IBV_QPS_RTS);
    P(QPS_ERR, IBV_QPS_ERR);
    P(QPT_RC, IBV_QPT_RC);
    P(ACCESS_LOCAL_WRITE, IBV_ACCESS_LOCAL_WRITE);
    P(ACCESS_REMOTE_WRITE, IBV_ACCESS_REMOTE_WRITE);
    P(ACCESS_REMOTE_READ, IBV_ACCESS_REMOTE_READ);
    P(ACCESS_REMOTE_ATOMIC, IBV_ACCESS_REMOTE_ATOMIC);
    P(QP_ATTR_MASK_STATE, IBV_QP_STATE);
    P(QP_ATTR_MASK_ACCESS_FLAGS, IBV_QP_ACCESS_FLAGS);
    P(QP_ATTR_MASK_PKEY_INDEX, IBV_QP_PKEY_INDEX);
    P(QP_ATTR_MASK_PORT, IBV_QP_PORT);
    P(QP_ATTR_MASK_AV, IBV_QP_AV);
    P(QP_ATTR_MASK_PATH_MTU, IBV_QP_PATH_MTU);
    P(QP_ATTR_MASK_TIMEOUT, IBV_QP_TIMEOUT);
    P(QP_ATTR_MASK_RETRY_CNT, IBV_QP_RETRY_CNT);
    P(QP_ATTR_MASK_RNR_RETRY, IBV_QP_RNR_RETRY);
    P(QP_ATTR_MASK_RQ_PSN, IBV_QP_RQ_PSN);
    P(QP_ATTR_MASK_MAX_QP_RD_ATOMIC, IBV_QP_MAX_QP_RD_ATOMIC);
    P(QP_ATTR_MASK_MIN_RNR_TIMER, IBV_QP_MIN_RNR_TIMER);
    P(QP_ATTR_MASK_SQ_PSN, IBV_QP_SQ_PSN);
    P(QP_ATTR_MASK_MAX_DEST_RD_ATOMIC, IBV_QP_MAX_DEST_RD_ATOMIC);
    P(QP_ATTR_MASK_DEST_QPN, IBV_QP_DEST_QPN);
    P(MTU_256, IBV_MTU_256);
    P(MTU_4096, IBV_MTU_4096);
    P(PORT_ACTIVE, IBV_PORT_ACTIVE);
    P(LINK_LAYER_INFINIBAND, IBV_LINK_LAYER_INFINIBAND);
    P(LINK_LAYER_ETHERNET, IBV_LINK_LAYER_ETHERNET);
    P(WC_SUCCESS, IBV_WC_SUCCESS);
    P(WC_RETRY_EXC_ERR, IBV_WC_RETRY_EXC_ERR);
    P(WC_RNR_RETRY_EXC_ERR, IBV_WC_RNR_RETRY_EXC_ERR);
    P(WC_OPCODE_RECV, IBV_WC_RECV);
    P(WC_OPCODE_RECV_RDMA_WITH_IMM, IBV_WC_RECV_RDMA_WITH_IMM);
    P(WC_FLAG_WITH_IMM, IBV_WC_WITH_IMM);

    /* libc poll(2), which bounds the wait on a completion channel's fd */
    SZ(POLLFD_SIZE, struct pollfd);
    OFF(POLLFD_FD, struct pollfd, fd);
    OFF(POLLFD_EVENTS, struct pollfd, events);
    OFF(POLLFD_REVENTS, struct pollfd, revents);
    P(POLLIN, POLLIN);
    return 0;
}
