/**
 * JUnit's view of a run: thin descriptors (engine, class, method, point) that hand their work to the run, judging
 * and reporting packages.
 */
package dev.linkproof.engine.descriptor;
