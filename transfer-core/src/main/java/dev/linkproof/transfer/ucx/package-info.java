/**
 * The UCX transport (one-sided RMA on libucp) and its hand-written FFM bindings. Sessions and agents
 * find it through its {@code spi} ServiceLoader entry; it knows neither.
 */
package dev.linkproof.transfer.ucx;
