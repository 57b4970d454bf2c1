package dev.linkproof.transfer.verbs;

/**
 * The libibverbs ABI the bindings rely on (rdma-core, x86_64/aarch64 LP64): offsets and sizes of the
 * struct fields they touch, and the enum and flag values they pass. {@code VerbsAbiTest} compares
 * every constant with what {@code src/test/c/verbs_layout.c} prints, compiled against the real
 * {@code <infiniband/verbs.h>}, so add a constant only together with its line there. Plain
 * {@code long} offsets rather than {@code StructLayout}s: the bindings touch a few fields of large
 * structs ({@code ibv_qp_attr} is 144 bytes with nested unions), and offsets read like the header.
 */
public final class VerbsAbi {
    // struct ibv_context: the inline data-path calls (post_send, poll_cq, ...) go through its embedded ops table
    public static final long CONTEXT_SIZE = 328;
    public static final long CONTEXT_DEVICE = 0;
    public static final long CONTEXT_OPS = 8;
    public static final long CONTEXT_NUM_COMP_VECTORS = 272;
    public static final long CONTEXT_OPS_SIZE = 256;
    public static final long OPS_POLL_CQ = 88;
    public static final long OPS_REQ_NOTIFY_CQ = 96;
    public static final long OPS_POST_SEND = 200;
    public static final long OPS_POST_RECV = 208;

    // struct ibv_device_attr (ibv_query_device)
    public static final long DEVICE_ATTR_SIZE = 232;
    public static final long DEVICE_ATTR_FW_VER = 0;
    public static final long DEVICE_ATTR_FW_VER_BYTES = 64;
    public static final long DEVICE_ATTR_MAX_MR_SIZE = 80;
    public static final long DEVICE_ATTR_VENDOR_PART_ID = 100;
    public static final long DEVICE_ATTR_MAX_QP = 108;
    public static final long DEVICE_ATTR_MAX_QP_WR = 112;
    public static final long DEVICE_ATTR_MAX_SGE = 120;
    public static final long DEVICE_ATTR_MAX_CQE = 132;
    public static final long DEVICE_ATTR_MAX_QP_RD_ATOM = 144;
    public static final long DEVICE_ATTR_MAX_QP_INIT_RD_ATOM = 156;
    public static final long DEVICE_ATTR_PHYS_PORT_CNT = 227;
    /** enum ibv_atomic_cap: IBV_ATOMIC_NONE (0), IBV_ATOMIC_HCA, IBV_ATOMIC_GLOB. */
    public static final long DEVICE_ATTR_ATOMIC_CAP = 164;

    public static final long ATOMIC_NONE = 0;

    // struct ibv_port_attr: the exported compat ibv_query_port fills only the older, shorter prefix
    // (_compat_ibv_port_attr); zero PORT_ATTR_SIZE bytes first, read only fields of that prefix
    public static final long PORT_ATTR_SIZE = 52;
    public static final long PORT_ATTR_STATE = 0;
    public static final long PORT_ATTR_MAX_MTU = 4;
    public static final long PORT_ATTR_ACTIVE_MTU = 8;
    public static final long PORT_ATTR_GID_TBL_LEN = 12;
    public static final long PORT_ATTR_MAX_MSG_SZ = 20;
    public static final long PORT_ATTR_LID = 34;
    public static final long PORT_ATTR_LINK_LAYER = 46;
    public static final long GID_SIZE = 16;

    // struct ibv_mr, ibv_comp_channel, ibv_qp
    public static final long MR_ADDR = 16;
    public static final long MR_LENGTH = 24;
    public static final long MR_LKEY = 36;
    public static final long MR_RKEY = 40;
    public static final long COMP_CHANNEL_FD = 8;
    public static final long QP_QP_NUM = 52;
    public static final long QP_STATE = 56;

