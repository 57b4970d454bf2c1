/*
 * Prints sizeof/offsetof of every libfabric structure member and every constant the Java bindings in
 * dev.linkproof.transfer.libfabric use, one "key value" line each, in the keys of
 * LibfabricAbi.layoutFacts(). LibfabricLayoutTest compiles this with gcc against libfabric-dev's
 * headers and compares the two. Keep the two lists in step.
 */
#include <stddef.h>
#include <stdio.h>
#include <sys/uio.h>
#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#define SIZE(t) printf("sizeof %s %zu\n", #t, sizeof(struct t))
#define OFF(t, f) printf("offsetof %s.%s %zu\n", #t, #f, offsetof(struct t, f))
#define CONST(c) printf("const %s %lld\n", #c, (long long)(c))

int main(void) {
    SIZE(fi_info); OFF(fi_info, next); OFF(fi_info, caps); OFF(fi_info, mode); OFF(fi_info, addr_format);
    OFF(fi_info, src_addrlen); OFF(fi_info, dest_addrlen); OFF(fi_info, src_addr); OFF(fi_info, dest_addr);
    OFF(fi_info, handle); OFF(fi_info, tx_attr); OFF(fi_info, rx_attr); OFF(fi_info, ep_attr);
    OFF(fi_info, domain_attr); OFF(fi_info, fabric_attr); OFF(fi_info, nic);

    SIZE(fi_tx_attr); OFF(fi_tx_attr, caps); OFF(fi_tx_attr, mode); OFF(fi_tx_attr, op_flags);
    OFF(fi_tx_attr, msg_order); OFF(fi_tx_attr, comp_order); OFF(fi_tx_attr, inject_size); OFF(fi_tx_attr, size);
    OFF(fi_tx_attr, iov_limit); OFF(fi_tx_attr, rma_iov_limit); OFF(fi_tx_attr, tclass);

    SIZE(fi_rx_attr); OFF(fi_rx_attr, caps); OFF(fi_rx_attr, mode); OFF(fi_rx_attr, op_flags);
    OFF(fi_rx_attr, msg_order); OFF(fi_rx_attr, comp_order); OFF(fi_rx_attr, total_buffered_recv); OFF(fi_rx_attr, size);
    OFF(fi_rx_attr, iov_limit);

    SIZE(fi_ep_attr); OFF(fi_ep_attr, type); OFF(fi_ep_attr, protocol); OFF(fi_ep_attr, protocol_version);
    OFF(fi_ep_attr, max_msg_size); OFF(fi_ep_attr, msg_prefix_size); OFF(fi_ep_attr, max_order_raw_size);
    OFF(fi_ep_attr, max_order_war_size); OFF(fi_ep_attr, max_order_waw_size); OFF(fi_ep_attr, mem_tag_format);
    OFF(fi_ep_attr, tx_ctx_cnt); OFF(fi_ep_attr, rx_ctx_cnt); OFF(fi_ep_attr, auth_key_size); OFF(fi_ep_attr, auth_key);

    SIZE(fi_domain_attr); OFF(fi_domain_attr, domain); OFF(fi_domain_attr, name); OFF(fi_domain_attr, threading);
    OFF(fi_domain_attr, control_progress); OFF(fi_domain_attr, data_progress); OFF(fi_domain_attr, resource_mgmt);
    OFF(fi_domain_attr, av_type); OFF(fi_domain_attr, mr_mode); OFF(fi_domain_attr, mr_key_size);
    OFF(fi_domain_attr, cq_data_size); OFF(fi_domain_attr, cq_cnt); OFF(fi_domain_attr, ep_cnt);
    OFF(fi_domain_attr, tx_ctx_cnt); OFF(fi_domain_attr, rx_ctx_cnt); OFF(fi_domain_attr, max_ep_tx_ctx);
    OFF(fi_domain_attr, max_ep_rx_ctx); OFF(fi_domain_attr, max_ep_stx_ctx); OFF(fi_domain_attr, max_ep_srx_ctx);
    OFF(fi_domain_attr, cntr_cnt); OFF(fi_domain_attr, mr_iov_limit); OFF(fi_domain_attr, caps);
    OFF(fi_domain_attr, mode); OFF(fi_domain_attr, auth_key); OFF(fi_domain_attr, auth_key_size);
    OFF(fi_domain_attr, max_err_data); OFF(fi_domain_attr, mr_cnt); OFF(fi_domain_attr, tclass);

    SIZE(fi_fabric_attr); OFF(fi_fabric_attr, fabric); OFF(fi_fabric_attr, name); OFF(fi_fabric_attr, prov_name);
    OFF(fi_fabric_attr, prov_version); OFF(fi_fabric_attr, api_version);

    SIZE(fi_cq_attr); OFF(fi_cq_attr, size); OFF(fi_cq_attr, flags); OFF(fi_cq_attr, format); OFF(fi_cq_attr, wait_obj);
    OFF(fi_cq_attr, signaling_vector); OFF(fi_cq_attr, wait_cond); OFF(fi_cq_attr, wait_set);

    SIZE(fi_av_attr); OFF(fi_av_attr, type); OFF(fi_av_attr, rx_ctx_bits); OFF(fi_av_attr, count);
    OFF(fi_av_attr, ep_per_node); OFF(fi_av_attr, name); OFF(fi_av_attr, map_addr); OFF(fi_av_attr, flags);

    SIZE(fi_cq_msg_entry); OFF(fi_cq_msg_entry, op_context); OFF(fi_cq_msg_entry, flags); OFF(fi_cq_msg_entry, len);

    SIZE(fi_cq_err_entry); OFF(fi_cq_err_entry, op_context); OFF(fi_cq_err_entry, flags); OFF(fi_cq_err_entry, len);
    OFF(fi_cq_err_entry, buf); OFF(fi_cq_err_entry, data); OFF(fi_cq_err_entry, tag); OFF(fi_cq_err_entry, olen);
    OFF(fi_cq_err_entry, err); OFF(fi_cq_err_entry, prov_errno); OFF(fi_cq_err_entry, err_data);
    OFF(fi_cq_err_entry, err_data_size);

    SIZE(fi_msg_rma); OFF(fi_msg_rma, msg_iov); OFF(fi_msg_rma, desc); OFF(fi_msg_rma, iov_count); OFF(fi_msg_rma, addr);
    OFF(fi_msg_rma, rma_iov); OFF(fi_msg_rma, rma_iov_count); OFF(fi_msg_rma, context); OFF(fi_msg_rma, data);

    SIZE(fi_rma_iov); OFF(fi_rma_iov, addr); OFF(fi_rma_iov, len); OFF(fi_rma_iov, key);
    SIZE(fi_mr_attr); OFF(fi_mr_attr, mr_iov); OFF(fi_mr_attr, iov_count); OFF(fi_mr_attr, access);
    OFF(fi_mr_attr, offset); OFF(fi_mr_attr, requested_key); OFF(fi_mr_attr, context); OFF(fi_mr_attr, auth_key_size);
    OFF(fi_mr_attr, auth_key); OFF(fi_mr_attr, iface); OFF(fi_mr_attr, device); OFF(fi_mr_attr, device.reserved);
    OFF(fi_mr_attr, device.cuda); OFF(fi_mr_attr, device.ze); OFF(fi_mr_attr, device.neuron);
    OFF(fi_mr_attr, device.synapseai);
    SIZE(iovec); OFF(iovec, iov_base); OFF(iovec, iov_len);

    SIZE(fid); OFF(fid, fclass); OFF(fid, context); OFF(fid, ops);
    SIZE(fid_fabric); OFF(fid_fabric, fid); OFF(fid_fabric, ops); OFF(fid_fabric, api_version);
    SIZE(fid_domain); OFF(fid_domain, fid); OFF(fid_domain, ops); OFF(fid_domain, mr);
    SIZE(fid_ep); OFF(fid_ep, fid); OFF(fid_ep, ops); OFF(fid_ep, cm); OFF(fid_ep, msg); OFF(fid_ep, rma);
    OFF(fid_ep, tagged); OFF(fid_ep, atomic); OFF(fid_ep, collective);
    SIZE(fid_av); OFF(fid_av, fid); OFF(fid_av, ops);
    SIZE(fid_cq); OFF(fid_cq, fid); OFF(fid_cq, ops);
    SIZE(fid_mr); OFF(fid_mr, fid); OFF(fid_mr, mem_desc); OFF(fid_mr, key);

    SIZE(fi_ops); OFF(fi_ops, size); OFF(fi_ops, close); OFF(fi_ops, bind); OFF(fi_ops, control); OFF(fi_ops, ops_open);
    OFF(fi_ops, tostr); OFF(fi_ops, ops_set);
    SIZE(fi_ops_fabric); OFF(fi_ops_fabric, size); OFF(fi_ops_fabric, domain); OFF(fi_ops_fabric, passive_ep);
    OFF(fi_ops_fabric, eq_open); OFF(fi_ops_fabric, wait_open); OFF(fi_ops_fabric, trywait); OFF(fi_ops_fabric, domain2);
    SIZE(fi_ops_domain); OFF(fi_ops_domain, size); OFF(fi_ops_domain, av_open); OFF(fi_ops_domain, cq_open);
    OFF(fi_ops_domain, endpoint); OFF(fi_ops_domain, scalable_ep); OFF(fi_ops_domain, cntr_open);
    OFF(fi_ops_domain, poll_open); OFF(fi_ops_domain, stx_ctx); OFF(fi_ops_domain, srx_ctx);
    OFF(fi_ops_domain, query_atomic); OFF(fi_ops_domain, query_collective); OFF(fi_ops_domain, endpoint2);
    SIZE(fi_ops_mr); OFF(fi_ops_mr, size); OFF(fi_ops_mr, reg); OFF(fi_ops_mr, regv); OFF(fi_ops_mr, regattr);
    SIZE(fi_ops_cm); OFF(fi_ops_cm, size); OFF(fi_ops_cm, setname); OFF(fi_ops_cm, getname); OFF(fi_ops_cm, getpeer);
    OFF(fi_ops_cm, connect); OFF(fi_ops_cm, listen); OFF(fi_ops_cm, accept); OFF(fi_ops_cm, reject);
    OFF(fi_ops_cm, shutdown); OFF(fi_ops_cm, join);
    SIZE(fi_ops_msg); OFF(fi_ops_msg, size); OFF(fi_ops_msg, recv); OFF(fi_ops_msg, recvv); OFF(fi_ops_msg, recvmsg);
    OFF(fi_ops_msg, send); OFF(fi_ops_msg, sendv); OFF(fi_ops_msg, sendmsg); OFF(fi_ops_msg, inject);
    OFF(fi_ops_msg, senddata); OFF(fi_ops_msg, injectdata);
    SIZE(fi_ops_rma); OFF(fi_ops_rma, size); OFF(fi_ops_rma, read); OFF(fi_ops_rma, readv); OFF(fi_ops_rma, readmsg);
    OFF(fi_ops_rma, write); OFF(fi_ops_rma, writev); OFF(fi_ops_rma, writemsg); OFF(fi_ops_rma, inject);
    OFF(fi_ops_rma, writedata); OFF(fi_ops_rma, injectdata);
    SIZE(fi_ops_atomic); OFF(fi_ops_atomic, size); OFF(fi_ops_atomic, write); OFF(fi_ops_atomic, writev);
    OFF(fi_ops_atomic, writemsg); OFF(fi_ops_atomic, inject); OFF(fi_ops_atomic, readwrite);
    OFF(fi_ops_atomic, readwritev); OFF(fi_ops_atomic, readwritemsg); OFF(fi_ops_atomic, compwrite);
    OFF(fi_ops_atomic, compwritev); OFF(fi_ops_atomic, compwritemsg); OFF(fi_ops_atomic, writevalid);
    OFF(fi_ops_atomic, readwritevalid); OFF(fi_ops_atomic, compwritevalid);
    SIZE(fi_ops_av); OFF(fi_ops_av, size); OFF(fi_ops_av, insert); OFF(fi_ops_av, insertsvc); OFF(fi_ops_av, insertsym);
    OFF(fi_ops_av, remove); OFF(fi_ops_av, lookup); OFF(fi_ops_av, straddr); OFF(fi_ops_av, av_set);
    SIZE(fi_ops_cq); OFF(fi_ops_cq, size); OFF(fi_ops_cq, read); OFF(fi_ops_cq, readfrom); OFF(fi_ops_cq, readerr);
    OFF(fi_ops_cq, sread); OFF(fi_ops_cq, sreadfrom); OFF(fi_ops_cq, signal); OFF(fi_ops_cq, strerror);

    SIZE(fi_context2);
    printf("const FI_VERSION %d\n", FI_VERSION(FI_MAJOR_VERSION, FI_MINOR_VERSION));
    CONST(FI_MSG); CONST(FI_RMA); CONST(FI_ATOMIC); CONST(FI_READ); CONST(FI_WRITE); CONST(FI_RECV); CONST(FI_SEND);
    CONST(FI_TRANSMIT); CONST(FI_REMOTE_READ); CONST(FI_REMOTE_WRITE); CONST(FI_COMPLETION); CONST(FI_DELIVERY_COMPLETE);
    CONST(FI_HMEM); CONST(FI_ORDER_SAS); CONST(FI_CONTEXT); CONST(FI_CONTEXT2); CONST(FI_RX_CQ_DATA);
    CONST(FI_MR_LOCAL); CONST(FI_MR_RAW); CONST(FI_MR_VIRT_ADDR); CONST(FI_MR_ALLOCATED); CONST(FI_MR_PROV_KEY);
    CONST(FI_MR_MMU_NOTIFY); CONST(FI_MR_RMA_EVENT); CONST(FI_MR_ENDPOINT); CONST(FI_MR_HMEM);
    CONST(FI_EP_RDM); CONST(FI_AV_TABLE); CONST(FI_CQ_FORMAT_CONTEXT); CONST(FI_CQ_FORMAT_MSG); CONST(FI_WAIT_NONE);
    CONST(FI_UINT64); CONST(FI_SUM); CONST(FI_CSWAP); CONST(FI_ENABLE); CONST(FI_ADDR_UNSPEC);
    CONST(FI_HMEM_SYSTEM); CONST(FI_HMEM_CUDA); CONST(FI_HMEM_ROCR);
    CONST(FI_EAGAIN); CONST(FI_ENODATA); CONST(FI_ENOSYS); CONST(FI_EAVAIL); CONST(FI_ECANCELED);
    return 0;
}
