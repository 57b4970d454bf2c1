package dev.linkproof.profiles;

/**
 * The configuration keys {@link ProfileLoader} reads. The engine passes its configuration
 * parameters (which include {@code -D} system properties) as a plain map.
 */
public final class ProfileProperties {
    /**
     * Which profile: {@value #AUTO} (default: match the probe against the built-ins), a built-in id
     * ({@code cx7-400g}), or a path to a YAML file ({@code profiles/my-lab.yaml}; a value containing
     * {@code /} or ending in {@code .yaml}/{@code .yml} is a path, relative to the working directory).
     */
    public static final String PROFILE = "linkproof.profile";

    public static final String AUTO = "auto";

    /** Overlay files laid over the chosen profile, comma-separated, applied in order. */
    public static final String OVERLAY = "linkproof.profile.overlay";

    /**
     * {@code linkproof.criteria.<name>.<key>=<value>} changes one key of the criterion called
     * {@code <name>}, after every file: {@code -Dlinkproof.criteria.write-large.min-bandwidth=40GB/s},
     * {@code -Dlinkproof.criteria.write-large.enabled=false}. An empty value deletes the key.
     * {@code <key>} is any criterion key; lists are comma-separated ({@code op=write,read}).
     */
    public static final String CRITERIA_PREFIX = "linkproof.criteria.";

    /** The directory the probe reads as {@code /} (default {@code /}); for testing against a fake tree. */
    public static final String PROBE_ROOT = "linkproof.probe.root";

    private ProfileProperties() {}
}
