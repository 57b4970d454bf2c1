/**
 * The run's configuration: every linkproof.* key (Constants) and the one reader of them (LinkproofConfiguration).
 * It depends on nothing of the engine.
 */
package dev.linkproof.engine.config;
