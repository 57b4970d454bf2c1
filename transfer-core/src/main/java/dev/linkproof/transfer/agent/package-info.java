/**
 * The target rank: the agent process, its server and one connection per initiator session, serving each
 * point through the transports. The initiator's side is in {@code session}.
 */
package dev.linkproof.transfer.agent;
