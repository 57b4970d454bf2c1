/**
 * Buffers that transfers move data in and out of: the {@code Buffer} contract and host memory (page-aligned
 * or huge pages). GPU memory is in {@code gpu}; registering memory with a library is the transport's job.
 */
package dev.linkproof.transfer.memory;
