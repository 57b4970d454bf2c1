/**
 * Patterns of node pairs: rounds of disjoint pairs that run at once (pairwise round robin, ring,
 * random-k, incast, fan-out, a pair file), and the plan's round count and estimated duration,
 * printed before any transfer.
 */
package dev.linkproof.fleet.plan;
