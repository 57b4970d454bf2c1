package dev.linkproof.fleet.coordinate;

import dev.linkproof.fleet.plan.Pair;
import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.measure.Measurement;
import java.util.Optional;

/**
 * What one pair of a round did: its measurement (validated on both ranks; a corrupt one is still a
 * measurement, whose validation says so), or the failure that stopped it. {@code unreachable} names
 * the node the failure could not reach, when it is known which: the initiator, when the coordinator
 * lost its own session to it; the target, when the initiator's agent reports a peer failure.
 */
public record PairRun(
        Pair pair,
        Measurement measurement,
        TransferException failure,
        Optional<String> unreachable,
        boolean startedTogether,
        long wallNanos) {
    public PairRun {
        if ((measurement == null) == (failure == null)) {
            throw new IllegalArgumentException("a pair run has a measurement or a failure, exactly one");
        }
    }

    static PairRun measured(Pair pair, Measurement m, boolean startedTogether, long wallNanos) {
        return new PairRun(pair, m, null, Optional.empty(), startedTogether, wallNanos);
    }

    static PairRun failed(Pair pair, TransferException e, String unreachable, long wallNanos) {
        return new PairRun(pair, null, e, Optional.ofNullable(unreachable), false, wallNanos);
    }

    /** A pair the coordinator could not start at all ({@code why}: the run has no registry, say). */
    public static PairRun notRun(Pair pair, String why) {
        return new PairRun(pair, null, new TransferException(why), Optional.empty(), false, 0);
    }

    public boolean ran() {
        return measurement != null;
    }

    /** The failure's kind; for a measurement, whether its data arrived intact. */
    public Optional<FailureKind> failureKind() {
        if (failure != null) {
            return Optional.of(failure.kind());
        }
        return measurement.validation().passed() ? Optional.empty() : Optional.of(FailureKind.DATA_CORRUPTION);
    }
}
