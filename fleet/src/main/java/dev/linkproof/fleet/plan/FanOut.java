package dev.linkproof.fleet.plan;

import dev.linkproof.fleet.FleetConfigurationException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * {@code fan-out[:node][:batch=b]}: one initiator (the named node, or the first) toward every other
 * node, all at once, or at most b at once per round. Not disjoint, on purpose: the one-to-many load
 * on the initiator is what is measured.
 */
public record FanOut(Optional<String> source, OptionalInt batch) implements Pattern {
    public FanOut {
        if (batch.isPresent() && batch.getAsInt() < 1) {
            throw new FleetConfigurationException("fan-out needs a batch of at least 1, not " + batch.getAsInt());
        }
    }

    @Override
    public Plan plan(List<String> nodes) {
        List<String> checked = Plan.requireNodes(nodes);
        String hub = StarRounds.hub(spec(), source.orElse(null), checked);
        List<Round> rounds = StarRounds.rounds(hub, checked, batch.orElse(Integer.MAX_VALUE), n -> new Pair(hub, n));
        return new Plan(spec(), checked, Ways.ONE_WAY, rounds);
    }

    @Override
    public String spec() {
        return "fan-out" + source.map(t -> ":" + t).orElse("")
                + (batch.isPresent() ? ":batch=" + batch.getAsInt() : "");
    }
}
