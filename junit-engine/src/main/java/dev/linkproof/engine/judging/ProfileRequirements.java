package dev.linkproof.engine.judging;

import dev.linkproof.profiles.LoadedProfile;
import dev.linkproof.profiles.ResourcePlan;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.gpu.select.GpuRuntimes;
import dev.linkproof.transfer.gpuipc.GpuIpcTransport;
import java.util.Optional;

/**
 * What the profile says must be present for a point, and what it does not provide here: the
 * answers a point is skipped or failed by. Only {@code run.Admission} asks them (ArchitectureTest
 * holds it), so that every skip-or-fail rule stays in one place.
 */
public final class ProfileRequirements {
    private final LoadedProfile loaded;
    private final ResourcePlan plan;
    private final ProfilePlacement placement;

    ProfileRequirements(LoadedProfile loaded, ResourcePlan plan, ProfilePlacement placement) {
        this.loaded = loaded;
        this.plan = plan;
        this.placement = placement;
    }

    /**
     * Memory the point needs that the profile does not provide here (GPUs it gives none of, huge
     * pages): skipped, whatever the profile requires.
     */
    public Optional<String> notProvided(TransferSpec spec) {
        return plan.notProvided(spec);
    }

    /** An RDMA point on a host where the profile resolves no RDMA device. */
    public Optional<String> noDevice(TransferSpec spec) {
        return plan.noDevice(spec);
    }

    /**
     * Why the RDMA device a point runs on (its own {@code verbs.device}, the profile's, or the command
     * line's) is of the kind the profile is for but not fit for it; empty for every other point.
     */
    public Optional<String> unfitNic(TransferSpec spec) {
        return plan.unfitNic(placement.apply(spec));
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
        if (!requires(transport) || transport.equals(GpuIpcTransport.ID) && GpuRuntimes.disabled()) {
            return Optional.empty();
        }
        // A profile named on the command line was not matched against this host: say so.
        String chosen = loaded.match().isPresent()
                ? ""
                : " (profile chosen by linkproof.profile: " + loaded.selection()
                        + "; it was not matched against this host)";
        return Optional.of("profile '" + loaded.profile().id() + "' requires the " + transport
                + " transport (transport.required), and " + what + chosen);
    }
}
