/**
 * The libfabric transport (reliable-datagram endpoints of any libfabric provider: shm, tcp;ofi_rxm,
 * verbs;ofi_rxm, efa, an Ultra Ethernet NIC's) and its hand-written FFM bindings, which call the
 * static inline data path through the objects' operation tables. Found through {@code spi}.
 */
package dev.linkproof.transfer.libfabric;
