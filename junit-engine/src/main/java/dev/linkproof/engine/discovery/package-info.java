/**
 * Selectors to descriptors: @TransferTest classes and methods resolved, sweeps expanded into points, mistakes
 * reported as discovery issues.
 */
package dev.linkproof.engine.discovery;
