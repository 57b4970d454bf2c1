package dev.linkproof.engine.config;

import dev.linkproof.fleet.act.ActAfter;
import dev.linkproof.fleet.blame.BlameSettings;
import dev.linkproof.fleet.blame.Thresholds;
import dev.linkproof.fleet.campaign.CampaignSettings;
import dev.linkproof.fleet.campaign.FleetPlan;
import dev.linkproof.profiles.FleetCriteria;
import dev.linkproof.transfer.Units;
import dev.linkproof.transfer.control.HostPort;
import dev.linkproof.transfer.session.Timeouts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.function.Function;
import org.junit.platform.engine.ConfigurationParameters;

/**
 * A fleet run's keys, present only when {@code linkproof.fleet} is set. Each verdict setting ({@code keys}) is the
 * key when given, else the profile's {@code fleet} section, else {@link BlameSettings#DEFAULTS} or {@link ActAfter#DEFAULT}.
 *
 * @param launcher     who is expected, as {@link Constants#FLEET} gives it ({@code slurm}, {@code hostfile:PATH}, …)
 * @param registryPort 0: any free one, for tests that give agents the port afterwards
 * @param act          what to do about blamed nodes: empty (nothing), {@code slurm}, {@code kubernetes}, {@code print}
 * @param history      where earlier verdict documents are kept and this run's goes, when given
 */
