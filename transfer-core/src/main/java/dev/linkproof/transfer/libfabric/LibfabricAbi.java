package dev.linkproof.transfer.libfabric;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.UnionLayout;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every structure layout, operation-table offset and constant of libfabric's API 1.17 that the bindings
 * use, whole (every member, named as in C), so {@link #layoutFacts()} lists each member's offset for
 * {@code LibfabricLayoutTest} to compare with a C program compiled against the headers. Why 1.17:
 * {@code struct fi_info}'s layouts are those of the version passed to {@code fi_getinfo} ({@link #API_VERSION});
 * the library keeps older ones behind older symbol versions, and {@link Libfabric} binds this one's.
 * Longer than 400 lines because it is that one table, kept whole so that the test checks it in one place.
 */
public final class LibfabricAbi {
    private LibfabricAbi() {}

    /** FI_VERSION(1, 17): the API these layouts are. */
    public static final int API_MAJOR = 1;

    public static final int API_MINOR = 17;
    public static final int API_VERSION = API_MAJOR << 16 | API_MINOR;

    // caps (fabric.h)
    public static final long FI_MSG = 1L << 1;
    public static final long FI_RMA = 1L << 2;
    public static final long FI_ATOMIC = 1L << 4;
    public static final long FI_READ = 1L << 8;
    public static final long FI_WRITE = 1L << 9;
    public static final long FI_RECV = 1L << 10;
    public static final long FI_SEND = 1L << 11;
    public static final long FI_TRANSMIT = FI_SEND;
    public static final long FI_REMOTE_READ = 1L << 12;
    public static final long FI_REMOTE_WRITE = 1L << 13;
    public static final long FI_COMPLETION = 1L << 24;
    public static final long FI_DELIVERY_COMPLETE = 1L << 28;
    public static final long FI_HMEM = 1L << 47;
    public static final long FI_ORDER_SAS = 1L << 8;
    // mode bits
    public static final long FI_CONTEXT = 1L << 59;
    public static final long FI_CONTEXT2 = 1L << 52;
    public static final long FI_RX_CQ_DATA = 1L << 56;
    // mr_mode bits
    public static final int FI_MR_LOCAL = 1 << 2;
    public static final int FI_MR_RAW = 1 << 3;
    public static final int FI_MR_VIRT_ADDR = 1 << 4;
    public static final int FI_MR_ALLOCATED = 1 << 5;
    public static final int FI_MR_PROV_KEY = 1 << 6;
    public static final int FI_MR_MMU_NOTIFY = 1 << 7;
    public static final int FI_MR_RMA_EVENT = 1 << 8;
    public static final int FI_MR_ENDPOINT = 1 << 9;
    public static final int FI_MR_HMEM = 1 << 10;
    // enums
    public static final int FI_EP_RDM = 3;
    public static final int FI_AV_TABLE = 2;
    public static final int FI_CQ_FORMAT_CONTEXT = 1;
    public static final int FI_CQ_FORMAT_MSG = 2;
    public static final int FI_WAIT_NONE = 0;
    public static final int FI_UINT64 = 7;
    public static final int FI_SUM = 2;
    public static final int FI_CSWAP = 12;
    public static final int FI_ENABLE = 6;
    public static final long FI_ADDR_UNSPEC = -1L;
    // enum fi_hmem_iface: whose memory a registration is (fi_mr_attr.iface)
    public static final int FI_HMEM_SYSTEM = 0;
    public static final int FI_HMEM_CUDA = 1;
    public static final int FI_HMEM_ROCR = 2;
    // errors (fi_errno.h: negated in return values)
    public static final int FI_EAGAIN = 11;
    public static final int FI_ENODATA = 61;
    public static final int FI_ENOSYS = 38;
    public static final int FI_EAVAIL = 259;
    public static final int FI_ECANCELED = 125;

    /** {@code struct fi_context2}: what an op's context points at where the provider asks for FI_CONTEXT(2). */
    public static final long CONTEXT2_BYTES = 64;

    public static final StructLayout FI_INFO = MemoryLayout.structLayout(
                    ADDRESS.withName("next"),
                    JAVA_LONG.withName("caps"),
                    JAVA_LONG.withName("mode"),
                    JAVA_INT.withName("addr_format"),
                    MemoryLayout.paddingLayout(4),
                    JAVA_LONG.withName("src_addrlen"),
                    JAVA_LONG.withName("dest_addrlen"),
                    ADDRESS.withName("src_addr"),
                    ADDRESS.withName("dest_addr"),
                    ADDRESS.withName("handle"),
                    ADDRESS.withName("tx_attr"),
                    ADDRESS.withName("rx_attr"),
                    ADDRESS.withName("ep_attr"),
                    ADDRESS.withName("domain_attr"),
                    ADDRESS.withName("fabric_attr"),
                    ADDRESS.withName("nic"))
            .withName("fi_info");
    public static final StructLayout FI_TX_ATTR = MemoryLayout.structLayout(
                    JAVA_LONG.withName("caps"),
                    JAVA_LONG.withName("mode"),
                    JAVA_LONG.withName("op_flags"),
                    JAVA_LONG.withName("msg_order"),
                    JAVA_LONG.withName("comp_order"),
                    JAVA_LONG.withName("inject_size"),
                    JAVA_LONG.withName("size"),
                    JAVA_LONG.withName("iov_limit"),
                    JAVA_LONG.withName("rma_iov_limit"),
                    JAVA_INT.withName("tclass"),
                    MemoryLayout.paddingLayout(4))
            .withName("fi_tx_attr");
    public static final StructLayout FI_RX_ATTR = MemoryLayout.structLayout(
                    JAVA_LONG.withName("caps"),
                    JAVA_LONG.withName("mode"),
                    JAVA_LONG.withName("op_flags"),
                    JAVA_LONG.withName("msg_order"),
                    JAVA_LONG.withName("comp_order"),
                    JAVA_LONG.withName("total_buffered_recv"),
                    JAVA_LONG.withName("size"),
                    JAVA_LONG.withName("iov_limit"))
            .withName("fi_rx_attr");
    public static final StructLayout FI_EP_ATTR = MemoryLayout.structLayout(
                    JAVA_INT.withName("type"),
                    JAVA_INT.withName("protocol"),
                    JAVA_INT.withName("protocol_version"),
                    MemoryLayout.paddingLayout(4),
                    JAVA_LONG.withName("max_msg_size"),
                    JAVA_LONG.withName("msg_prefix_size"),
                    JAVA_LONG.withName("max_order_raw_size"),
                    JAVA_LONG.withName("max_order_war_size"),
                    JAVA_LONG.withName("max_order_waw_size"),
                    JAVA_LONG.withName("mem_tag_format"),
                    JAVA_LONG.withName("tx_ctx_cnt"),
                    JAVA_LONG.withName("rx_ctx_cnt"),
                    JAVA_LONG.withName("auth_key_size"),
                    ADDRESS.withName("auth_key"))
            .withName("fi_ep_attr");
    public static final StructLayout FI_DOMAIN_ATTR = MemoryLayout.structLayout(
                    ADDRESS.withName("domain"),
                    ADDRESS.withName("name"),
                    JAVA_INT.withName("threading"),
                    JAVA_INT.withName("control_progress"),
                    JAVA_INT.withName("data_progress"),
                    JAVA_INT.withName("resource_mgmt"),
                    JAVA_INT.withName("av_type"),
                    JAVA_INT.withName("mr_mode"),
                    JAVA_LONG.withName("mr_key_size"),
                    JAVA_LONG.withName("cq_data_size"),
                    JAVA_LONG.withName("cq_cnt"),
                    JAVA_LONG.withName("ep_cnt"),
                    JAVA_LONG.withName("tx_ctx_cnt"),
                    JAVA_LONG.withName("rx_ctx_cnt"),
                    JAVA_LONG.withName("max_ep_tx_ctx"),
                    JAVA_LONG.withName("max_ep_rx_ctx"),
                    JAVA_LONG.withName("max_ep_stx_ctx"),
                    JAVA_LONG.withName("max_ep_srx_ctx"),
                    JAVA_LONG.withName("cntr_cnt"),
                    JAVA_LONG.withName("mr_iov_limit"),
                    JAVA_LONG.withName("caps"),
                    JAVA_LONG.withName("mode"),
                    ADDRESS.withName("auth_key"),
                    JAVA_LONG.withName("auth_key_size"),
                    JAVA_LONG.withName("max_err_data"),
                    JAVA_LONG.withName("mr_cnt"),
                    JAVA_INT.withName("tclass"),
                    MemoryLayout.paddingLayout(4))
            .withName("fi_domain_attr");
    public static final StructLayout FI_FABRIC_ATTR = MemoryLayout.structLayout(
                    ADDRESS.withName("fabric"),
                    ADDRESS.withName("name"),
                    ADDRESS.withName("prov_name"),
                    JAVA_INT.withName("prov_version"),
                    JAVA_INT.withName("api_version"))
            .withName("fi_fabric_attr");
    public static final StructLayout FI_CQ_ATTR = MemoryLayout.structLayout(
                    JAVA_LONG.withName("size"),
                    JAVA_LONG.withName("flags"),
                    JAVA_INT.withName("format"),
                    JAVA_INT.withName("wait_obj"),
                    JAVA_INT.withName("signaling_vector"),
                    JAVA_INT.withName("wait_cond"),
                    ADDRESS.withName("wait_set"))
            .withName("fi_cq_attr");
    public static final StructLayout FI_AV_ATTR = MemoryLayout.structLayout(
                    JAVA_INT.withName("type"),
                    JAVA_INT.withName("rx_ctx_bits"),
                    JAVA_LONG.withName("count"),
                    JAVA_LONG.withName("ep_per_node"),
                    ADDRESS.withName("name"),
                    ADDRESS.withName("map_addr"),
                    JAVA_LONG.withName("flags"))
            .withName("fi_av_attr");
    public static final StructLayout FI_CQ_MSG_ENTRY = MemoryLayout.structLayout(
                    ADDRESS.withName("op_context"), JAVA_LONG.withName("flags"), JAVA_LONG.withName("len"))
            .withName("fi_cq_msg_entry");
    public static final StructLayout FI_CQ_ERR_ENTRY = MemoryLayout.structLayout(
                    ADDRESS.withName("op_context"),
                    JAVA_LONG.withName("flags"),
                    JAVA_LONG.withName("len"),
                    ADDRESS.withName("buf"),
                    JAVA_LONG.withName("data"),
                    JAVA_LONG.withName("tag"),
                    JAVA_LONG.withName("olen"),
                    JAVA_INT.withName("err"),
                    JAVA_INT.withName("prov_errno"),
                    ADDRESS.withName("err_data"),
                    JAVA_LONG.withName("err_data_size"))
            .withName("fi_cq_err_entry");
    public static final StructLayout FI_MSG_RMA = MemoryLayout.structLayout(
                    ADDRESS.withName("msg_iov"),
                    ADDRESS.withName("desc"),
                    JAVA_LONG.withName("iov_count"),
                    JAVA_LONG.withName("addr"),
                    ADDRESS.withName("rma_iov"),
                    JAVA_LONG.withName("rma_iov_count"),
                    ADDRESS.withName("context"),
                    JAVA_LONG.withName("data"))
            .withName("fi_msg_rma");
    public static final StructLayout FI_RMA_IOV = MemoryLayout.structLayout(
                    JAVA_LONG.withName("addr"), JAVA_LONG.withName("len"), JAVA_LONG.withName("key"))
            .withName("fi_rma_iov");
    /** {@code struct fi_mr_attr} of API 1.17, up to its device union (later APIs append members a 1.17 domain never reads). */
    public static final StructLayout FI_MR_ATTR = MemoryLayout.structLayout(
                    ADDRESS.withName("mr_iov"),
                    JAVA_LONG.withName("iov_count"),
                    JAVA_LONG.withName("access"),
                    JAVA_LONG.withName("offset"),
                    JAVA_LONG.withName("requested_key"),
                    ADDRESS.withName("context"),
                    JAVA_LONG.withName("auth_key_size"),
                    ADDRESS.withName("auth_key"),
                    JAVA_INT.withName("iface"),
                    MemoryLayout.paddingLayout(4),
                    MemoryLayout.unionLayout(
                                    JAVA_LONG.withName("reserved"),
                                    JAVA_INT.withName("cuda"),
                                    JAVA_INT.withName("ze"),
                                    JAVA_INT.withName("neuron"),
                                    JAVA_INT.withName("synapseai"))
                            .withName("device"))
            .withName("fi_mr_attr");

    public static final StructLayout IOVEC = MemoryLayout.structLayout(
                    ADDRESS.withName("iov_base"), JAVA_LONG.withName("iov_len"))
            .withName("iovec");

    // The objects: each starts with struct fid, then its operation tables.
    public static final StructLayout FID = MemoryLayout.structLayout(
                    JAVA_LONG.withName("fclass"), ADDRESS.withName("context"), ADDRESS.withName("ops"))
            .withName("fid");
    public static final StructLayout FID_FABRIC = MemoryLayout.structLayout(
                    FID.withName("fid"),
                    ADDRESS.withName("ops"),
                    JAVA_INT.withName("api_version"),
                    MemoryLayout.paddingLayout(4))
            .withName("fid_fabric");
    public static final StructLayout FID_DOMAIN = MemoryLayout.structLayout(
                    FID.withName("fid"), ADDRESS.withName("ops"), ADDRESS.withName("mr"))
            .withName("fid_domain");
    public static final StructLayout FID_EP = MemoryLayout.structLayout(
                    FID.withName("fid"),
                    ADDRESS.withName("ops"),
                    ADDRESS.withName("cm"),
                    ADDRESS.withName("msg"),
                    ADDRESS.withName("rma"),
                    ADDRESS.withName("tagged"),
                    ADDRESS.withName("atomic"),
                    ADDRESS.withName("collective"))
            .withName("fid_ep");
    public static final StructLayout FID_AV = MemoryLayout.structLayout(FID.withName("fid"), ADDRESS.withName("ops"))
            .withName("fid_av");
    public static final StructLayout FID_CQ = MemoryLayout.structLayout(FID.withName("fid"), ADDRESS.withName("ops"))
            .withName("fid_cq");
    public static final StructLayout FID_MR = MemoryLayout.structLayout(
                    FID.withName("fid"), ADDRESS.withName("mem_desc"), JAVA_LONG.withName("key"))
            .withName("fid_mr");

    // The operation tables: a size, then function pointers.
    public static final StructLayout FI_OPS =
            table("fi_ops", "close", "bind", "control", "ops_open", "tostr", "ops_set");
    public static final StructLayout FI_OPS_FABRIC =
            table("fi_ops_fabric", "domain", "passive_ep", "eq_open", "wait_open", "trywait", "domain2");
    public static final StructLayout FI_OPS_DOMAIN = table(
            "fi_ops_domain",
            "av_open",
            "cq_open",
            "endpoint",
            "scalable_ep",
            "cntr_open",
            "poll_open",
            "stx_ctx",
            "srx_ctx",
            "query_atomic",
            "query_collective",
            "endpoint2");
    public static final StructLayout FI_OPS_MR = table("fi_ops_mr", "reg", "regv", "regattr");
    public static final StructLayout FI_OPS_CM = table(
            "fi_ops_cm", "setname", "getname", "getpeer", "connect", "listen", "accept", "reject", "shutdown", "join");
    public static final StructLayout FI_OPS_MSG = table(
            "fi_ops_msg", "recv", "recvv", "recvmsg", "send", "sendv", "sendmsg", "inject", "senddata", "injectdata");
    public static final StructLayout FI_OPS_RMA = table(
            "fi_ops_rma",
            "read",
            "readv",
            "readmsg",
            "write",
            "writev",
            "writemsg",
            "inject",
            "writedata",
            "injectdata");
    public static final StructLayout FI_OPS_ATOMIC = table(
            "fi_ops_atomic",
            "write",
            "writev",
            "writemsg",
            "inject",
            "readwrite",
            "readwritev",
            "readwritemsg",
            "compwrite",
            "compwritev",
            "compwritemsg",
            "writevalid",
            "readwritevalid",
            "compwritevalid");
    public static final StructLayout FI_OPS_AV =
            table("fi_ops_av", "insert", "insertsvc", "insertsym", "remove", "lookup", "straddr", "av_set");
    public static final StructLayout FI_OPS_CQ =
            table("fi_ops_cq", "read", "readfrom", "readerr", "sread", "sreadfrom", "signal", "strerror");

    private static StructLayout table(String name, String... functions) {
        MemoryLayout[] members = new MemoryLayout[functions.length + 1];
        members[0] = JAVA_LONG.withName("size");
        for (int i = 0; i < functions.length; i++) {
            members[i + 1] = ADDRESS.withName(functions[i]);
        }
        return MemoryLayout.structLayout(members).withName(name);
    }

    /** The byte offset of {@code member} (a path of names, e.g. "fid", "ops") in {@code struct}. */
    public static long offset(StructLayout struct, String... member) {
        MemoryLayout.PathElement[] path = new MemoryLayout.PathElement[member.length];
        for (int i = 0; i < member.length; i++) {
            path[i] = MemoryLayout.PathElement.groupElement(member[i]);
        }
        return struct.byteOffset(path);
    }

    static final List<StructLayout> STRUCTS = List.of(
            FI_INFO,
            FI_TX_ATTR,
            FI_RX_ATTR,
            FI_EP_ATTR,
            FI_DOMAIN_ATTR,
            FI_FABRIC_ATTR,
            FI_CQ_ATTR,
            FI_AV_ATTR,
            FI_CQ_MSG_ENTRY,
            FI_CQ_ERR_ENTRY,
            FI_MSG_RMA,
            FI_RMA_IOV,
            FI_MR_ATTR,
            IOVEC,
            FID,
            FID_FABRIC,
            FID_DOMAIN,
            FID_EP,
            FID_AV,
            FID_CQ,
            FID_MR,
            FI_OPS,
            FI_OPS_FABRIC,
            FI_OPS_DOMAIN,
            FI_OPS_MR,
            FI_OPS_CM,
            FI_OPS_MSG,
            FI_OPS_RMA,
            FI_OPS_ATOMIC,
            FI_OPS_AV,
            FI_OPS_CQ);

    /**
     * "sizeof S", "offsetof S.member" for every named member of every structure above (the fid inside
     * an object as "S.fid", a union's members as "S.union.member"), and "const NAME" for every
     * constant: the keys the C program prints.
     */
    public static Map<String, Long> layoutFacts() {
        Map<String, Long> facts = new LinkedHashMap<>();
        for (StructLayout s : STRUCTS) {
            String name = s.name().orElseThrow();
            facts.put("sizeof " + name, s.byteSize());
            for (MemoryLayout m : s.memberLayouts()) {
                m.name().ifPresent(n -> facts.put("offsetof " + name + "." + n, offset(s, n)));
                if (m instanceof UnionLayout u) {
                    String union = u.name().orElseThrow();
                    for (MemoryLayout v : u.memberLayouts()) {
                        String member = v.name().orElseThrow();
                        facts.put("offsetof " + name + "." + union + "." + member, offset(s, union, member));
                    }
                }
            }
        }
        facts.put("sizeof fi_context2", CONTEXT2_BYTES);
        facts.put("const FI_VERSION", (long) API_VERSION);
        Map<String, Long> c = new LinkedHashMap<>();
        c.put("FI_MSG", FI_MSG);
        c.put("FI_RMA", FI_RMA);
        c.put("FI_ATOMIC", FI_ATOMIC);
        c.put("FI_READ", FI_READ);
        c.put("FI_WRITE", FI_WRITE);
        c.put("FI_RECV", FI_RECV);
        c.put("FI_SEND", FI_SEND);
        c.put("FI_TRANSMIT", FI_TRANSMIT);
        c.put("FI_REMOTE_READ", FI_REMOTE_READ);
        c.put("FI_REMOTE_WRITE", FI_REMOTE_WRITE);
        c.put("FI_COMPLETION", FI_COMPLETION);
        c.put("FI_DELIVERY_COMPLETE", FI_DELIVERY_COMPLETE);
        c.put("FI_HMEM", FI_HMEM);
        c.put("FI_ORDER_SAS", FI_ORDER_SAS);
        c.put("FI_CONTEXT", FI_CONTEXT);
        c.put("FI_CONTEXT2", FI_CONTEXT2);
        c.put("FI_RX_CQ_DATA", FI_RX_CQ_DATA);
        c.put("FI_MR_LOCAL", (long) FI_MR_LOCAL);
        c.put("FI_MR_RAW", (long) FI_MR_RAW);
        c.put("FI_MR_VIRT_ADDR", (long) FI_MR_VIRT_ADDR);
        c.put("FI_MR_ALLOCATED", (long) FI_MR_ALLOCATED);
        c.put("FI_MR_PROV_KEY", (long) FI_MR_PROV_KEY);
        c.put("FI_MR_MMU_NOTIFY", (long) FI_MR_MMU_NOTIFY);
        c.put("FI_MR_RMA_EVENT", (long) FI_MR_RMA_EVENT);
        c.put("FI_MR_ENDPOINT", (long) FI_MR_ENDPOINT);
        c.put("FI_MR_HMEM", (long) FI_MR_HMEM);
        c.put("FI_EP_RDM", (long) FI_EP_RDM);
        c.put("FI_AV_TABLE", (long) FI_AV_TABLE);
        c.put("FI_CQ_FORMAT_CONTEXT", (long) FI_CQ_FORMAT_CONTEXT);
        c.put("FI_CQ_FORMAT_MSG", (long) FI_CQ_FORMAT_MSG);
        c.put("FI_WAIT_NONE", (long) FI_WAIT_NONE);
        c.put("FI_UINT64", (long) FI_UINT64);
        c.put("FI_SUM", (long) FI_SUM);
        c.put("FI_CSWAP", (long) FI_CSWAP);
        c.put("FI_ENABLE", (long) FI_ENABLE);
        c.put("FI_ADDR_UNSPEC", FI_ADDR_UNSPEC);
        c.put("FI_HMEM_SYSTEM", (long) FI_HMEM_SYSTEM);
        c.put("FI_HMEM_CUDA", (long) FI_HMEM_CUDA);
        c.put("FI_HMEM_ROCR", (long) FI_HMEM_ROCR);
        c.put("FI_EAGAIN", (long) FI_EAGAIN);
        c.put("FI_ENODATA", (long) FI_ENODATA);
        c.put("FI_ENOSYS", (long) FI_ENOSYS);
        c.put("FI_EAVAIL", (long) FI_EAVAIL);
        c.put("FI_ECANCELED", (long) FI_ECANCELED);
        c.forEach((k, v) -> facts.put("const " + k, v));
        return facts;
    }
}
