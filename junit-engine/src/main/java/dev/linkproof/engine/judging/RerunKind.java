package dev.linkproof.engine.judging;

/** Why an attempt was rerun. Each has its own allowance: {@code linkproof.busyHost.reruns}, {@code linkproof.baseline.reruns}. */
public enum RerunKind {
    /** It fell short (of a criterion or its baseline) while other processes kept a host busy. */
    BUSY_HOST,
    /** Its only failure was its baseline, and no busy-host rerun was left or due. */
    BASELINE
}
