package dev.linkproof.engine.judging;

import dev.linkproof.engine.failure.PointFailure;
import dev.linkproof.transfer.FailureKind;
import java.util.List;
import java.util.Optional;

/**
 * What the judge said of a point. {@code criteria}: the names of the profile's criteria that judged
 * it; {@code performanceOnly}: it failed on criteria or baseline with its data valid;
 * {@code baselineOnly}: it met the profile's criteria and failed on the baseline alone;
 * {@code reruns}: why each earlier attempt was rerun, oldest first; {@code headline}: the first criterion's verdict,
 * for the console line ("3.9 GB/s ≥ criterion 0.37 GB/s (tcp-bulk: ...)"); {@code baselineChange}:
 * how the point compares with its baseline reference, where there is one and its data validated;
 * {@code failureKind}: the kind of {@code failure}, present exactly when it is.
 */
public record Judgement(
        List<String> verdicts,
        List<String> criteria,
        Optional<String> failure,
        Optional<FailureKind> failureKind,
        boolean performanceOnly,
        boolean baselineOnly,
        HostLoads hosts,
        List<RerunKind> reruns,
        Double criterionGBps,
        String headline,
        Optional<String> baselineChange) {
    public Judgement {
        reruns = List.copyOf(reruns);
        if (failure.isPresent() != failureKind.isPresent()) {
            throw new IllegalArgumentException("a failure and its kind go together: " + failure + ", " + failureKind);
        }
    }

    /** 1, or more when the point was rerun. */
    public int attempts() {
        return reruns.size() + 1;
    }

    /**
     * Whether to run the point again, and why; its data must be valid. A busy-host rerun when it fell
     * short while other processes kept a host busy, while fewer than {@code busyHostReruns} were made;
     * else a baseline rerun when the baseline alone failed it, busy host or not, while fewer than
     * {@code baselineReruns} were made (a regression repeats, a blip does not). Each kind counts its
     * own reruns. Below a criterion on a quiet host, and data corruption anywhere, fail at once: a
     * criterion is a floor far under what the hardware does, not a neighbour's figure.
     */
    public Optional<RerunKind> rerunFor(int busyHostReruns, int baselineReruns) {
        if (!performanceOnly) {
            return Optional.empty();
        }
        if (hosts.busy() && made(RerunKind.BUSY_HOST) < busyHostReruns) {
            return Optional.of(RerunKind.BUSY_HOST);
        }
        if (baselineOnly && made(RerunKind.BASELINE) < baselineReruns) {
            return Optional.of(RerunKind.BASELINE);
        }
        return Optional.empty();
    }

    public boolean rerun(int busyHostReruns, int baselineReruns) {
        return rerunFor(busyHostReruns, baselineReruns).isPresent();
    }

    private long made(RerunKind kind) {
        return reruns.stream().filter(k -> k == kind).count();
    }

    /** Fails the point with its failure, of its kind, if it has one. */
    public void enforce() {
        if (failure.isPresent()) {
            throw new PointFailure(failureKind.orElseThrow(), failure.get());
        }
    }
}
