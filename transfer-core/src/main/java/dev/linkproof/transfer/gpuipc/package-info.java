/**
 * The gpu-ipc transport: GPU to GPU between two processes on one host, through the runtime's IPC
 * memory handles. Sessions and agents find it through its {@code spi} ServiceLoader entry.
 */
package dev.linkproof.transfer.gpuipc;
