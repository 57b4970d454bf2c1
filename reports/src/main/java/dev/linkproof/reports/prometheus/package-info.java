/**
 * A run's metrics for Prometheus, written with Prometheus' own Java client (client_java: its model,
 * its {@code Gauge}, its text format writer): a run of one pair's points ({@link PointMetrics}), the
 * run as a whole ({@link RunMetrics}), the labels every point-level series carries ({@link PointLabels}),
 * the text and its atomic write for node_exporter's textfile collector ({@link Exposition}), and the
 * push to a Pushgateway ({@link Pushgateway}). A fleet's metrics are {@code reports.fleet}'s
 * {@code FleetPrometheus}, built on these. Decides nothing: it writes down what was measured and judged.
 */
package dev.linkproof.reports.prometheus;
