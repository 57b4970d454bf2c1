package dev.linkproof.engine.judging;

import dev.linkproof.transfer.measure.Measurement;

/** An attempt of a point that was rerun, and why ({@code kind}). */
public record Attempt(Measurement measurement, HostLoads hosts, String failure, RerunKind kind) {
    /** "ran on a busy host", "fell short of the baseline", or "fell short of the baseline on a busy host". */
    public String reason() {
        return kind == RerunKind.BUSY_HOST
                ? "ran on a busy host"
                : "fell short of the baseline" + (hosts.busy() ? " on a busy host" : "");
    }

    /** Its figures, and the hosts' load where measured. */
    public String describe() {
        return measurement.summary() + (hosts.isEmpty() ? "" : ", " + hosts.describe());
    }
}
