package dev.linkproof.transfer.session;

import dev.linkproof.transfer.Deadline;
import dev.linkproof.transfer.Units;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

/**
 * What a failure because a deadline ran out adds to its message, for the engine and the transfer
 * command alike: the setting that sets it and its value, what to raise when the thing was slow
 * rather than gone, or that nothing sets it. Only the settings' names differ between the two
 * ({@code linkproof.timeout.progress}, {@code --progress-timeout}): each caller names its own.
 */
public final class DeadlineNote {
    private DeadlineNote() {}

    /**
     * {@code " [deadline: SETTING=VALUE; raise it if …]"} for the deadline {@code failure} ran out of
     * ({@link Deadline#thatExpired}), empty for any other failure.
     *
     * @param setting what sets a deadline, empty where nothing does
     */
    public static String of(Throwable failure, Timeouts t, Function<Deadline, Optional<String>> setting) {
        return Deadline.thatExpired(failure)
                .map(d -> " [deadline: " + describe(d, t, setting.apply(d)) + "]")
                .orElse("");
    }

    static String describe(Deadline d, Timeouts t, Optional<String> setting) {
        Duration value = switch (d) {
            case AGENT_START -> t.agentStart();
            case CONTROL, RAIL_START -> t.control();
            case PROGRESS -> t.io().progressTimeout();
            case DATA_CONNECT -> t.io().connectTimeout();
        };
        String what = switch (d) {
            case AGENT_START -> "agent start";
            case CONTROL -> "control request";
            case PROGRESS -> "progress";
            case DATA_CONNECT -> "opening a data connection";
            case RAIL_START -> "the rails' wait for each other at their start";
        };
        String slowNotGone = switch (d) {
            case AGENT_START -> "the agent is slow to start";
            case CONTROL -> "the target agent is slow rather than gone";
            case PROGRESS -> "the transfer is slow rather than stuck";
            case DATA_CONNECT -> "the target is slow to accept";
            case RAIL_START -> "a rail is slow to provision";
        };
        if (setting.isEmpty()) {
            return what + ", " + Units.formatDuration(value) + ", which no option of this tool sets";
        }
        // The data connections' connect and the rails' start barrier have no setting of their own:
        // they take another deadline's (progress, control), which the note says.
        boolean borrowed = d == Deadline.DATA_CONNECT || d == Deadline.RAIL_START;
        return setting.get() + "=" + Units.formatDuration(value) + (borrowed ? ", which also bounds " + what : "")
                + "; raise it if " + slowNotGone;
    }
}
