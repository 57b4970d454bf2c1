/**
 * Remote atomics (fetch-add, compare-and-swap) as the transports run them and as the session checks
 * them: {@link dev.linkproof.transfer.atomic.AtomicPlan} says what every op of a point adds or swaps
 * and what each counter must hold and return, {@link dev.linkproof.transfer.atomic.AtomicLayout} where
 * an initiator keeps its operands and the values that come back, and
 * {@link dev.linkproof.transfer.atomic.AtomicChecks} compares what was seen with the plan.
 */
package dev.linkproof.transfer.atomic;
