/**
 * Verdicts from a fleet's outcomes: fleet-relative outliers, retests with partners that passed, and
 * the blame that follows (bad node, bad link, unreachable or missing node, corrupting node). Decides;
 * writes nothing down.
 */
package dev.linkproof.fleet.blame;
