package dev.linkproof.engine.run;

import dev.linkproof.engine.config.ConfigurationException;
import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.config.LinkproofConfiguration;
import dev.linkproof.engine.judging.PointJudge;
import dev.linkproof.engine.judging.RunProfile;
import dev.linkproof.fleet.campaign.FleetPlan;
import dev.linkproof.profiles.Defaults;
import dev.linkproof.profiles.ProfileException;
import dev.linkproof.reports.allure.RunFiles;
import dev.linkproof.reports.results.ResultsFile;
import dev.linkproof.transfer.gpu.select.GpuRuntimes;
import dev.linkproof.transfer.spi.Transports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.platform.engine.ConfigurationParameters;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.FilePosition;
import org.junit.platform.engine.support.descriptor.FileSource;

/**
 * What a run loads once, at discovery, and execution uses as it is: the configuration, the transports on the
 * class path (discovered here only and handed on, since each discovery makes new transports, which probe their
 * hardware again), the hardware profile (the host probed once) and the judge with its baseline. Everything wrong
 * here (a bad key, an unknown transport or GPU runtime, a malformed profile, an unmet
 * {@code linkproof.requireProfileMatch}, an unreadable baseline, an output that cannot be created) is an
 * error-level {@link DiscoveryIssue}, so JUnit stops before any point runs: one channel for what is wrong
 * before a run.
 */
public final class RunSetup {
    private final LinkproofConfiguration config;
    private final Transports transports;
    private final RunProfile profile;
    private final PointJudge judge;
    private final FleetPlan fleet;
    private final List<DiscoveryIssue> issues;
    private final List<String> problems;

    private RunSetup(
            LinkproofConfiguration config,
            Transports transports,
            RunProfile profile,
            PointJudge judge,
            FleetPlan fleet,
            List<DiscoveryIssue> issues,
            List<String> problems) {
        this.config = config;
        this.transports = transports;
        this.profile = profile;
        this.judge = judge;
        this.fleet = fleet;
        this.issues = List.copyOf(issues);
        this.problems = List.copyOf(problems);
    }

    /** The run's setup, its files that no key names under {@code outputRoot} (the platform's output directory). */
    public static RunSetup load(ConfigurationParameters parameters, Path outputRoot) {
        Problems issues = new Problems();
        LinkproofConfiguration.Parsed parsed = LinkproofConfiguration.parse(parameters, outputRoot);
        LinkproofConfiguration config = parsed.config();
        parsed.errors().forEach(e -> issues.add(e, null));
        Transports transports = Transports.discover();
        // Every point of a transport not on the class path would be skipped: a misspelt key would skip
        // them all and leave the build green.
        if (transports.find(config.defaultTransport()).isEmpty()) {
            issues.add(
                    Constants.TRANSPORT + "=" + config.defaultTransport()
                            + " names no transport on the class path (known: "
                            + String.join(", ", new TreeSet<>(transports.all().keySet())) + ")",
                    null);
        }
        // Likewise a GPU runtime that is none of the four: every GPU point would skip naming it.
        GpuRuntimes.configurationProblem().ifPresent(p -> issues.add(p, null));
        // The results file is created only when the run starts (it replaces the last run's); that it can be is checked
        // now.
        ResultsFile.whyNotCreatable(config.results())
                .ifPresent(why -> issues.add(Constants.RESULTS + "=" + config.results() + ": " + why, null));
        // Likewise the Allure results folder, which this engine and the Allure listener write to at every point.
        Path allure = RunFiles.resultsDirectory();
        RunFiles.whyNotCreatable(allure)
                .ifPresent(why -> issues.add(RunFiles.RESULTS_DIRECTORY_KEY + "=" + allure + ": " + why, null));
        RunProfile profile = null;
        PointJudge judge = null;
        try {
            profile = RunProfile.load(config, transports);
            if (config.requireProfileMatch()) {
                profile.fallbackWarning()
                        .ifPresent(w -> issues.add(Constants.REQUIRE_PROFILE_MATCH + "=true, and " + w, null));
            }
            judge = PointJudge.load(config, profile.criteria());
        } catch (ProfileException e) {
            issues.add(e.getMessage(), source(e));
        } catch (ConfigurationException e) {
            e.problems().forEach(p -> issues.add(p, null));
        }
        FleetPlan fleet = null;
        if (config.fleet().isPresent()) {
            try {
                fleet = FleetPlan.of(
                        config.fleet().get().launcher(), config.fleet().get().pattern(), System.getenv());
            } catch (IllegalArgumentException e) {
                issues.add(e.getMessage(), null);
            }
            if (fleetToken(config).isEmpty()) {
                issues.add(
                        Constants.FLEET + " needs the token the fleet's agents were given: " + Constants.TOKEN
                                + ", or $" + dev.linkproof.transfer.control.AgentProcess.TOKEN_ENV
                                + " (the same for the coordinator and every agent)",
                        null);
            }
        }
        return new RunSetup(config, transports, profile, judge, fleet, issues.issues, issues.problems);
    }

    /** A fleet run's token: {@code linkproof.token}, else $LINKPROOF_TOKEN, which the launcher gives every agent too. */
    public static Optional<String> fleetToken(LinkproofConfiguration config) {
        return config.token()
                .or(() -> Optional.ofNullable(System.getenv(dev.linkproof.transfer.control.AgentProcess.TOKEN_ENV))
                        .filter(t -> !t.isBlank()));
    }

    /** Each problem, and its issue: "configuration error: …", the words every problem found before a run begins with. */
    private static final class Problems {
        final List<DiscoveryIssue> issues = new ArrayList<>();
        final List<String> problems = new ArrayList<>();

        void add(String problem, TestSource source) {
            problems.add(problem);
            issues.add(DiscoveryIssue.builder(DiscoveryIssue.Severity.ERROR, ConfigurationException.PREFIX + problem)
                    .source(Optional.ofNullable(source))
                    .build());
        }
    }

    /** The profile file at the line and column of the problem; none for a built-in resource or a property. */
    private static TestSource source(ProfileException e) {
        if (e.location() == null) {
            return null;
        }
        Path file = Path.of(e.source());
        if (!Files.isRegularFile(file)) {
            return null;
        }
        return e.line() > 0
                ? FileSource.from(file.toFile(), FilePosition.from(e.line(), Math.max(1, e.column())))
                : FileSource.from(file.toFile());
    }

    public LinkproofConfiguration config() {
        return config;
    }

    public Transports transports() {
        return transports;
    }

    /** The run's profile; empty when it did not load (an issue says why, and no point runs). */
    public Optional<RunProfile> profile() {
        return Optional.ofNullable(profile);
    }

    /** The run's judge; empty when the profile or the baseline did not load. */
    public Optional<PointJudge> judge() {
        return Optional.ofNullable(judge);
    }

    /** A fleet run's nodes and plan; empty for a run of one pair, or when they could not be worked out (an issue says why). */
    public Optional<FleetPlan> fleet() {
        return Optional.ofNullable(fleet);
    }

    /** The profile's values for what annotations leave unset; none when it did not load. */
    public Defaults defaults() {
        return profile == null ? Defaults.NONE : profile.defaults();
    }

    /** Everything wrong with the run before it starts, each as it reads after "configuration error: ". */
    public List<String> problems() {
        return problems;
    }

    /** Everything wrong with the run before it starts, each an error. */
    public List<DiscoveryIssue> issues() {
        return issues;
    }
}
