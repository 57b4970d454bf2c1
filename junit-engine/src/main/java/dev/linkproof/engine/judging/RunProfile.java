package dev.linkproof.engine.judging;

import dev.linkproof.engine.config.LinkproofConfiguration;
import dev.linkproof.profiles.CriteriaEvaluator;
import dev.linkproof.profiles.EvaluationContext;
import dev.linkproof.profiles.HardwareProfile;
import dev.linkproof.profiles.LoadedProfile;
import dev.linkproof.profiles.ProfileException;
import dev.linkproof.profiles.ProfileLoader;
import dev.linkproof.profiles.ProfileMatcher;
import dev.linkproof.profiles.ResourcePlan;
import dev.linkproof.profiles.Verdict;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.gpu.select.GpuRuntimes;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.probe.ProbeReport;
import dev.linkproof.transfer.spi.Transports;
import dev.linkproof.transfer.verbs.VerbsSettings;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.OptionalDouble;
import java.util.function.Supplier;

/**
 * The run's hardware profile, loaded once before any transfer: what the host may use (the
 * resource plan, which skips points the profile or host cannot serve and names the NIC verbs
 * points use) and the criteria every point is judged by.
 */
public final class RunProfile {
    private final LoadedProfile loaded;
    private final ProbeReport probe;
    private final ResourcePlan plan;
    private final CriteriaEvaluator evaluator;
    private final DeviceChoice devices;
    private final dev.linkproof.profiles.BuiltinProfiles builtins;

    private RunProfile(LoadedProfile loaded, ProbeReport probe, ResourcePlan plan, CriteriaEvaluator evaluator,
                         DeviceChoice devices, dev.linkproof.profiles.BuiltinProfiles builtins) {
        this.builtins = builtins;
        this.loaded = loaded;
        this.probe = probe;
        this.plan = plan;
        this.evaluator = evaluator;
        this.devices = devices;
    }

    /**
     * Which RDMA device the engine names in a verbs point's settings when neither the point nor the
     * profile's {@code transport.settings} does.
     *
     * @param localPair  both ranks run on this host (no {@code linkproof.peer}): the plan, made from this
     *                   host's probe, holds for both. With a remote peer the engine names none, and each
     *                   rank picks its own ({@code linkproof.verbs.device} / {@code LINKPROOF_VERBS_DEVICE}
     *                   on that host, else the device NUMA-local to it): device names differ between hosts.
     * @param commandLine {@code linkproof.verbs.device} or {@code LINKPROOF_VERBS_DEVICE} as this JVM sees it;
     *                   on a local pair it wins over the plan and reaches both ranks
     */
    public record DeviceChoice(boolean localPair, Optional<String> commandLine) {
        public static final DeviceChoice REMOTE = new DeviceChoice(false, Optional.empty());
    }

    /**
     * Loads the profile {@code linkproof.profile} names (auto by default: matched against the probe).
     *
     * @throws ProfileException naming file, line and column of what is wrong
     */
    public static RunProfile load(Map<String, String> properties, DeviceChoice devices) {
        return load(new ProfileLoader(properties), devices);
    }

    /** As {@link #load(Map, DeviceChoice)}, for a run that discovered its {@code transports}: what the profile may name. */
    public static RunProfile load(Map<String, String> properties, DeviceChoice devices, Transports transports) {
        return load(new ProfileLoader(properties, transports), devices);
    }

    private static RunProfile load(ProfileLoader loader, DeviceChoice devices) {
        // One probe (of linkproof.probe.root) for the match, the plan and the report's environment.
        Supplier<ProbeReport> probe = loader.probe();
        LoadedProfile loaded = loader.load(probe);
        HardwareProfile p = loaded.profile();
        ProbeReport host = probe.get();
        ResourcePlan plan = ResourcePlan.of(p, host);
        return new RunProfile(loaded, host, plan, new CriteriaEvaluator(p, EvaluationContext.forProfile(p)), devices,
                loader.builtins());
    }

    /** The run's profile, with the device choice the configuration makes (local pair or remote peer). */
    public static RunProfile load(LinkproofConfiguration config) {
        return load(config.profileProperties(), new DeviceChoice(config.peer().isEmpty(), config.verbsDevice()));
    }

    /** The run's profile, checked against the transports the run discovered. */
    public static RunProfile load(LinkproofConfiguration config, Transports transports) {
        return load(config.profileProperties(), new DeviceChoice(config.peer().isEmpty(), config.verbsDevice()), transports);
    }

    public String id() {
        return loaded.profile().id();
    }

    public String describe() {
        return loaded.describe();
    }

    /**
     * The host as the probe saw it: this machine, or the tree {@code linkproof.probe.root} names. The
     * profile was matched against it and the resource plan made from it; the report's environment
     * describes it.
     */
    public ProbeReport probe() {
        return probe;
    }

