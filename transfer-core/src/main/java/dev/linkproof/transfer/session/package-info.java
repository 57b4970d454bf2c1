/**
 * The initiator's side of a pair: {@code TransferSession} and {@code Session} over the control protocol, a
 * local agent process, deadlines and timed runs. Engines and commands build on it; transports never do.
 */
package dev.linkproof.transfer.session;
