package dev.linkproof.fleet.act;

import java.time.Duration;

/** How one command went: each way it can end is a type of its own, for a report to count and show. */
public sealed interface CommandOutcome {
    Command command();

    /** Exited 0. {@code output}: the tail of what it printed (stdout and stderr together). */
    record Succeeded(Command command, String output) implements CommandOutcome {}

    /** Exited with another status. */
    record Failed(Command command, int exitCode, String output) implements CommandOutcome {}

    /** Still running at its deadline; it was killed. */
    record TimedOut(Command command, Duration deadline, String output) implements CommandOutcome {}

    /**
     * Could not be started (no such program, not executable), or, through the Kubernetes API, not
     * sent (no API server answered, no credentials).
     */
    record NotStarted(Command command, String why) implements CommandOutcome {}

    /**
     * The Kubernetes API server answered with an error: {@code status} its HTTP status (403: the
     * RBAC verb the coordinator's account lacks; 404: no such node), {@code why} what to do and the
     * server's own message.
     */
    record Refused(Command command, int status, String why) implements CommandOutcome {}

    default boolean succeeded() {
        return this instanceof Succeeded;
    }
}
