package dev.linkproof.transfer.probe;

import java.util.List;
import java.util.Locale;

/**
 * One port of an RDMA device, from {@code /sys/class/infiniband/<dev>/ports/<n>}.
 *
 * @param number     1-based, as verbs counts
 * @param state      {@code state} without its number, e.g. {@code ACTIVE}; {@code physState} likewise
 * @param rateGbps   the Gb/s figure of {@code rate} ("400 Gb/sec (4X NDR)"); 0 when unknown
 * @param linkLayer  {@code InfiniBand} or {@code Ethernet}
 * @param gids       the populated GID table entries (all-zero entries are left out)
 */
public record RdmaPort(
        int number, String state, String physState, double rateGbps, String rate, String linkLayer, List<Gid> gids) {
    public RdmaPort {
        gids = List.copyOf(gids);
    }

    public boolean active() {
        return state.toUpperCase(Locale.ROOT).contains("ACTIVE");
    }
}
