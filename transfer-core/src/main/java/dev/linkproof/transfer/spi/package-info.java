/**
 * The transport contract: {@code Transport} (found through {@code ServiceLoader}), its initiator and
 * target sides, {@code DataPath}, endpoint exchange and I/O deadlines. The transports themselves live elsewhere.
 */
package dev.linkproof.transfer.spi;
