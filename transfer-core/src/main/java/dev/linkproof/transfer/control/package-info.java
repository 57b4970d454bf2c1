/**
 * The control protocol between initiator and agent: frames, message types and bodies, and the initiator's
 * request/reply channel. It carries specs, checksums and host load; it moves no data.
 */
package dev.linkproof.transfer.control;
