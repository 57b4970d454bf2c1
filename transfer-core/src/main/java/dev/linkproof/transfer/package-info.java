/**
 * The floor of transfer-core: plain values every layer shares (a point's spec, memory placement, units,
 * availability, deadlines, the exceptions). No I/O here, and no import of another Linkproof package.
 */
package dev.linkproof.transfer;