public record FleetSettings(
        String launcher,
        String registryHost,
        int registryPort,
        String pattern,
        Duration registerWithin,
        Optional<String> act,
        Path verdictFile,
        Optional<Path> history,
        FleetCriteria keys) {
    public static final Duration DEFAULT_REGISTER_WITHIN = Duration.ofSeconds(60);

    /** The fleet keys, or empty without {@code linkproof.fleet}; a bad value throws naming its key. */
    static Optional<FleetSettings> parse(ConfigurationParameters p, Path outputRoot) {
        Optional<String> launcher = ConfigurationKeys.FLEET.read(p);
        if (launcher.isEmpty()) {
            return Optional.empty();
        }
        HostPort listen = ConfigurationKeys.FLEET_REGISTRY
                .read(p)
                .orElseGet(() -> HostPort.parse(Constants.DEFAULT_FLEET_REGISTRY));
        Duration within = ConfigurationKeys.FLEET_REGISTER_WITHIN.read(p).orElse(DEFAULT_REGISTER_WITHIN);
        Optional<String> act = ConfigurationKeys.FLEET_ACT.read(p);
        Path verdict = ConfigurationKeys.FLEET_VERDICT.read(p).orElse(outputRoot.resolve("fleet-verdict.json"));
        Optional<Path> history = ConfigurationKeys.FLEET_HISTORY.read(p);
        FleetCriteria keys = new FleetCriteria(
                decimal(p, ConfigurationKeys.FLEET_MIN_OF_MEDIAN),
                decimal(p, ConfigurationKeys.FLEET_MAX_OF_LOWEST),
                decimal(p, ConfigurationKeys.FLEET_MAX_DEVIATIONS),
                whole(p, ConfigurationKeys.FLEET_MIN_NODES),
                whole(p, ConfigurationKeys.FLEET_MIN_PAIRS),
                whole(p, ConfigurationKeys.FLEET_CONFIRMATIONS),
                decimal(p, ConfigurationKeys.FLEET_MAX_BLAMED_FRACTION),
                ConfigurationKeys.FLEET_ACT_AFTER.read(p));
        FleetSettings settings = new FleetSettings(
                launcher.get(),
                listen.host(),
                listen.port(),
                ConfigurationKeys.FLEET_PATTERN.read(p).orElse("pairwise"),
                within,
                act,
                verdict,
                history,
                keys);
        // A key out of range fails here, naming it; the defaults fill in every other field.
        Thresholds t = BlameSettings.DEFAULTS.thresholds();
        BlameSettings d = BlameSettings.DEFAULTS;
        check(Constants.FLEET_MIN_OF_MEDIAN, keys.minOfMedianBandwidth(), v -> t.withRatios(v, t.latencyMultiple()));
        check(Constants.FLEET_MAX_OF_LOWEST, keys.maxOfLowestLatency(), v -> t.withRatios(t.bandwidthFraction(), v));
        check(
                Constants.FLEET_MAX_DEVIATIONS,
                keys.maxDeviations(),
                v -> new Thresholds(t.bandwidthFraction(), t.latencyMultiple(), v, t.minNodes(), t.minPairs()));
        check(
                Constants.FLEET_MIN_NODES,
                asDouble(keys.minNodes()),
                v -> new Thresholds(
                        t.bandwidthFraction(), t.latencyMultiple(), t.maxDeviations(), (int) v, t.minPairs()));
        check(
                Constants.FLEET_MIN_PAIRS,
                asDouble(keys.minPairs()),
                v -> new Thresholds(
                        t.bandwidthFraction(), t.latencyMultiple(), t.maxDeviations(), t.minNodes(), (int) v));
        check(
                Constants.FLEET_CONFIRMATIONS,
                asDouble(keys.confirmations()),
                v -> new BlameSettings(t, (int) v, d.maxBlamedFraction(), d.evidenceLimit()));
        check(
                Constants.FLEET_MAX_BLAMED_FRACTION,
                keys.maxBlamedFraction(),
                v -> new BlameSettings(t, d.confirmations(), v, d.evidenceLimit()));
        settings.actAfter(FleetCriteria.NONE);
        return Optional.of(settings);
    }

    private static void check(String key, OptionalDouble value, java.util.function.DoubleConsumer build) {
        if (value.isPresent()) {
            try {
                build.accept(value.getAsDouble());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(key + "="
                        + (value.getAsDouble() == Math.rint(value.getAsDouble())
                                ? String.valueOf((long) value.getAsDouble())
                                : String.valueOf(value.getAsDouble()))
                        + ": " + e.getMessage());
            }
        }
    }

    private static OptionalDouble asDouble(OptionalInt v) {
        return v.isPresent() ? OptionalDouble.of(v.getAsInt()) : OptionalDouble.empty();
    }

    /** How verdicts are reached: each key when given, else the profile's {@code fleet} section, else the default. */
    public BlameSettings blame(FleetCriteria profile) {
        BlameSettings d = BlameSettings.DEFAULTS;
        Thresholds t = d.thresholds();
        double fraction = pick(FleetCriteria::minOfMedianBandwidth, profile, t.bandwidthFraction());
        double multiple = pick(FleetCriteria::maxOfLowestLatency, profile, t.latencyMultiple());
        double deviations = pick(FleetCriteria::maxDeviations, profile, t.maxDeviations());
        int minNodes = pickInt(FleetCriteria::minNodes, profile, t.minNodes());
        int minPairs = pickInt(FleetCriteria::minPairs, profile, t.minPairs());
        int confirmations = pickInt(FleetCriteria::confirmations, profile, d.confirmations());
        double blamed = pick(FleetCriteria::maxBlamedFraction, profile, d.maxBlamedFraction());
        try {
            return new BlameSettings(
                    new Thresholds(fraction, multiple, deviations, minNodes, minPairs),
                    confirmations,
                    blamed,
                    d.evidenceLimit());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("linkproof.fleet.* (or the profile's fleet section): " + e.getMessage());
        }
    }

    /** How many of the last runs must blame a node before acting: the key, the profile's, or 2/3. */
    public ActAfter actAfter(FleetCriteria profile) {
        Optional<String> text = keys.actAfter().or(profile::actAfter);
        try {
            return text.map(ActAfter::parse).orElse(ActAfter.DEFAULT);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(Constants.FLEET_ACT_AFTER + ": " + e.getMessage());
        }
    }

    /** What the campaign needs of these settings. */
    public CampaignSettings campaign(FleetCriteria profile, String token, Timeouts timeouts) {
        CampaignSettings.Act how = switch (act.orElse("")) {
            case "slurm" -> CampaignSettings.Act.SLURM;
            case "kubernetes" -> CampaignSettings.Act.KUBERNETES;
            // print: the commands of the launcher's own scheduler (kubectl under Kubernetes, scontrol otherwise).
            case "print" ->
                FleetPlan.kubernetes(launcher)
                        ? CampaignSettings.Act.PRINT_KUBERNETES
                        : CampaignSettings.Act.PRINT_SLURM;
            default -> CampaignSettings.Act.NONE;
        };
        return new CampaignSettings(
                registryHost, registryPort, registerWithin, token, timeouts, blame(profile), how, actAfter(profile));
    }

    private double pick(Function<FleetCriteria, OptionalDouble> field, FleetCriteria profile, double fallback) {
        OptionalDouble k = field.apply(keys);
        return k.isPresent() ? k.getAsDouble() : field.apply(profile).orElse(fallback);
    }

    private int pickInt(Function<FleetCriteria, OptionalInt> field, FleetCriteria profile, int fallback) {
        OptionalInt k = field.apply(keys);
        return k.isPresent() ? k.getAsInt() : field.apply(profile).orElse(fallback);
    }

    private static OptionalDouble decimal(ConfigurationParameters p, Key<Double> key) {
        return key.read(p).map(OptionalDouble::of).orElse(OptionalDouble.empty());
    }

    private static OptionalInt whole(ConfigurationParameters p, Key<Integer> key) {
        return key.read(p).map(OptionalInt::of).orElse(OptionalInt.empty());
    }

    /** As the settings read back in a log line. */
    public String describe() {
        return Constants.FLEET + "=" + launcher + ", " + Constants.FLEET_PATTERN + "=" + pattern + ", registry "
                + registryHost + ":" + registryPort + ", nodes register within " + Units.formatDuration(registerWithin);
    }
}
