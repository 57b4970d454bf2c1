package dev.linkproof.fleet.act;

/**
 * A node Linkproof took out of service in an earlier run, as its scheduler shows it now: a Slurm
 * node drained with a {@code linkproof:} reason, or a Kubernetes machine with Linkproof's verdict
 * label ({@code reason}: the drain reason, or the label's verdict slug).
 */
public record Mark(String node, String reason) {}
