/**
 * The validation methodology: seeded patterns, per-slot checksums and what a verification pass found.
 * Pure computation over memory; no transports, no I/O.
 */
package dev.linkproof.transfer.validate;
