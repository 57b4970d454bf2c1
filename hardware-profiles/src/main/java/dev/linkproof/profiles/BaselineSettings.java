package dev.linkproof.profiles;

import java.util.OptionalDouble;

/**
 * How a run on this profile compares with a baseline run ({@code linkproof.baseline}).
 *
 * @param tolerance allowed regression as a fraction (0.08 = a point may be 8 % slower than the
 *                  baseline's); empty = the engine's default. {@code -Dlinkproof.baseline.tolerance}
 *                  still overrides it.
 */
public record BaselineSettings(OptionalDouble tolerance) {
    public static final BaselineSettings NONE = new BaselineSettings(OptionalDouble.empty());
}
