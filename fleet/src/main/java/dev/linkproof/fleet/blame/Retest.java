package dev.linkproof.fleet.blame;

import dev.linkproof.fleet.plan.Pair;
import java.util.List;

/**
 * One retest: {@code suspect}, a node of a failing pair, with a partner that passed everything, at
 * the points where the suspect failed. The suspect keeps the role it failed in (initiator or
 * target), so a node that is slow only when it sends is retested sending.
 *
 * @param failedWith the partners the suspect failed with in the first round
 */
public record Retest(Pair pair, String suspect, String partner, List<Point> points, List<String> failedWith) {
    public Retest {
        points = List.copyOf(points);
        failedWith = List.copyOf(failedWith);
    }
}
