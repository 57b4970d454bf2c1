/**
 * The pure-Java TCP transport (NIO), the reference that runs everywhere. Sessions and agents find it
 * through its {@code spi} ServiceLoader entry; it knows neither.
 */
package dev.linkproof.transfer.tcp;
