package dev.linkproof.transfer.spi;

import java.time.Duration;
import java.util.Objects;

/**
 * Deadlines that bound every wait on the data path, and what the session knows of the peer's life.
 *
 * @param progressTimeout fail when the peer makes no progress (no byte moved, no completion) for this long
 * @param connectTimeout  fail when a data connection cannot be established within this long
 * @param peer            the session's watch on the target rank: a data path stops waiting (and closes
 *                        without the peer's help) as soon as it reports the peer gone
 */
public record IoSettings(Duration progressTimeout, Duration connectTimeout, PeerLiveness peer) {
    public static final IoSettings DEFAULT = new IoSettings(Duration.ofSeconds(10), Duration.ofSeconds(10));

    public IoSettings {
        if (progressTimeout.isNegative()
                || progressTimeout.isZero()
                || connectTimeout.isNegative()
                || connectTimeout.isZero()) {
            throw new IllegalArgumentException("I/O deadlines must be positive");
        }
        Objects.requireNonNull(peer, "peer");
    }

    /** Deadlines with nobody watching the peer. */
    public IoSettings(Duration progressTimeout, Duration connectTimeout) {
        this(progressTimeout, connectTimeout, PeerLiveness.UNWATCHED);
    }

    /** The same deadlines, with {@code watch} telling the data path when the peer is gone. */
    public IoSettings watchedBy(PeerLiveness watch) {
        return new IoSettings(progressTimeout, connectTimeout, watch);
    }
}
