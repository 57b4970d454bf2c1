/**
 * How a point fails: PointFailure (failed) and PointError (broken), each carrying its FailureKind, and the kind of
 * any outcome. Decides no verdict.
 */
package dev.linkproof.engine.failure;
