package dev.linkproof.fleet.campaign;

import dev.linkproof.fleet.plan.Pair;
import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.measure.Measurement;
import java.util.Optional;

/**
 * The profile's own judgement of one pair's measurement at a point (its criteria, a baseline), so a
 * confirmation or retest is held to what the first run was: a pair that failed a criterion must
 * fail it again to be confirmed, not merely move valid data.
 */
@FunctionalInterface
public interface PointCheck {
    /** Judges by validation alone (a run without profile criteria). */
    PointCheck VALIDATION_ONLY = (pair, m) -> Optional.empty();

    /** The failure the profile finds in {@code m}, of its kind; empty when it passes. */
    Optional<FailureKind> failure(Pair pair, Measurement m);
}
