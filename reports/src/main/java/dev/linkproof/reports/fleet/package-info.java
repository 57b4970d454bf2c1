/**
 * A fleet run written down: {@code fleet-verdict.json} for automation, a node × node bandwidth heat
 * map per point as SVG, and an optional Prometheus text file. Draws from fleet.blame's verdicts and
 * judge; decides nothing itself.
 */
package dev.linkproof.reports.fleet;
