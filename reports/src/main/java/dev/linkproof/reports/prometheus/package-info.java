/**
 * A run's metrics for Prometheus, written with Prometheus' own Java client (client_java: its model,
 * its {@code Gauge}, its text format writer): the labels every point-level series carries
 * ({@link PointLabels}), and the text and its atomic write ({@link Exposition}). A fleet's metrics
 * are {@code reports.fleet}'s {@code FleetPrometheus}, built on these. Decides nothing: it writes
 * down what was measured and judged.
 */
package dev.linkproof.reports.prometheus;
