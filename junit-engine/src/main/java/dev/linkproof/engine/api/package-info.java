/** What a user's test writes: @TransferTest, @Sweep, SweepPoint and the AssertJ assertions on a Measurement. Nothing here runs anything. */
package dev.linkproof.engine.api;
