package dev.linkproof.transfer.spi;

import java.time.Duration;

/**
 * Deadlines that bound every wait on the data path.
 *
 * @param progressTimeout fail when the peer makes no progress (no byte moved, no completion) for this long
 * @param connectTimeout  fail when a data connection cannot be established within this long
 */
public record IoSettings(Duration progressTimeout, Duration connectTimeout) {
    public static final IoSettings DEFAULT = new IoSettings(Duration.ofSeconds(10), Duration.ofSeconds(10));

    public IoSettings {
        if (progressTimeout.isNegative() || progressTimeout.isZero() || connectTimeout.isNegative() || connectTimeout.isZero()) {
            throw new IllegalArgumentException("I/O deadlines must be positive");
        }
    }
}
