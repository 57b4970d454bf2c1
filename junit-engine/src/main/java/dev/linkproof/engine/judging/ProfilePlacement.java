package dev.linkproof.engine.judging;

import dev.linkproof.profiles.HardwareProfile;
import dev.linkproof.profiles.ResourcePlan;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.probe.GpuDevice;
import dev.linkproof.transfer.probe.ProbeReport;
import dev.linkproof.transfer.probe.RdmaDevice;
import dev.linkproof.transfer.verbs.VerbsSettings;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Where a point runs on this host: the GPUs, NICs and transport settings the profile's resource
 * plan gives it. It only places; whether a point may run at all is {@link ProfileRequirements}' question.
 */
public final class ProfilePlacement {
    private final HardwareProfile profile;
    private final ProbeReport host;
    private final ResourcePlan plan;
    private final DeviceChoice devices;

    /**
     * Which RDMA device the engine names in a verbs point's settings when neither the point nor the profile's
     * {@code transport.settings} does. With a remote peer it names none: device names differ between hosts, so
     * each rank picks its own ({@code linkproof.verbs.device} there, else the device NUMA-local to it).
     *
     * @param localPair   both ranks run on this host (no {@code linkproof.peer}): this host's plan holds for both
     * @param commandLine {@code linkproof.verbs.device} or {@code LINKPROOF_VERBS_DEVICE} as this JVM sees it;
     *                    on a local pair it wins over the plan and reaches both ranks
     */
    public record DeviceChoice(boolean localPair, Optional<String> commandLine) {
        public static final DeviceChoice REMOTE = new DeviceChoice(false, Optional.empty());
    }

    ProfilePlacement(HardwareProfile profile, ProbeReport host, ResourcePlan plan, DeviceChoice devices) {
        this.profile = profile;
        this.host = host;
        this.plan = plan;
        this.devices = devices;
    }

    /** The host as the probe saw it, which the plan was made from: rails pair its GPUs with its NICs by it. */
    public ProbeReport host() {
        return host;
    }

    /**
     * The point's spec as it runs: its GPUs those the profile provides ({@link #placeGpus}), its own
     * settings, beneath them the profile's transport settings (e.g. {@code UCX_TLS}), beneath those the
     * device this run chose for it (see {@link #deviceSettings}).
     */
    public TransferSpec apply(TransferSpec spec) {
        TransferSpec withProfile =
                placeGpus(spec).withDefaultSettings(profile.transport().settings());
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

    /**
     * The RDMA devices {@code linkproof.nics=each} runs a verbs point on, in the probe's order: those the
     * profile's plan resolves, and those of the kind it is for that it leaves out for their state (a
     * port down, another link rate), whose points then fail naming why ({@link ProfileRequirements#unfitNic}).
     * None when the profile's {@code transport.settings} name {@code verbs.device}: it chose one.
     */
    public List<String> nicsForEach() {
        if (profile.transport().settings().containsKey(VerbsSettings.DEVICE)) {
            return List.of();
        }
        Set<String> names = new HashSet<>(plan.unfitNics().keySet());
        plan.nics().forEach(d -> names.add(d.name()));
        return host.rdmaDevices().stream()
                .map(RdmaDevice::name)
                .filter(names::contains)
                .toList();
    }

    /** How many GPUs the profile's plan provides on this host; a point's {@code gpu:k} is one of them when k is below it. */
    public int gpuCount() {
        return plan.gpus().size();
    }

    /**
     * The GPUs the profile's plan provides on this host, in its order: a point's {@code gpu:k} is the
     * k-th ({@link #placeGpus}), and their NUMA nodes and PCI addresses pair them with NICs.
     */
    public List<GpuDevice> gpus() {
        return plan.gpus();
    }

    /** Environment variables a local agent gets from the profile. */
    public Map<String, String> agentEnvironment() {
        return profile.transport().environment();
    }
}
