/**
 * The coordinator's side of a fleet run: a control session to every registered agent, and each round
 * of pairs run through them at once, every pair's initiator driving the point against its target
 * (both ranks' parameters still from this one source). Reports what each pair did; judges nothing.
 */
package dev.linkproof.fleet.coordinate;