    /**
     * The point's spec as it runs: its GPUs those the profile provides ({@link #placeGpus}), its own
     * settings, beneath them the profile's transport settings (e.g. {@code UCX_TLS}), beneath those the
     * device this run chose for it (see {@link #deviceSettings}).
     */
    public TransferSpec apply(TransferSpec spec) {
        TransferSpec withProfile = placeGpus(spec).withDefaultSettings(loaded.profile().transport().settings());
        return withProfile.withDefaultSettings(deviceSettings(withProfile));
    }

    /**
     * The point's {@code gpu:k} as the runtime ordinal of the k-th GPU the profile provides (the same
     * k when it provides every GPU). With {@code linkproof.peer} the target's side is mapped alike: a
     * pair of hosts of one SKU numbers its GPUs alike, as it names its NICs alike.
     */
    public TransferSpec placeGpus(TransferSpec spec) {
        return plan.placeGpus(spec);
    }

    /**
     * {@code verbs.device} for a verbs point on a local pair: the command line's device if given, else
     * the resource plan's NIC (named in {@code resources.nics}, or NUMA-local under {@code auto}).
     * Nothing with a remote peer, nor for other transports.
     */
    Map<String, String> deviceSettings(TransferSpec spec) {
        Map<String, String> planned = plan.settingsFor(spec);
        if (!devices.localPair() || !ResourcePlan.RDMA_TRANSPORTS.contains(spec.transport())) {
            return Map.of();
        }
        return devices.commandLine().map(d -> Map.of(VerbsSettings.DEVICE, d)).orElse(planned);
    }

    /** The profile's values for what an annotation leaves unset. */
    public dev.linkproof.profiles.Defaults defaults() {
        return loaded.profile().defaults();
    }

    /**
     * The RDMA devices {@code linkproof.nics=each} runs a verbs point on, in the probe's order: those the
     * profile's plan resolves, and those of the kind it is for that it leaves out for their state (a
     * port down, another link rate), whose points then fail naming why ({@link #unfitNic}). None when
     * the profile's {@code transport.settings} name {@code verbs.device}: it chose one.
     */
    public List<String> nicsForEach() {
        if (loaded.profile().transport().settings().containsKey(VerbsSettings.DEVICE)) {
            return List.of();
        }
        Set<String> names = new java.util.HashSet<>(plan.unfitNics().keySet());
        plan.nics().forEach(d -> names.add(d.name()));
        return probe.rdmaDevices().stream().map(dev.linkproof.transfer.probe.RdmaDevice::name).filter(names::contains).toList();
    }

    /**
     * Why the RDMA device a point runs on (its own {@code verbs.device}, the profile's, or the command
     * line's) is of the kind the profile is for but not fit for it; empty for every other point.
     */
    public Optional<String> unfitNic(TransferSpec spec) {
        return plan.unfitNic(apply(spec));
    }

    /** How many GPUs the profile's plan provides on this host; a point's {@code gpu:k} is one of them when k is below it. */
    public int gpuCount() {
        return plan.gpus().size();
    }

    /**
     * The GPUs the profile's plan provides on this host, in its order: a point's {@code gpu:k} is the
     * k-th ({@link #placeGpus}), and their NUMA nodes and PCI addresses pair them with NICs.
     */
    public List<dev.linkproof.transfer.probe.GpuDevice> gpus() {
        return plan.gpus();
    }

    /** The profile's baseline tolerance, when it sets one. */
    /** The profile's fleet-relative criteria (its {@code fleet} section), each empty when it sets none. */
    public dev.linkproof.profiles.FleetCriteria fleetCriteria() {
        return loaded.profile().fleet();
    }

    public OptionalDouble baselineTolerance() {
        return loaded.profile().baseline().tolerance();
    }

    /** Environment variables a local agent gets from the profile. */
    public Map<String, String> agentEnvironment() {
        return loaded.profile().transport().environment();
    }

    /**
     * Memory the point needs that the profile does not provide here (GPUs it gives none of, huge
     * pages): skipped, whatever the profile requires.
     */
    public Optional<String> notProvided(TransferSpec spec) {
        return plan.notProvided(spec);
    }

