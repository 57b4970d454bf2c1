package dev.linkproof.engine.judging;

import dev.linkproof.engine.config.LinkproofConfiguration;
import dev.linkproof.engine.judging.ProfilePlacement.DeviceChoice;
import dev.linkproof.profiles.BuiltinProfiles;
import dev.linkproof.profiles.Defaults;
import dev.linkproof.profiles.HardwareProfile;
import dev.linkproof.profiles.LoadedProfile;
import dev.linkproof.profiles.NicRule;
import dev.linkproof.profiles.ProfileException;
import dev.linkproof.profiles.ProfileLoader;
import dev.linkproof.profiles.ProfileMatcher;
import dev.linkproof.profiles.ResourcePlan;
import dev.linkproof.transfer.probe.ProbeReport;
import dev.linkproof.transfer.spi.Transports;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The run's hardware profile, loaded once before any transfer: which profile it is and how it was
 * chosen, and its three parts by job, so that each caller holds only the one it needs: where a
 * point runs ({@link ProfilePlacement}), what must be present for it ({@link ProfileRequirements}) and what it is
 * judged against ({@link ProfileCriteria}).
 */
public final class RunProfile {
    private final LoadedProfile loaded;
    private final ProbeReport probe;
    private final BuiltinProfiles builtins;
    private final ProfilePlacement placement;
    private final ProfileRequirements requirements;
    private final ProfileCriteria criteria;

    private RunProfile(LoadedProfile loaded, ProbeReport probe, DeviceChoice devices, BuiltinProfiles builtins) {
        this.loaded = loaded;
        this.probe = probe;
        this.builtins = builtins;
        HardwareProfile p = loaded.profile();
        ResourcePlan plan = ResourcePlan.of(p, probe);
        this.placement = new ProfilePlacement(p, probe, plan, devices);
        this.requirements = new ProfileRequirements(loaded, plan, placement);
        this.criteria = new ProfileCriteria(p);
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
        return new RunProfile(loaded, probe.get(), devices, loader.builtins());
    }

    /** The run's profile, with the device choice the configuration makes (local pair or remote peer). */
    public static RunProfile load(LinkproofConfiguration config) {
        return load(config.profileProperties(), new DeviceChoice(config.peer().isEmpty(), config.verbsDevice()));
    }

    /** The run's profile, checked against the transports the run discovered. */
    public static RunProfile load(LinkproofConfiguration config, Transports transports) {
        return load(
                config.profileProperties(),
                new DeviceChoice(config.peer().isEmpty(), config.verbsDevice()),
                transports);
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

    /** Where a point runs on this host. */
    public ProfilePlacement placement() {
        return placement;
    }

    /** What must be present for a point: for {@code run.Admission} alone. */
    public ProfileRequirements requirements() {
        return requirements;
    }

    /** What a point, a sweep and a fleet are judged against. */
    public ProfileCriteria criteria() {
        return criteria;
    }

    /** The profile's values for what an annotation leaves unset. */
    public Defaults defaults() {
        return loaded.profile().defaults();
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
        List<String> hardware = new ArrayList<>();
        List<NicRule> kinds =
                builtins.all().stream().flatMap(b -> b.match().nic().stream()).toList();
        probe.rdmaDevices().stream()
                .filter(d -> !d.software() || kinds.stream().anyMatch(r -> ProfileMatcher.ofTheKind(r, d)))
                .map(d -> "RDMA device " + d.name())
                .forEach(hardware::add);
        probe.gpus().stream().map(g -> "GPU " + g.model()).distinct().forEach(hardware::add);
        if (hardware.isEmpty()) {
            return Optional.empty();
        }
        List<String> why = nearMisses();
        return Optional.of(
                "profile '" + id() + "' is the fallback, although this host has " + String.join(", ", hardware)
                        + ": no built-in profile matched them ("
                        + (why.isEmpty() ? "no built-in profile is for this hardware" : String.join("; ", why))
                        + "). On a hardware runner pin the profile (-Dlinkproof.profile=<id>) so that such a host"
                        + " fails instead.");
    }

    /**
     * Why each built-in profile that is for this host's hardware did not match, in the matcher's
     * words: one with an RDMA device of its NIC rule's kind here (a port down, another link rate,
     * older firmware) or a GPU its GPU rule accepts (a GPU node without the NIC the profile also
     * needs), and no GPU rule that no GPU here meets (a ConnectX-7 host without GPUs is not a near
     * miss of the H100 profile). Naming every profile would bury the one that counts.
     */
    private List<String> nearMisses() {
        List<String> out = new ArrayList<>();
        for (var b : builtins.all()) {
            var rules = b.match();
            // A GPU rule decides alone (its GPUs here or not); without one, a NIC of the rule's kind.
            boolean forThisHost = rules.gpu().isPresent()
                    ? !ProfileMatcher.matchingGpus(rules.gpu().get(), probe).isEmpty()
                    : rules.nic()
                            .map(r -> probe.rdmaDevices().stream().anyMatch(d -> ProfileMatcher.ofTheKind(r, d)))
                            .orElse(false);
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
}
