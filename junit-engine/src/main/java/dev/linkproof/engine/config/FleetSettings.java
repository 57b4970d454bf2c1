package dev.linkproof.engine.config;

import dev.linkproof.fleet.blame.Thresholds;
import dev.linkproof.profiles.FleetCriteria;
import dev.linkproof.transfer.Units;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.platform.engine.ConfigurationParameters;

/**
 * A fleet run's keys ({@code linkproof.fleet.*}), read with the rest of the configuration; present
 * only when {@code linkproof.fleet} is set.
 *
 * @param launcher       who is expected, as {@link Constants#FLEET} gives it ({@code slurm}, {@code hostfile:PATH}, …)
 * @param registryHost   where the registry listens
 * @param registryPort   its port (0: any free one, for tests that give agents the port afterwards)
 * @param pattern        {@link Constants#FLEET_PATTERN}'s value, parsed at discovery
 * @param registerWithin how long the registry waits for the expected nodes
 * @param act            what to do about blamed nodes: empty (nothing), {@code slurm}, {@code kubernetes}, {@code print}
 * @param verdictFile    where fleet-verdict.json goes
 * @param minOfMedian    {@link Constants#FLEET_MIN_OF_MEDIAN}, when given: over the profile's, over the default
 * @param maxOfLowest    {@link Constants#FLEET_MAX_OF_LOWEST}, when given
 */
public record FleetSettings(String launcher, String registryHost, int registryPort, String pattern, Duration registerWithin,
                            Optional<String> act, Path verdictFile, java.util.OptionalDouble minOfMedian,
                            java.util.OptionalDouble maxOfLowest) {
    public static final Duration DEFAULT_REGISTER_WITHIN = Duration.ofSeconds(60);
    static final List<String> ACTS = List.of("slurm", "kubernetes", "print");

    /** The fleet keys, or empty without {@code linkproof.fleet}; a bad value throws naming its key. */
    static Optional<FleetSettings> parse(ConfigurationParameters p) {
        Optional<String> launcher = p.get(Constants.FLEET).map(String::strip).filter(s -> !s.isEmpty());
        if (launcher.isEmpty()) {
            return Optional.empty();
        }
        String registry = p.get(Constants.FLEET_REGISTRY).map(String::strip).orElse(Constants.DEFAULT_FLEET_REGISTRY);
        int colon = registry.lastIndexOf(':');
        if (colon <= 0 || colon == registry.length() - 1) {
            throw new IllegalArgumentException(Constants.FLEET_REGISTRY + "=" + registry + " must be host:port (e.g. "
                    + Constants.DEFAULT_FLEET_REGISTRY + ")");
        }
        int port;
        try {
            port = Integer.parseInt(registry.substring(colon + 1));
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(Constants.FLEET_REGISTRY + "=" + registry + ": the port must be 0..65535");
        }
        Duration within = LinkproofConfiguration.deadline(p, Constants.FLEET_REGISTER_WITHIN, DEFAULT_REGISTER_WITHIN,
                "the longest deadline");
        Optional<String> act = p.get(Constants.FLEET_ACT).map(v -> v.strip().toLowerCase(Locale.ROOT)).filter(v -> !v.isEmpty());
        if (act.isPresent() && !ACTS.contains(act.get())) {
            throw new IllegalArgumentException(Constants.FLEET_ACT + "=" + act.get() + " must be one of " + String.join(", ", ACTS)
                    + " (or unset: act on nothing)");
        }
        Path verdict = p.get(Constants.FLEET_VERDICT).map(Path::of).orElseGet(() -> Files.isDirectory(Path.of("target"))
                ? Path.of("target", "fleet-verdict.json") : Path.of("fleet-verdict.json"));
        java.util.OptionalDouble fraction = p.get(Constants.FLEET_MIN_OF_MEDIAN)
                .map(v -> java.util.OptionalDouble.of(number(Constants.FLEET_MIN_OF_MEDIAN, v))).orElse(java.util.OptionalDouble.empty());
        java.util.OptionalDouble multiple = p.get(Constants.FLEET_MAX_OF_LOWEST)
                .map(v -> java.util.OptionalDouble.of(number(Constants.FLEET_MAX_OF_LOWEST, v))).orElse(java.util.OptionalDouble.empty());
        FleetSettings settings = new FleetSettings(launcher.get(), registry.substring(0, colon), port,
                p.get(Constants.FLEET_PATTERN).map(String::strip).filter(s -> !s.isEmpty()).orElse("pairwise"), within, act,
                verdict, fraction, multiple);
        settings.thresholds(FleetCriteria.NONE); // a key out of range fails here, naming it
        return Optional.of(settings);
    }

    /**
     * The fleet-relative criteria as the run applies them: each key when given, else the profile's
     * {@code fleet} section, else NVIDIA ClusterKit's (0.93 of the median bandwidth, 2.1 × the lowest latency).
     */
    public Thresholds thresholds(FleetCriteria profile) {
        double fraction = minOfMedian.isPresent() ? minOfMedian.getAsDouble()
                : profile.minOfMedianBandwidth().orElse(Thresholds.CLUSTERKIT.bandwidthFraction());
        double multiple = maxOfLowest.isPresent() ? maxOfLowest.getAsDouble()
                : profile.maxOfLowestLatency().orElse(Thresholds.CLUSTERKIT.latencyMultiple());
        try {
            return new Thresholds(fraction, multiple);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(Constants.FLEET_MIN_OF_MEDIAN + " / " + Constants.FLEET_MAX_OF_LOWEST + ": "
                    + e.getMessage());
        }
    }

    private static double number(String key, String v) {
        try {
            return Double.parseDouble(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + "=" + v + " is not a number");
        }
    }

    /** As the settings read back in a log line. */
    public String describe() {
        return Constants.FLEET + "=" + launcher + ", " + Constants.FLEET_PATTERN + "=" + pattern + ", registry "
                + registryHost + ":" + registryPort + ", nodes register within " + Units.formatDuration(registerWithin);
    }
}