    /**
     * A warning for the end of the run when the profile was matched automatically, is the fallback,
     * and this host has hardware a built-in profile is for: RDMA devices or GPUs. A NIC with a port
     * down or at another link rate matches no NIC profile, and the fallback then skips what that
     * profile would have failed. A software device counts where a built-in profile's NIC rule is for
     * its kind (softroce for rxe: with its port down its verbs points would go from failing to
     * skipped); one no built-in is for (siw) does not. It says why, from {@link #nearMisses}.
     */
    public Optional<String> fallbackWarning() {
        if (loaded.match().isEmpty() || !loaded.profile().match().fallback()) {
            return Optional.empty();
        }
        List<String> hardware = new java.util.ArrayList<>();
        List<dev.linkproof.profiles.NicRule> kinds = builtins.all().stream().flatMap(b -> b.match().nic().stream()).toList();
        probe.rdmaDevices().stream().filter(d -> !d.software() || kinds.stream().anyMatch(r -> ProfileMatcher.ofTheKind(r, d)))
                .map(d -> "RDMA device " + d.name()).forEach(hardware::add);
        probe.gpus().stream().map(g -> "GPU " + g.model()).distinct().forEach(hardware::add);
        if (hardware.isEmpty()) {
            return Optional.empty();
        }
        List<String> why = nearMisses();
        return Optional.of("profile '" + id() + "' is the fallback, although this host has " + String.join(", ", hardware)
                + ": no built-in profile matched them ("
                + (why.isEmpty() ? "no built-in profile is for this hardware" : String.join("; ", why))
                + "). On a hardware runner pin the profile (-Dlinkproof.profile=<id>) so that such a host fails instead.");
    }

    /**
     * Why each built-in profile that is for this host's hardware did not match, in the matcher's
     * words: one with an RDMA device of its NIC rule's kind here (a port down, another link rate,
     * older firmware) or a GPU its GPU rule accepts (a GPU node without the NIC the profile also
     * needs), and no GPU rule that no GPU here meets (a ConnectX-7 host without GPUs is not a near
     * miss of the H100 profile). Naming every profile would bury the one that counts.
     */
    private List<String> nearMisses() {
        List<String> out = new java.util.ArrayList<>();
        for (var b : builtins.all()) {
            var rules = b.match();
            // A GPU rule decides alone (its GPUs here or not); without one, a NIC of the rule's kind.
            boolean forThisHost = rules.gpu().isPresent()
                    ? !ProfileMatcher.matchingGpus(rules.gpu().get(), probe).isEmpty()
                    : rules.nic().map(r -> probe.rdmaDevices().stream().anyMatch(d -> ProfileMatcher.ofTheKind(r, d))).orElse(false);
            if (rules.fallback() || !forThisHost) {
                continue;
            }
            var result = ProfileMatcher.match(b, probe);
            if (!result.matched()) {
                out.add(b.id() + ": " + result.summary());
            }
        }
        return out;
    }

    /** An RDMA point on a host where the profile resolves no RDMA device. */
    public Optional<String> noDevice(TransferSpec spec) {
        return plan.noDevice(spec);
    }

    /**
     * The failure a point of {@code transport} gets instead of a skip when the profile requires the
     * transport ({@code transport.required}) and a rank lacks it ({@code where}: "this host", "the
     * target (…)"; {@code why}: the transport's own reason). Empty when the profile does not require it,
     * and for gpu-ipc when the run turned GPUs off ({@code linkproof.gpu.runtime=none}).
     */
    public Optional<String> requiredButUnavailable(String transport, String where, String why) {
        return required(transport, "it is unavailable on " + where + ": " + why);
    }

    /**
     * The failure a point gets instead of a skip when the profile requires its transport and the
     * transport is here but the device it runs the point on lacks a capability the point needs
     * ({@code where}: "this host"; {@code why}: the transport's reason, naming the device and what it
     * lacks: a verbs device whose atomic_cap is IBV_ATOMIC_NONE, for an atomic point). Empty when the
     * profile does not require the transport.
     */
    public Optional<String> requiredButIncapable(String transport, String where, String why) {
        return required(transport, "on " + where + " its device cannot run this point: " + why);
    }

    /** Whether the profile lists {@code transport} in its {@code transport.required}. */
    public boolean requires(String transport) {
        return loaded.profile().transport().required().contains(transport);
    }

    private Optional<String> required(String transport, String what) {
        if (!requires(transport)
                || transport.equals(dev.linkproof.transfer.gpuipc.GpuIpcTransport.ID) && GpuRuntimes.disabled()) {
            return Optional.empty();
        }
        // A profile named on the command line was not matched against this host: say so.
        String chosen = loaded.match().isPresent() ? "" : " (profile chosen by linkproof.profile: " + loaded.selection()
                + "; it was not matched against this host)";
        return Optional.of("profile '" + id() + "' requires the " + transport + " transport (transport.required), and "
                + what + chosen);
    }

    public List<Verdict> evaluate(Measurement m) {
        return evaluator.evaluate(m);
    }

    public List<Verdict> evaluateSweep(List<Measurement> sweep) {
        return evaluator.evaluateSweep(sweep);
    }

    /** The link rate in GB/s (10⁹ B/s), when the profile states one. */
    public Optional<Double> linkGBps() {
        var rate = loaded.profile().linkRateGbps();
        return rate.isPresent() ? Optional.of(rate.getAsDouble() / 8) : Optional.empty();
    }
}
