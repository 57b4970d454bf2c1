package dev.linkproof.profiles;

/**
 * Where a piece of a profile came from: a file (or built-in resource) with a 1-based line and
 * column, or a system property (line 0).
 */
public record Location(String source, int line, int column) {
    public static Location property(String key) {
        return new Location("property " + key, 0, 0);
    }

    public boolean hasLine() {
        return line > 0;
    }

    /** {@code profiles/cx7.yaml:12:5}, or {@code property linkproof.criteria.x.min-bandwidth}. */
    @Override
    public String toString() {
        return hasLine() ? source + ":" + line + ":" + column : source;
    }
}
