/*
 * Prints sizeof/offsetof of every UCX struct field and every constant the Java bindings in
 * dev.linkproof.transfer.ucx.Ucx use, one "key value" line each, in the keys of
 * Ucx.layoutFacts(). UcxLayoutTest compiles this with gcc against libucx-dev's headers and
 * compares the two. Keep the two lists in step.
 */
#include <stddef.h>
#include <stdio.h>
#include <ucp/api/ucp.h>

#define SIZE(t) printf("sizeof %s %zu\n", #t, sizeof(t))
#define OFF(t, f) printf("offsetof %s.%s %zu\n", #t, #f, offsetof(t, f))
#define CONST(c) printf("const %s %lld\n", #c, (long long)(c))

int main(void) {
    SIZE(ucp_context_attr_t);
    OFF(ucp_context_attr_t, field_mask);
    OFF(ucp_context_attr_t, memory_types);

    SIZE(ucp_params_t);
    OFF(ucp_params_t, field_mask);
    OFF(ucp_params_t, features);

    SIZE(ucp_worker_params_t);
    OFF(ucp_worker_params_t, field_mask);
    OFF(ucp_worker_params_t, thread_mode);

    SIZE(ucp_ep_params_t);
    OFF(ucp_ep_params_t, field_mask);
    OFF(ucp_ep_params_t, address);
    OFF(ucp_ep_params_t, err_mode);
    OFF(ucp_ep_params_t, err_handler.cb);
    OFF(ucp_ep_params_t, err_handler.arg);

    SIZE(ucp_mem_map_params_t);
    OFF(ucp_mem_map_params_t, field_mask);
    OFF(ucp_mem_map_params_t, address);
    OFF(ucp_mem_map_params_t, length);
    OFF(ucp_mem_map_params_t, flags);
    OFF(ucp_mem_map_params_t, prot);
    OFF(ucp_mem_map_params_t, memory_type);

    SIZE(ucp_mem_attr_t);
    OFF(ucp_mem_attr_t, field_mask);
    OFF(ucp_mem_attr_t, address);
    OFF(ucp_mem_attr_t, length);

    SIZE(ucp_request_param_t);
    OFF(ucp_request_param_t, op_attr_mask);
    OFF(ucp_request_param_t, flags);
    OFF(ucp_request_param_t, datatype);
    OFF(ucp_request_param_t, reply_buffer);
    OFF(ucp_request_param_t, memory_type);

    SIZE(ucs_status_t);
    CONST(UCS_OK);
    CONST(UCS_INPROGRESS);
    CONST(UCS_ERR_LAST);
    CONST(UCP_PARAM_FIELD_FEATURES);
    CONST(UCP_FEATURE_RMA);
    CONST(UCP_FEATURE_WAKEUP);
    CONST(UCS_ERR_BUSY);
    CONST(UCP_WORKER_PARAM_FIELD_THREAD_MODE);
    CONST(UCS_THREAD_MODE_SINGLE);
    CONST(UCP_EP_PARAM_FIELD_REMOTE_ADDRESS);
    CONST(UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE);
    CONST(UCP_EP_PARAM_FIELD_ERR_HANDLER);
    CONST(UCP_ERR_HANDLING_MODE_PEER);
    CONST(UCP_EP_CLOSE_FLAG_FORCE);
    CONST(UCP_MEM_MAP_PARAM_FIELD_ADDRESS);
    CONST(UCP_MEM_MAP_PARAM_FIELD_LENGTH);
    CONST(UCP_MEM_MAP_PARAM_FIELD_FLAGS);
    CONST(UCP_MEM_MAP_PARAM_FIELD_MEMORY_TYPE);
    CONST(UCP_MEM_MAP_ALLOCATE);
    CONST(UCP_MEM_ATTR_FIELD_ADDRESS);
    CONST(UCP_MEM_ATTR_FIELD_LENGTH);
    CONST(UCP_OP_ATTR_FIELD_FLAGS);
    CONST(UCP_OP_ATTR_FIELD_DATATYPE);
    CONST(UCP_OP_ATTR_FIELD_REPLY_BUFFER);
    CONST(UCP_FEATURE_AMO64);
    CONST(UCP_ATOMIC_OP_ADD);
    CONST(UCP_ATOMIC_OP_CSWAP);
    CONST(ucp_dt_make_contig(8));
    CONST(UCP_OP_ATTR_FIELD_MEMORY_TYPE);
    CONST(UCS_MEMORY_TYPE_HOST);
    CONST(UCS_MEMORY_TYPE_CUDA);
    CONST(UCS_MEMORY_TYPE_ROCM);
    CONST(UCP_ATTR_FIELD_MEMORY_TYPES);
    CONST(UCS_ERR_UNREACHABLE);
    CONST(UCS_ERR_NO_RESOURCE);
    CONST(UCS_ERR_IO_ERROR);
    CONST(UCS_ERR_NO_MEMORY);
    CONST(UCS_ERR_CANCELED);
    CONST(UCS_ERR_TIMED_OUT);
    CONST(UCS_ERR_REJECTED);
    CONST(UCS_ERR_NOT_CONNECTED);
    CONST(UCS_ERR_CONNECTION_RESET);
    CONST(UCS_ERR_FIRST_LINK_FAILURE);
    CONST(UCS_ERR_LAST_ENDPOINT_FAILURE);
    return 0;
}
