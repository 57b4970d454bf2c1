/**
 * Many nodes at once. The engine coordinates a fleet run with what lives here: who is expected and
 * how they meet ({@code rendezvous}), which pairs run together in which round ({@code plan}), what
 * the outcomes say about nodes and links ({@code blame}), and what may be done about it
 * ({@code act}). Knows no test framework; the agents and the transfers are transfer-core's.
 */
package dev.linkproof.fleet;
