/**
 * SVG charts of one sweep, drawn from its point records.
 */
package dev.linkproof.reports.chart;
