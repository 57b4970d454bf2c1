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

    /** What a tolerance may be written as, for error messages. */
    public static final String TOLERANCE_FORMS =
            "a fraction in [0, 1) such as 0.08, or a percentage below 100% such as 8%";

    /**
     * A tolerance written as a profile's {@code baseline.tolerance} is, so that
     * {@code -Dlinkproof.baseline.tolerance} takes the same forms ({@value #TOLERANCE_FORMS}): the
     * fraction, or empty when the text is not one of them or is out of range.
     */
    public static OptionalDouble parseTolerance(String text) {
        return ProfileUnits.tolerance(text);
    }
}
