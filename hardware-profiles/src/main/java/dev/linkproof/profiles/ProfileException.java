package dev.linkproof.profiles;

/**
 * A profile that cannot be used: a YAML syntax error, an unknown key, a bad unit, an empty range,
 * overlapping criteria, a missing file. The message starts with where ({@code file:line:column})
 * and then says what is wrong, so a run can stop with it before any transfer.
 */
public final class ProfileException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient Location location;
    private final String problem;

    public ProfileException(Location location, String problem) {
        this(location, problem, null);
    }

    public ProfileException(Location location, String problem, Throwable cause) {
        super(location + ": " + problem, cause);
        this.location = location;
        this.problem = problem;
    }

    public Location location() {
        return location;
    }

    /** The file, resource or property the problem is in. */
    public String source() {
        return location.source();
    }

    /** 1-based; 0 where the source has no lines (a property). */
    public int line() {
        return location.line();
    }

    /** 1-based; 0 where the source has no lines. */
    public int column() {
        return location.column();
    }

    /** What is wrong, without the location. */
    public String problem() {
        return problem;
    }
}
