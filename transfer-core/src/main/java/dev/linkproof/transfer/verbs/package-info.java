/**
 * The RDMA verbs transport (RC queue pairs on libibverbs), its hand-written FFM bindings and the
 * work-request plan both ranks compute. Found through {@code spi}; commands that drive it live in {@code cli}.
 */
package dev.linkproof.transfer.verbs;
