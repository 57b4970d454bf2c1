/**
 * The timed loop over a {@code DataPath} and what a point measured: {@code Measurement}, timing, latency
 * statistics, phases, the host's CPU contention. No transport and no control protocol here.
 */
package dev.linkproof.transfer.measure;
