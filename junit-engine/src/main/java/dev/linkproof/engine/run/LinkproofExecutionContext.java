package dev.linkproof.engine.run;

import dev.linkproof.engine.config.LinkproofConfiguration;
import dev.linkproof.engine.judging.PointJudge;
import dev.linkproof.engine.judging.RunProfile;
import dev.linkproof.engine.reporting.ProgressPrinter;
import dev.linkproof.engine.reporting.RunReporter;
import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.spi.Transport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.platform.engine.EngineExecutionListener;
import org.junit.platform.engine.OutputDirectoryCreator;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.reporting.FileEntry;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.engine.support.hierarchical.EngineExecutionContext;

/**
 * What every node of a run shares: what discovery loaded ({@link RunSetup}: configuration,
 * transports, profile, judge), the pair, the listener, the console and the reports.
 */
public final class LinkproofExecutionContext implements EngineExecutionContext {
    private final RunSetup setup;
    private final SessionProvider sessions;
    private final EngineExecutionListener listener;
    private final ProgressPrinter progress;
    private final RunReporter reporter;
    private final FleetRun fleet;

    public LinkproofExecutionContext(
            RunSetup setup,
            SessionProvider sessions,
            EngineExecutionListener listener,
            ProgressPrinter progress,
            RunReporter reporter) {
        this.setup = setup;
        this.sessions = sessions;
        this.listener = listener;
        this.progress = progress;
        this.reporter = reporter;
        this.fleet = setup.fleet()
                .map(plan -> {
                    var settings = setup.config().fleet().orElseThrow();
                    var criteria = setup.profile()
                            .map(p -> p.criteria().fleetCriteria())
                            .orElse(dev.linkproof.profiles.FleetCriteria.NONE);
                    return new FleetRun(
                            settings,
                            plan,
                            settings.campaign(
                                    criteria,
                                    RunSetup.fleetToken(setup.config()).orElse(""),
                                    setup.config().timeouts()),
                            progress,
                            setup.transports());
                })
                .orElse(null);
    }

    /** A fleet run's registry, coordinator and results; empty for a run of one pair. */
    public Optional<FleetRun> fleet() {
        return Optional.ofNullable(fleet);
    }

    /** The listener, for tests registered while the run goes (a fleet's verdicts). */
    public EngineExecutionListener listener() {
        return listener;
    }

    public RunSetup setup() {
        return setup;
    }

    public RunReporter reporter() {
        return reporter;
    }

    public LinkproofConfiguration config() {
        return setup.config();
    }

    /** The run's profile; only once the run started, which it does only when the profile loaded. */
    public RunProfile profile() {
        return setup.profile().orElseThrow(() -> new IllegalStateException("the run's profile did not load"));
    }

    /** The run's judge; as {@link #profile}. */
    public PointJudge judge() {
        return setup.judge().orElseThrow(() -> new IllegalStateException("the run's profile or baseline did not load"));
    }

    public SessionProvider sessions() {
        return sessions;
    }

    public ProgressPrinter progress() {
        return progress;
    }

    /** This process's transport of that id, when on the class path. */
    public Optional<Transport> transport(String id) {
        return setup.transports().find(id);
    }

    /** Whether the transport itself (not a point's op or memory) is available in this process. */
    public Availability transportAvailability(String id) {
        return setup.transports()
                .find(id)
                .map(Transport::availability)
                .orElseGet(() -> Availability.no("transport '" + id + "' is not on the class path"));
    }

    /**
     * Availability of a point's transport on this side, before any rank is provisioned, as a skip says
     * it ("verbs unavailable: …"); its kind is the transport's ({@link #localSupport}).
     */
    public Availability localAvailability(TransferSpec spec) {
        return named(spec, localSupport(spec));
    }

    /**
     * What the point's transport says of the point on this side (its op, memory, device), in its own
     * words, with the kind the point run decides by; a transport not on the class path is absent.
     */
    public Availability localSupport(TransferSpec spec) {
        Optional<Transport> t = setup.transports().find(spec.transport());
        if (t.isEmpty()) {
            return Availability.no("transport '" + spec.transport() + "' is not on the class path (known: "
                    + String.join(", ", setup.transports().all().keySet()) + ")");
        }
        return t.get().supports(spec);
    }

    /** {@code a}, the transport's answer for {@code spec}, as {@link #localAvailability} says it. */
    public Availability named(TransferSpec spec, Availability a) {
        return a.available() || setup.transports().find(spec.transport()).isEmpty()
                ? a
                : a.prefixed(spec.transport() + " unavailable: ");
    }

    /** The measured figures as a report entry (Surefire and IDEs show them beside the test). */
    public void publish(TestDescriptor descriptor, Measurement m) {
        Map<String, String> entry = new LinkedHashMap<>();
        entry.put("bandwidth.GBps", String.format(Locale.ROOT, "%.4f", m.bandwidthGBps()));
        entry.put(
                "latency.avg.us", String.format(Locale.ROOT, "%.3f", m.latency().averageNanos() / 1e3));
        if (m.latency().hasPercentiles()) {
            entry.put(
                    "latency.p50.us",
                    String.format(Locale.ROOT, "%.3f", m.latency().p50Nanos() / 1e3));
            entry.put(
                    "latency.p99.us",
                    String.format(Locale.ROOT, "%.3f", m.latency().p99Nanos() / 1e3));
            entry.put(
                    "latency.p999.us",
                    String.format(Locale.ROOT, "%.3f", m.latency().p999Nanos() / 1e3));
            entry.put(
                    "latency.max.us",
                    String.format(Locale.ROOT, "%.3f", m.latency().maxNanos() / 1e3));
        }
        entry.put("bytes", Long.toString(m.bytes()));
        entry.put("iterations", Integer.toString(m.spec().iterations()));
        entry.put("validation", m.validation().describe());
        listener.reportingEntryPublished(descriptor, ReportEntry.from(entry));
    }

    /** The platform's output directories (junit.platform.reporting.output.dir), for the files a run publishes. */
    private volatile OutputDirectoryCreator outputs;

    public void outputs(OutputDirectoryCreator creator) {
        this.outputs = creator;
    }

    /**
     * A file of {@code descriptor}'s (a sweep's CSV and charts, the fleet's verdicts and heat maps),
     * written into the platform's output directory for it and published as a file entry, which
     * JUnit's Open Test Reporting XML records and a launcher's listeners see. Reports never fail a
     * point: the first file that cannot be written (a full disk, or a launcher that disables
     * outputs, as EngineTestKit does by default) is named in one warning, and the run publishes no
     * more files rather than repeating it for every sweep.
     */
    public void publishFile(TestDescriptor descriptor, String name, String mediaType, byte[] content) {
        if (outputs == null) {
            return;
        }
        try {
            Path file = outputs.createOutputDirectory(descriptor).resolve(name);
            Files.write(file, content);
            listener.fileEntryPublished(descriptor, FileEntry.from(file, mediaType));
        } catch (IOException | RuntimeException e) {
            outputs = null;
            System.err.println("linkproof: could not publish " + name + " of " + descriptor.getDisplayName()
                    + ", so this run publishes no files (Allure and the other reports are unaffected): " + e);
        }
    }
}
