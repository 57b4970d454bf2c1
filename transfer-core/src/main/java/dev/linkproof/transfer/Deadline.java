package dev.linkproof.transfer;

import java.util.Optional;

/**
 * The deadlines an initiator session applies, named so that a failure can say which one ran out
 * ({@link TransferException#deadline()}) and whoever configured it can name its own setting: the
 * engine its {@code linkproof.timeout.*} key, the command line its option. This library knows
 * neither, so its messages give the time that passed and the exception carries the name.
 */
public enum Deadline {
    /** {@code Timeouts.agentStart}: a local agent's wait for its ready line. */
    AGENT_START,
    /**
     * {@code Timeouts.control}: one control request, connecting to the agent included. A CHECKSUM
     * reply may take the progress deadline more, which the agent spends waiting for its receive
     * completions (a completion that never comes is its finding, not a timeout); a reply that does
     * not come within the two together ran out of this one, since the agent had its progress wait.
     */
    CONTROL,
    /** {@code IoSettings.progressTimeout}: a data path that moves no byte and completes nothing for this long. */
    PROGRESS,
    /** {@code IoSettings.connectTimeout}: opening one of the initiator's data connections. */
    DATA_CONNECT,
    /**
     * {@code Timeouts.control}, once more: the rails of a point waiting at their start barrier for the
     * last of them ({@code session.Rails}); a rail that does not arrive within it fails the point.
     */
    RAIL_START;

    /**
     * The deadline whose expiry {@code failure} reports: its own, else the nearest in its chain of
     * causes (a failure that repeats an earlier one wraps it). Empty when none ran out.
     */
    public static Optional<Deadline> thatExpired(Throwable failure) {
        // A chain may loop (A caused by B caused by A): each cause is looked at once.
        java.util.Set<Throwable> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
            if (t instanceof TransferException e && e.deadline().isPresent()) {
                return e.deadline();
            }
        }
        return Optional.empty();
    }
}
