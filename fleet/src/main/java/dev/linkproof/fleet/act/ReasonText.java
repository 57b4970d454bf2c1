package dev.linkproof.fleet.act;

/**
 * A verdict's reason made fit for a drain reason: one line (sinfo -R prints it in a column), no
 * quotes or shell metacharacters (so its printed {@code reason="…"} form is exactly what an
 * operator may paste), and bounded (Slurm keeps the reason in its state and shows it everywhere).
 */
public final class ReasonText {
    /** Long enough for "bad-node: fails with 1020 of its 1020 partners (SLOW ×2041)", short enough for a column. */
    public static final int DEFAULT_MAX = 120;

    private ReasonText() {}

    /** {@code text} on one line, without {@code " ' ` $ \ !} or control characters, at most {@code max} characters. */
    public static String sanitise(String text, int max) {
        if (max < 4) {
            throw new IllegalArgumentException("a reason of fewer than 4 characters says nothing: " + max);
        }
        StringBuilder s = new StringBuilder(Math.min(text.length(), max + 1));
        boolean space = false;
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            boolean drop = Character.isISOControl(c)
                    || Character.isWhitespace(c)
                    || "\"'`$\\!".indexOf(c) >= 0
                    || Character.getType(c) == Character.LINE_SEPARATOR
                    || Character.getType(c) == Character.PARAGRAPH_SEPARATOR;
            if (drop) {
                space = s.length() > 0;
                continue;
            }
            if (space) {
                s.append(' ');
                space = false;
            }
            s.appendCodePoint(c);
        }
        if (s.codePointCount(0, s.length()) <= max) {
            return s.toString();
        }
        // Cut on a code point, and say it was cut.
        return s.substring(0, s.offsetByCodePoints(0, max - 3)).stripTrailing() + "...";
    }
}
