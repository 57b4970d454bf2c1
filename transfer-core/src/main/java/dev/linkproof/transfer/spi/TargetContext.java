package dev.linkproof.transfer.spi;

/**
 * What the target agent tells a transport about itself.
 *
 * @param bindAddress the address the agent's data listeners bind to (the one the initiator reached)
 * @param io          deadlines for the target's own waits
 */
public record TargetContext(String bindAddress, IoSettings io) {}
