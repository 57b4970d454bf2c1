/**
 * Command-line entry points over {@code session}: {@code TransferCli} and the verbs bench. Nothing in
 * transfer-core depends on this package.
 */
package dev.linkproof.transfer.cli;
