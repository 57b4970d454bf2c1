package dev.linkproof.fleet.blame;

import java.util.List;

/**
 * What to run again before the verdicts, and in which rounds: the k-th run of every confirmation
 * of a point is packed with the others' k-th runs into disjoint rounds, so a pair's runs are
 * sequential while different pairs run side by side, as in the plan.
 */
public record ConfirmationPlan(List<Confirmation> confirmations, List<RerunRound> rounds) {
    public static final ConfirmationPlan NONE = new ConfirmationPlan(List.of(), List.of());

    public ConfirmationPlan {
        confirmations = List.copyOf(confirmations);
        rounds = List.copyOf(rounds);
    }

    public boolean isEmpty() {
        return confirmations.isEmpty();
    }

    /** How many pair runs the plan holds. */
    public int runs() {
        return confirmations.stream().mapToInt(Confirmation::runs).sum();
    }
}
