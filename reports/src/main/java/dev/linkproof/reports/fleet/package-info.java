/**
 * A fleet run written down: {@code fleet-verdict.json} for automation, a node × node bandwidth heat
 * map per point as SVG, and the fleet's Prometheus metrics ({@code FleetPrometheus}, built on
 * {@code reports.prometheus}). Draws from fleet.blame's verdicts and judge; decides nothing itself.
 */
package dev.linkproof.reports.fleet;
