/**
 * Machine-readable results: {@code PointRecord} (the versioned schema), the JSON-lines results file and the
 * per-sweep CSV.
 */
package dev.linkproof.reports.results;
