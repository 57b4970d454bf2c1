package dev.linkproof.fleet.blame;

/**
 * Why one (pair, point) counts against its nodes: its own outcome kind when it failed, or the
 * fleet-relative measure it fell short on when it passed its profile but not the fleet.
 */
public enum PairFault {
    FAILED_CRITERIA,
    CORRUPT,
    UNREACHABLE,
    ERROR,
    /** Passed, and below the fraction of the fleet's median bandwidth. */
    SLOW,
    /** Passed, and above the multiple of the fleet's lowest latency. */
    LATE;

    static PairFault of(OutcomeKind kind) {
        return switch (kind) {
            case FAILED_CRITERIA -> FAILED_CRITERIA;
            case CORRUPT -> CORRUPT;
            case UNREACHABLE -> UNREACHABLE;
            case ERROR -> ERROR;
            case PASSED -> throw new IllegalArgumentException("a passed outcome is no fault");
        };
    }

    static PairFault of(Measure measure) {
        return switch (measure) {
            case BANDWIDTH -> SLOW;
            case LATENCY -> LATE;
        };
    }
}
