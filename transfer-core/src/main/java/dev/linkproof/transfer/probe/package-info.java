/**
 * Reads what a host has (RDMA devices, NICs, GPUs, NUMA, huge pages, versions) from sysfs and procfs into a
 * plain {@code ProbeReport}. It knows no transport and no profile.
 */
package dev.linkproof.transfer.probe;