    // struct ibv_qp_init_attr and ibv_qp_cap (ibv_create_qp writes the granted caps back)
    public static final long QP_INIT_ATTR_SIZE = 64;
    public static final long QP_INIT_ATTR_QP_CONTEXT = 0;
    public static final long QP_INIT_ATTR_SEND_CQ = 8;
    public static final long QP_INIT_ATTR_RECV_CQ = 16;
    public static final long QP_INIT_ATTR_SRQ = 24;
    public static final long QP_INIT_ATTR_CAP = 32;
    public static final long QP_INIT_ATTR_QP_TYPE = 52;
    public static final long QP_INIT_ATTR_SQ_SIG_ALL = 56;
    public static final long QP_CAP_MAX_SEND_WR = 0;
    public static final long QP_CAP_MAX_RECV_WR = 4;
    public static final long QP_CAP_MAX_SEND_SGE = 8;
    public static final long QP_CAP_MAX_RECV_SGE = 12;
    public static final long QP_CAP_MAX_INLINE_DATA = 16;

    // struct ibv_qp_attr, ibv_ah_attr, ibv_global_route (ibv_modify_qp INIT -> RTR -> RTS)
    public static final long QP_ATTR_SIZE = 144;
    public static final long QP_ATTR_QP_STATE = 0;
    public static final long QP_ATTR_PATH_MTU = 8;
    public static final long QP_ATTR_RQ_PSN = 20;
    public static final long QP_ATTR_SQ_PSN = 24;
    public static final long QP_ATTR_DEST_QP_NUM = 28;
    public static final long QP_ATTR_QP_ACCESS_FLAGS = 32;
    public static final long QP_ATTR_AH_ATTR = 56;
    public static final long QP_ATTR_PKEY_INDEX = 120;
    public static final long QP_ATTR_MAX_RD_ATOMIC = 126;
    public static final long QP_ATTR_MAX_DEST_RD_ATOMIC = 127;
    public static final long QP_ATTR_MIN_RNR_TIMER = 128;
    public static final long QP_ATTR_PORT_NUM = 129;
    public static final long QP_ATTR_TIMEOUT = 130;
    public static final long QP_ATTR_RETRY_CNT = 131;
    public static final long QP_ATTR_RNR_RETRY = 132;
    public static final long AH_ATTR_GRH = 0;
    public static final long AH_ATTR_DLID = 24;
    public static final long AH_ATTR_SL = 26;
    public static final long AH_ATTR_IS_GLOBAL = 29;
    public static final long AH_ATTR_PORT_NUM = 30;
    public static final long GRH_DGID = 0;
    public static final long GRH_FLOW_LABEL = 16;
    public static final long GRH_SGID_INDEX = 20;
    public static final long GRH_HOP_LIMIT = 21;
    public static final long GRH_TRAFFIC_CLASS = 22;

    // work requests, scatter/gather entries and completions, pre-built in native memory
    public static final long SGE_SIZE = 16;
    public static final long SGE_ADDR = 0;
    public static final long SGE_LENGTH = 8;
    public static final long SGE_LKEY = 12;
    public static final long SEND_WR_SIZE = 128;
    public static final long SEND_WR_WR_ID = 0;
    public static final long SEND_WR_NEXT = 8;
    public static final long SEND_WR_SG_LIST = 16;
    public static final long SEND_WR_NUM_SGE = 24;
    public static final long SEND_WR_OPCODE = 28;
    public static final long SEND_WR_SEND_FLAGS = 32;
    public static final long SEND_WR_IMM_DATA = 36;
    public static final long SEND_WR_RDMA_REMOTE_ADDR = 40;
    public static final long SEND_WR_RDMA_RKEY = 48;
    /** wr.atomic of the union: remote_addr, compare_add (the addend, or the compare value), swap, rkey. */
    public static final long SEND_WR_ATOMIC_REMOTE_ADDR = 40;

