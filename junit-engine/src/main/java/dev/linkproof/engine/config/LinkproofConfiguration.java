package dev.linkproof.engine.config;

import dev.linkproof.profiles.BaselineSettings;
import dev.linkproof.transfer.Deadline;
import dev.linkproof.transfer.Units;
import dev.linkproof.transfer.control.Messages;
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
 * The engine's settings, read once from the configuration parameters (see {@link Constants}).
 *
 * @param baselineTolerance {@code linkproof.baseline.tolerance} when given; see {@link #baselineTolerance(OptionalDouble)}
 * @param verbsDevice       {@code linkproof.verbs.device}, else the {@code LINKPROOF_VERBS_DEVICE} environment variable
 * @param busyHostReruns    {@code linkproof.busyHost.reruns}: reruns of a point that fell below a performance
 *                          criterion while other processes kept a host busy
 * @param baselineReruns    {@code linkproof.baseline.reruns}: reruns of a point whose only failure is a
 *                          regression against the baseline
 * @param requireProfileMatch {@code linkproof.requireProfileMatch}: a fallback profile on a host with RDMA
 *                          devices or GPUs stops the run
 * @param eachNic           {@code linkproof.nics=each}: a verbs point runs once per RDMA device the profile
 *                          resolves, not only on the first
 * @param eachGpu           {@code linkproof.gpus=each}: a GPU-memory point runs once per GPU the profile
 *                          provides, its GPU indices shifted, not only on the GPUs it names
 * @param duration          {@code linkproof.duration}: how long each point runs, when not for its count of iterations
 * @param rails             {@code linkproof.rails}: the rails every RDMA point runs at once, whatever its
 *                          annotation says (0 = every rail the profile resolves); empty: as annotated
 * @param tcpRails          {@code linkproof.tcp.rails}: the address pairs tcp rails run on, one per rail
 * @param bothWays          {@code linkproof.direction}: every RDMA point both ways (true) or one way (false),
 *                          whatever its annotation says; empty: as annotated
 * @param fleet             {@code linkproof.fleet.*}: a fleet run's settings; empty for a run of one pair
 * @param prometheus        {@code linkproof.prometheus.*}: where the run's metrics go besides fleet.prom
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
        List<String> errors = new ArrayList<>(KnownKeys.unknown(p));
        double scale = read(errors, () -> p.get(Constants.ITERATIONS_SCALE).map(v -> parseScale(v)).orElse(1.0), 1.0);
        // The agent applies the progress deadline to its side too (HELLO carries it), and refuses more than its limit.
        Duration progress = read(errors, () -> deadline(p, Constants.TIMEOUT_PROGRESS, Duration.ofSeconds(10), "the agent accepts"),
                Duration.ofSeconds(10));
        Timeouts t = new Timeouts(
                read(errors, () -> deadline(p, Constants.TIMEOUT_AGENT_START, Duration.ofSeconds(30), "the longest deadline"),
                        Duration.ofSeconds(30)),
                read(errors, () -> deadline(p, Constants.TIMEOUT_CONTROL, Duration.ofSeconds(30), "the longest deadline"),
                        Duration.ofSeconds(30)),
                new IoSettings(progress, progress));
        String jvm = p.get(Constants.AGENT_JVM_ARGS).orElse(Constants.DEFAULT_AGENT_JVM_ARGS).trim();
        Path log = p.get(Constants.AGENT_LOG).map(Path::of)
                .orElseGet(() -> Files.isDirectory(Path.of("target")) ? Path.of("target", "linkproof-agent.log")
                        : Path.of(System.getProperty("java.io.tmpdir"), "linkproof-agent.log"));
        LinkproofConfiguration config = new LinkproofConfiguration(
                // A malformed address is a configuration error before anything runs, not a peer
                // failure of every point; without a port, the agent's default port.
                read(errors, () -> p.get(Constants.PEER).filter(s -> !s.isBlank()).map(s -> peer(s)), Optional.empty()),
                p.get(Constants.TOKEN).filter(s -> !s.isBlank()),
                p.get(Constants.TRANSPORT).filter(s -> !s.isBlank()).orElse(Constants.DEFAULT_TRANSPORT),
                scale, t,
                jvm.isEmpty() ? List.of() : Arrays.asList(jvm.split("\\s+")),
                log,
                p.getBoolean(Constants.PROGRESS).orElse(true),
                p.get(Constants.RESULTS).map(Path::of).orElseGet(() -> Files.isDirectory(Path.of("target"))
                        ? Path.of("target", "linkproof-results.jsonl") : Path.of("linkproof-results.jsonl")),
                p.get(Constants.BASELINE).filter(s -> !s.isBlank()).map(Path::of),
                read(errors, () -> p.get(Constants.BASELINE_TOLERANCE).map(v -> OptionalDouble.of(parseTolerance(v)))
                        .orElse(OptionalDouble.empty()), OptionalDouble.empty()),
                p.get(Constants.VERBS_DEVICE).or(() -> Optional.ofNullable(System.getenv(Constants.VERBS_DEVICE_ENV)))
                        .map(String::strip).filter(s -> !s.isEmpty()),
                read(errors, () -> p.get(Constants.BUSY_HOST_RERUNS).map(v -> parseReruns(Constants.BUSY_HOST_RERUNS, v))
                        .orElse(DEFAULT_BUSY_HOST_RERUNS), DEFAULT_BUSY_HOST_RERUNS),
                read(errors, () -> p.get(Constants.BASELINE_RERUNS).map(v -> parseReruns(Constants.BASELINE_RERUNS, v))
                        .orElse(DEFAULT_BASELINE_RERUNS), DEFAULT_BASELINE_RERUNS),
                read(errors, () -> p.get(Constants.REQUIRE_PROFILE_MATCH).map(v -> strictBoolean(Constants.REQUIRE_PROFILE_MATCH, v))
                        .orElse(false), false),
                read(errors, () -> p.get(Constants.NICS).map(v -> parseEach(Constants.NICS, v,
                        "the profile's first RDMA device", "every RDMA device the profile resolves, a point per device"))
                        .orElse(false), false),
                read(errors, () -> p.get(Constants.GPUS).map(v -> parseEach(Constants.GPUS, v,
                        "the GPUs a test names", "every GPU the profile provides, a point per GPU"))
                        .orElse(false), false),
                read(errors, () -> p.get(Constants.DURATION).isEmpty() ? Optional.<Duration>empty()
                        : Optional.of(deadline(p, Constants.DURATION, Duration.ZERO, "the longest run of a point")), Optional.empty()),
                read(errors, () -> p.get(Constants.RAILS).map(v -> java.util.OptionalInt.of(parseRails(v)))
                        .orElse(java.util.OptionalInt.empty()), java.util.OptionalInt.empty()),
                read(errors, () -> p.get(Constants.TCP_RAILS).map(v -> TcpRail.parseList(Constants.TCP_RAILS, v))
                        .orElse(List.of()), List.of()),
                read(errors, () -> p.get(Constants.DIRECTION).map(v -> Optional.of(parseDirection(v))).orElse(Optional.empty()),
                        Optional.empty()),
                read(errors, () -> FleetSettings.parse(p), Optional.empty()),
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

    /** One key's value, or {@code fallback} with the key's message added to {@code errors}. */
    private static dev.linkproof.transfer.control.HostPort peer(String value) {
        try {
            return dev.linkproof.transfer.control.HostPort.parse(value,
                    java.util.OptionalInt.of(dev.linkproof.transfer.control.HostPort.AGENT_PORT), 1);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(Constants.PEER + "=" + e.getMessage()
                    + "; the agent prints its port when it starts", e);
        }
    }

    private static <T> T read(List<String> errors, Supplier<T> parse, T fallback) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            errors.add(e.getMessage());
            return fallback;
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
        return dev.linkproof.transfer.session.DeadlineNote.of(failure, timeouts, d -> java.util.Optional.of(switch (d) {
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
            if (k.startsWith("linkproof.profile") || k.startsWith("linkproof.criteria.") || k.startsWith("linkproof.probe.")) {
                p.get(k).or(() -> Optional.ofNullable(System.getProperty(k))).ifPresent(v -> out.put(k, v));
            }
        }
        return out;
    }

    /** The forms a profile's {@code baseline.tolerance} takes: {@code 0.08} or {@code 8%}, in [0, 1). */
    private static double parseTolerance(String v) {
        return BaselineSettings.parseTolerance(v).orElseThrow(() -> new IllegalArgumentException(
                Constants.BASELINE_TOLERANCE + "=" + v + " must be " + BaselineSettings.TOLERANCE_FORMS));
    }

    /** {@code each} → true, {@code first} → false; anything else names the key and what each value means. */
    private static boolean parseEach(String key, String v, String first, String each) {
        return switch (v.strip().toLowerCase(Locale.ROOT)) {
            case "each" -> true;
            case "first" -> false;
            default -> throw new IllegalArgumentException(key + "=" + v + " must be first (" + first + ", the default) or each ("
                    + each + ")");
        };
    }

    /** {@code all} → 0 (every rail the profile resolves), else a count from 1 to {@link #MAX_RAILS}. */
    private static int parseRails(String v) {
        String s = v.strip().toLowerCase(Locale.ROOT);
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
        throw new IllegalArgumentException(Constants.RAILS + "=" + v + " must be all (every rail the profile resolves) or a "
                + "count from 1 to " + MAX_RAILS);
    }

    /** {@code both-ways} → true, {@code one-way} → false. */
    private static boolean parseDirection(String v) {
        return switch (v.strip().toLowerCase(Locale.ROOT)) {
            case "both-ways" -> true;
            case "one-way" -> false;
            default -> throw new IllegalArgumentException(Constants.DIRECTION + "=" + v + " must be one-way or both-ways");
        };
    }

    /** The most rails a point may run at once: more NICs than any node has, fewer threads than would hurt. */
    public static final int MAX_RAILS = 64;

    /** {@code true} or {@code false}, nothing else ("yes" would silently read as false). */
    private static boolean strictBoolean(String key, String v) {
        return switch (v.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(key + "=" + v + " must be true or false");
        };
    }

    private static int parseReruns(String key, String v) {
        try {
            int n = Integer.parseInt(v.strip());
            if (n >= 0 && n <= MAX_RERUNS) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(key + "=" + v + " must be a whole number from 0 to " + MAX_RERUNS);
    }

    private static double parseScale(String v) {
        try {
            double d = Double.parseDouble(v);
            if (d > 0 && d <= 1000) {
                return d;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(Constants.ITERATIONS_SCALE + "=" + v + " must be a number in (0, 1000]");
    }

    /** The longest deadline a key may set, as the agent's limit on the progress deadline is. */
    static final Duration MAX_DEADLINE = Duration.ofMillis(Messages.Hello.MAX_PROGRESS_TIMEOUT_MILLIS);

    /**
     * A {@link #duration} of at most {@link #MAX_DEADLINE}: socket timeouts are int milliseconds, so
     * {@code PT1000H} would wrap to a negative one and fail somewhere far from the key that set it.
     * {@code limit} names the bound in the error ("is more than the agent accepts (PT1H)").
     */
    static Duration deadline(ConfigurationParameters p, String key, Duration fallback, String limit) {
        Duration d = duration(p, key, fallback);
        if (d.toMillis() > MAX_DEADLINE.toMillis()) {
            throw new IllegalArgumentException(key + "=" + p.get(key).orElseThrow() + " is more than " + limit + " ("
                    + MAX_DEADLINE + ")");
        }
        return d;
    }

    /** The key's duration in the one grammar of engine and command line ({@link Units#parseDuration}), else {@code fallback}. */
    static Duration duration(ConfigurationParameters p, String key, Duration fallback) {
        Optional<String> v = p.get(key);
        if (v.isEmpty()) {
            return fallback;
        }
        try {
            return Units.parseDuration(v.get());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + "=" + v.get() + " is not a duration (e.g. 10s, 500ms, PT1M)");
        }
    }
}
