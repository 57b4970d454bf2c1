package dev.linkproof.transfer.session;

import dev.linkproof.transfer.spi.IoSettings;
import java.time.Duration;

/**
 * Every deadline an initiator session applies; a failure because one ran out names it
 * ({@link dev.linkproof.transfer.TransferException#deadline()}).
 *
 * @param agentStart  how long a local agent may take to print its ready line
 * @param control     how long one control request may take, region fill and checksum included; a
 *                    CHECKSUM reply may take the progress deadline more (the agent's receive wait)
 */
public record Timeouts(Duration agentStart, Duration control, IoSettings io) {
    public static final Timeouts DEFAULT =
            new Timeouts(Duration.ofSeconds(30), Duration.ofSeconds(30), IoSettings.DEFAULT);
}
