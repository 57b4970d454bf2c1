package dev.linkproof.reports.fleet;

/**
 * Text made safe inside an SVG's elements and attribute values. Node names come from launchers and
 * point names from users; a character XML 1.0 cannot hold at all (most control characters) would
 * make the whole picture unreadable, so it becomes U+FFFD rather than being passed on.
 */
final class Xml {
    private Xml() {}

    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            i += Character.charCount(c);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&apos;");
                default -> {
                    boolean allowed = c == 0x9
                            || c == 0xA
                            || c == 0xD
                            || c >= 0x20 && c <= 0xD7FF
                            || c >= 0xE000 && c <= 0xFFFD
                            || c >= 0x10000;
                    b.appendCodePoint(allowed ? c : 0xFFFD);
                }
            }
        }
        return b.toString();
    }
}
