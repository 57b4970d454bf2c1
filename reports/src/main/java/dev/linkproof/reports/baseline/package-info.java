/**
 * Previous runs' results by point id, and the rule for when a point regressed against them.
 */
package dev.linkproof.reports.baseline;
