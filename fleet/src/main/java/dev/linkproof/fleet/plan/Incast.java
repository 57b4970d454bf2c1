package dev.linkproof.fleet.plan;

import dev.linkproof.fleet.FleetConfigurationException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * {@code incast[:node][:batch=b]}: every other node initiates toward one target (the named node, or
 * the first), all at once, or at most b at once per round. Its rounds are not disjoint, on purpose:
 * the many-to-one contention at the target is what is measured.
 */
public record Incast(Optional<String> target, OptionalInt batch) implements Pattern {
    public Incast {
        if (batch.isPresent() && batch.getAsInt() < 1) {
            throw new FleetConfigurationException("incast needs a batch of at least 1, not " + batch.getAsInt());
        }
    }

    @Override
    public Plan plan(List<String> nodes) {
        List<String> checked = Plan.requireNodes(nodes);
        String hub = StarRounds.hub(spec(), target.orElse(null), checked);
        List<Round> rounds = StarRounds.rounds(hub, checked, batch.orElse(Integer.MAX_VALUE), n -> new Pair(n, hub));
        return new Plan(spec(), checked, Ways.ONE_WAY, rounds);
    }

    @Override
    public String spec() {
        return "incast" + target.map(t -> ":" + t).orElse("") + (batch.isPresent() ? ":batch=" + batch.getAsInt() : "");
    }
}