    public static final long SEND_WR_ATOMIC_COMPARE_ADD = 48;
    public static final long SEND_WR_ATOMIC_SWAP = 56;
    public static final long SEND_WR_ATOMIC_RKEY = 64;
    public static final long RECV_WR_SIZE = 32;
    public static final long RECV_WR_WR_ID = 0;
    public static final long RECV_WR_NEXT = 8;
    public static final long RECV_WR_SG_LIST = 16;
    public static final long RECV_WR_NUM_SGE = 24;
    public static final long WC_SIZE = 48;
    public static final long WC_WR_ID = 0;
    public static final long WC_STATUS = 8;
    public static final long WC_OPCODE = 12;
    public static final long WC_VENDOR_ERR = 16;
    public static final long WC_BYTE_LEN = 20;
    public static final long WC_IMM_DATA = 24;
    public static final long WC_QP_NUM = 28;
    public static final long WC_WC_FLAGS = 36;

    // enum ibv_wr_opcode, ibv_send_flags, ibv_qp_state, ibv_qp_type, ibv_access_flags, ibv_qp_attr_mask,
    // ibv_mtu, ibv_port_state, link layer, ibv_wc_status, ibv_wc_opcode, ibv_wc_flags
    public static final long WR_RDMA_WRITE = 0;
    public static final long WR_RDMA_WRITE_WITH_IMM = 1;
    public static final long WR_SEND = 2;
    public static final long WR_RDMA_READ = 4;
    public static final long WR_ATOMIC_CMP_AND_SWP = 5;
    public static final long WR_ATOMIC_FETCH_AND_ADD = 6;
    public static final long SEND_SIGNALED = 2;
    public static final long SEND_INLINE = 8;
    public static final long QPS_RESET = 0;
    public static final long QPS_INIT = 1;
    public static final long QPS_RTR = 2;
    public static final long QPS_RTS = 3;
    public static final long QPS_ERR = 6;
    public static final long QPT_RC = 2;
    public static final long ACCESS_LOCAL_WRITE = 1;
    public static final long ACCESS_REMOTE_WRITE = 2;
    public static final long ACCESS_REMOTE_READ = 4;
    public static final long ACCESS_REMOTE_ATOMIC = 8;
    public static final long QP_ATTR_MASK_STATE = 1;
    public static final long QP_ATTR_MASK_ACCESS_FLAGS = 8;
    public static final long QP_ATTR_MASK_PKEY_INDEX = 16;
    public static final long QP_ATTR_MASK_PORT = 32;
    public static final long QP_ATTR_MASK_AV = 128;
    public static final long QP_ATTR_MASK_PATH_MTU = 256;
    public static final long QP_ATTR_MASK_TIMEOUT = 512;
    public static final long QP_ATTR_MASK_RETRY_CNT = 1024;
    public static final long QP_ATTR_MASK_RNR_RETRY = 2048;
    public static final long QP_ATTR_MASK_RQ_PSN = 4096;
    public static final long QP_ATTR_MASK_MAX_QP_RD_ATOMIC = 8192;
    public static final long QP_ATTR_MASK_MIN_RNR_TIMER = 32768;
    public static final long QP_ATTR_MASK_SQ_PSN = 65536;
    public static final long QP_ATTR_MASK_MAX_DEST_RD_ATOMIC = 131072;
    public static final long QP_ATTR_MASK_DEST_QPN = 1048576;
    public static final long MTU_256 = 1;
    public static final long MTU_4096 = 5;
    public static final long PORT_ACTIVE = 4;
    public static final long LINK_LAYER_INFINIBAND = 1;
    public static final long LINK_LAYER_ETHERNET = 2;
    public static final long WC_SUCCESS = 0;
    public static final long WC_RETRY_EXC_ERR = 12;
    public static final long WC_RNR_RETRY_EXC_ERR = 13;
    public static final long WC_OPCODE_RECV = 128;
    public static final long WC_OPCODE_RECV_RDMA_WITH_IMM = 129;
    public static final long WC_FLAG_WITH_IMM = 2;

    // libc struct pollfd and POLLIN: poll(2) bounds every wait on a completion channel's fd
    public static final long POLLFD_SIZE = 8;
    public static final long POLLFD_FD = 0;
    public static final long POLLFD_EVENTS = 4;
    public static final long POLLFD_REVENTS = 6;
    public static final long POLLIN = 1;

    private VerbsAbi() {}
}
