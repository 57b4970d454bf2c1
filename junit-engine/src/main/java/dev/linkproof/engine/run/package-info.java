/**
 * A run and its points on a pair of ranks: what discovery loads once (RunSetup), the shared execution context, the
 * session, a point's run with its skips, requirements and reruns.
 */
package dev.linkproof.engine.run;
