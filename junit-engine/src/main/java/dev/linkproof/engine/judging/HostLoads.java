package dev.linkproof.engine.judging;

import dev.linkproof.transfer.measure.HostContention;
import dev.linkproof.transfer.measure.Measurement;
import java.util.Optional;

/**
 * How busy other processes kept the hosts of a point's two ranks while it ran: the initiator's, as
 * this JVM measured it, and, with a peer on another host, the target's, as its agent reported on
 * release. An agent on this kernel (a local pair, or a peer started by hand on this host) shares
 * this host's CPUs, so its figure (which counts this JVM as "other") is left out and its process
 * counts as ours in the initiator's.
 */
public record HostLoads(Optional<HostContention> initiator, Optional<HostContention> target) {
    public static final HostLoads NONE = new HostLoads(Optional.empty(), Optional.empty());

    /** The loads of a measured point; {@code remote}: the target runs on another kernel. */
    public static HostLoads of(Optional<HostContention> initiator, Measurement m, boolean remote) {
        return new HostLoads(initiator, remote ? m.targetHost() : Optional.empty());
    }

    /** Either host was busy ({@link HostContention#busy()}). */
    public boolean busy() {
        return initiator.map(HostContention::busy).orElse(false)
                || target.map(HostContention::busy).orElse(false);
    }

    /** Nothing was measured on either host (no {@code /proc}). */
    public boolean isEmpty() {
        return initiator.isEmpty() && target.isEmpty();
    }

    /**
     * "other processes used 1.18 of 2 CPUs (ours 0.83) over 592 ms" for a local pair; with a target
     * figure, each prefixed by its rank: "initiator: …; target: …" (or "target: …" alone).
     */
    public String describe() {
        if (target.isEmpty()) {
            return initiator.map(HostContention::describe).orElse("not measured");
        }
        return initiator.map(h -> "initiator: " + h.describe() + "; ").orElse("") + "target: "
                + target.get().describe();
    }
}
