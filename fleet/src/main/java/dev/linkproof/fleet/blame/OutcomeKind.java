package dev.linkproof.fleet.blame;

import dev.linkproof.transfer.FailureKind;
import java.util.Optional;

/**
 * How one (pair, point) ended, as much as blame needs to know: each kind points at a different
 * culprit (a slow or unfit node, one that garbles data, one nobody can reach, or a bug).
 */
public enum OutcomeKind {
    PASSED,
    /** Ran, data valid, and short of a criterion of the profile (too slow, a NIC not fit, …). */
    FAILED_CRITERIA,
    /** Ran, and the data did not validate. */
    CORRUPT,
    /** The peer failed, timed out, or could not be connected to. */
    UNREACHABLE,
    /** Could not be carried out for another reason (a refused request, a local error, a bug). */
    ERROR;

    /**
     * The kind of a point that failed with {@code kind}, as the engine's failures carry it; empty
     * for {@link FailureKind#UNAVAILABLE}, a skipped point, which says nothing about the pair.
     */
    public static Optional<OutcomeKind> of(FailureKind kind) {
        return switch (kind) {
            case DATA_CORRUPTION, COMPLETION_MISMATCH, ATOMIC_MISMATCH -> Optional.of(CORRUPT);
            case PEER_FAILURE -> Optional.of(UNREACHABLE);
            case BELOW_CRITERION,
                    PERFORMANCE_REGRESSION,
                    SHORT_ON_BUSY_HOST,
                    NIC_NOT_FIT,
                    REQUIRED_TRANSPORT_UNAVAILABLE,
                    REQUIRED_CAPABILITY_UNAVAILABLE -> Optional.of(FAILED_CRITERIA);
            case TRANSFER_ERROR, CONFIGURATION_ERROR, TEST_ASSERTION, ERROR -> Optional.of(ERROR);
            case UNAVAILABLE -> Optional.empty();
        };
    }
}
