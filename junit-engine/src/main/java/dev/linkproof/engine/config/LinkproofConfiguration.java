package dev.linkproof.engine.config;

import dev.linkproof.profiles.BaselineSettings;
import dev.linkproof.transfer.Deadline;
import dev.linkproof.transfer.session.Timeouts;
import dev.linkproof.transfer.spi.IoSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Supplier;
import org.junit.platform.engine.ConfigurationParameters;

/**
 * The engine's settings, read once from the configuration parameters: each component is its key's value
 * ({@link ConfigurationKeys} says what each key does), empty when the key is not given.
 *
 * @param verbsDevice {@code linkproof.verbs.device}, else the {@code LINKPROOF_VERBS_DEVICE} environment variable
 * @param eachNic     {@code linkproof.nics=each}; {@code eachGpu} is {@code linkproof.gpus=each}
 * @param rails       {@code linkproof.rails} (0: every rail the profile resolves); empty: as annotated
 * @param bothWays    {@code linkproof.direction}: true both ways, false one way; empty: as annotated
 */
public record LinkproofConfiguration(
        Optional<dev.linkproof.transfer.control.HostPort> peer,
        Optional<String> token,
        String defaultTransport,
        double iterationScale,
        Timeouts timeouts,
        List<String> agentJvmArgs,
        Path agentLog,
        boolean progress,
        Path results,
        Optional<Path> baseline,
        OptionalDouble baselineTolerance,
        Optional<String> verbsDevice,
        int busyHostReruns,
        int baselineReruns,
        boolean requireProfileMatch,
        boolean eachNic,
        boolean eachGpu,
        Optional<Duration> duration,
        java.util.OptionalInt rails,
        List<TcpRail> tcpRails,
        Optional<Boolean> bothWays,
        Optional<FleetSettings> fleet,
        java.util.Map<String, String> profileProperties,
        PrometheusSettings prometheus) {

    /** The tolerance when neither the command line nor the profile sets one: 5 %. */
    public static final double DEFAULT_BASELINE_TOLERANCE = 0.05;
    /** Reruns of a point judged on a busy host: one confirms or clears it; more rarely change the verdict. */
    public static final int DEFAULT_BUSY_HOST_RERUNS = 1;
    /** Reruns of a point that regressed against its baseline: one tells a regression from a blip. */
    public static final int DEFAULT_BASELINE_RERUNS = 1;

    static final int MAX_RERUNS = 5;

    /**
     * Reads every key; the first bad value throws {@link IllegalArgumentException} naming the key
     * (all bad values, joined with "; ").
     */
    public static LinkproofConfiguration from(ConfigurationParameters p) {
        Parsed parsed = parse(p);
        if (!parsed.errors().isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", parsed.errors()));
        }
        return parsed.config();
    }

    /**
     * A configuration and what was wrong with it: every key that has a bad value is named in
     * {@code errors} (one message each, "key=value must be ...") and read as its default. The engine
     * discovers with it, so a bad value never aborts discovery (Surefire would show only "failed to
     * discover tests" and leave the cause in a dump file), and fails the run on it before any point
     * runs, with the message on the console.
     */
    public record Parsed(LinkproofConfiguration config, List<String> errors) {
        public Parsed {
            errors = List.copyOf(errors);
        }
    }

    public static Parsed parse(ConfigurationParameters p) {
        return parse(p, fallbackOutputRoot());
    }

    /**
     * Where a run's files go when no key names them (the results, a local agent's log, the fleet's
     * verdicts) when the launcher gives no output directory: JUnit's own default, {@code target/}
     * where there is one, else the working directory.
     */
    public static Path fallbackOutputRoot() {
        return Files.isDirectory(Path.of("target")) ? Path.of("target") : Path.of("");
    }

    /**
     * Every key, with the files no key names under {@code outputRoot}: the platform's output
     * directory ({@code junit.platform.reporting.output.dir}; by JUnit's default {@code target/}
     * under Maven, else the working directory), where JUnit's own reports go too.
     */
    public static Parsed parse(ConfigurationParameters p, Path outputRoot) {
        List<String> errors = new ArrayList<>(KnownKeys.unknown(p));
        Reader r = new Reader(p, errors);
        Duration progress = r.get(ConfigurationKeys.TIMEOUT_PROGRESS, Duration.ofSeconds(10));
        // The agent applies the progress deadline to its side too (HELLO carries it), and refuses more than its limit.
        Timeouts t = new Timeouts(
                r.get(ConfigurationKeys.TIMEOUT_AGENT_START, Duration.ofSeconds(30)),
                r.get(ConfigurationKeys.TIMEOUT_CONTROL, Duration.ofSeconds(30)),
                new IoSettings(progress, progress));
        String jvm = r.get(ConfigurationKeys.AGENT_JVM_ARGS, Constants.DEFAULT_AGENT_JVM_ARGS);
        LinkproofConfiguration config = new LinkproofConfiguration(
                r.optional(ConfigurationKeys.PEER),
                r.optional(ConfigurationKeys.TOKEN),
                r.get(ConfigurationKeys.TRANSPORT, Constants.DEFAULT_TRANSPORT),
                r.get(ConfigurationKeys.ITERATIONS_SCALE, 1.0),
                t,
                jvm.isEmpty() ? List.of() : Arrays.asList(jvm.split("\\s+")),
                r.optional(ConfigurationKeys.AGENT_LOG).orElse(outputRoot.resolve("linkproof-agent.log")),
                r.get(ConfigurationKeys.PROGRESS, true),
                r.optional(ConfigurationKeys.RESULTS).orElse(outputRoot.resolve("linkproof-results.jsonl")),
                r.optional(ConfigurationKeys.BASELINE),
                r.optional(ConfigurationKeys.BASELINE_TOLERANCE)
                        .map(OptionalDouble::of)
                        .orElse(OptionalDouble.empty()),
                r.optional(ConfigurationKeys.VERBS_DEVICE)
                        .or(() -> Optional.ofNullable(System.getenv(Constants.VERBS_DEVICE_ENV))
                                .map(String::strip)
                                .filter(s -> !s.isEmpty())),
                r.get(ConfigurationKeys.BUSY_HOST_RERUNS, DEFAULT_BUSY_HOST_RERUNS),
                r.get(ConfigurationKeys.BASELINE_RERUNS, DEFAULT_BASELINE_RERUNS),
                r.get(ConfigurationKeys.REQUIRE_PROFILE_MATCH, false),
                r.get(ConfigurationKeys.NICS, false),
                r.get(ConfigurationKeys.GPUS, false),
                r.optional(ConfigurationKeys.DURATION),
                r.optional(ConfigurationKeys.RAILS)
                        .map(java.util.OptionalInt::of)
                        .orElse(java.util.OptionalInt.empty()),
                r.get(ConfigurationKeys.TCP_RAILS, List.of()),
                r.optional(ConfigurationKeys.DIRECTION),
                r.read(() -> FleetSettings.parse(p, outputRoot), Optional.empty()),
                profileProperties(p),
                PrometheusSettings.parse(p, errors));
        if (config.fleet().isPresent() && config.peer().isPresent()) {
            errors.add(Constants.FLEET + " runs every point between the fleet's agents, and " + Constants.PEER
                    + " names one target: give one or the other");
        }
        if (config.eachNic() && config.verbsDevice().isPresent()) {
            // Both name the device: which one a point ran on would be a guess.
            errors.add(Constants.NICS + "=each runs every verbs point on each RDMA device the profile resolves, and "
                    + (p.get(Constants.VERBS_DEVICE).isPresent() ? Constants.VERBS_DEVICE : Constants.VERBS_DEVICE_ENV)
                    + "=" + config.verbsDevice().get() + " names one: give one or the other");
        }
        return new Parsed(config, errors);
    }

    /**
     * Reads keys through their registry entries, collecting errors: a key with a bad value adds its
     * message and reads as its default, so that one run reports every bad key at once.
     */
    record Reader(ConfigurationParameters p, List<String> errors) {
        <T> T get(Key<T> key, T fallback) {
            return optional(key).orElse(fallback);
        }

        <T> Optional<T> optional(Key<T> key) {
            return read(() -> key.read(p), Optional.empty());
        }

        <T> T read(Supplier<T> parse, T fallback) {
            try {
                return parse.get();
            } catch (IllegalArgumentException e) {
                errors.add(e.getMessage());
                return fallback;
            }
        }
    }

    /**
     * The allowed regression against a baseline, by precedence: built-in default
     * ({@value #DEFAULT_BASELINE_TOLERANCE}) &lt; the profile's {@code baseline.tolerance} &lt;
     * {@code -Dlinkproof.baseline.tolerance}.
     */
    public double baselineTolerance(OptionalDouble profile) {
        if (baselineTolerance.isPresent()) {
            return baselineTolerance.getAsDouble();
        }
        return profile.orElse(DEFAULT_BASELINE_TOLERANCE);
    }

    /**
     * What a failure whose cause is a deadline that ran out ({@link Deadline#thatExpired}) adds to its
     * message: the key that sets it, with its value as it can be given back, and when to raise it:
     * {@code " [deadline: linkproof.timeout.control=30s; raise it if the target agent is slow rather than gone]"}.
     * Empty for every other failure.
     */
    public String deadlineNote(Throwable failure) {
        return dev.linkproof.transfer.session.DeadlineNote.of(
                failure,
                timeouts,
                d -> java.util.Optional.of(
                        switch (d) {
                            case AGENT_START -> Constants.TIMEOUT_AGENT_START;
                            case CONTROL, RAIL_START -> Constants.TIMEOUT_CONTROL;
                            case PROGRESS, DATA_CONNECT -> Constants.TIMEOUT_PROGRESS;
                        }));
    }

    /** Every {@code linkproof.profile*}, {@code linkproof.criteria.*} and {@code linkproof.probe.*} key, for the profile loader. */
    static java.util.Map<String, String> profileProperties(ConfigurationParameters p) {
        java.util.Map<String, String> out = new java.util.TreeMap<>();
        java.util.Set<String> keys = new java.util.TreeSet<>(p.keySet());
        keys.addAll(System.getProperties().stringPropertyNames());
        for (String k : keys) {
            if (k.startsWith("linkproof.profile")
                    || k.startsWith("linkproof.criteria.")
                    || k.startsWith("linkproof.probe.")) {
                p.get(k).or(() -> Optional.ofNullable(System.getProperty(k))).ifPresent(v -> out.put(k, v));
            }
        }
        return out;
    }

    /** The most rails a point may run at once: more NICs than any node has, fewer threads than would hurt. */
    public static final int MAX_RAILS = 64;

    /** {@link ConfigurationKeys#BASELINE_TOLERANCE}'s type: the forms a profile's {@code baseline.tolerance} takes. */
    static double tolerance(String v) {
        return BaselineSettings.parseTolerance(v)
                .orElseThrow(() -> new IllegalArgumentException("must be " + BaselineSettings.TOLERANCE_FORMS));
    }

    /** {@link ConfigurationKeys#RAILS}'s type: {@code all} → 0 (every rail the profile resolves), else a count. */
    static int rails(String v) {
        String s = v.toLowerCase(Locale.ROOT);
        if (s.equals("all")) {
            return 0;
        }
        try {
            int n = Integer.parseInt(s);
            if (n >= 1 && n <= MAX_RAILS) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(
                "must be all (every rail the profile resolves) or a count from 1 to " + MAX_RAILS);
    }
}
