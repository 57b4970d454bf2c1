package dev.linkproof.engine.run;

import dev.linkproof.engine.api.SweepPoint;
import dev.linkproof.engine.judging.ProfilePlacement;
import dev.linkproof.engine.judging.ProfileRequirements;
import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.control.Messages;
import dev.linkproof.transfer.spi.Transport;
import java.util.Optional;

/**
 * Whether a point runs, is skipped with a reason, or fails with a kind — decided once, before it
 * starts, by {@link #decide}, which holds every rule about this host: memory the profile provides,
 * required transports, device capabilities, NIC fitness, rails, devices. The run carries the
 * decision and never decides again. What only the target can say (its transports, what its device
 * supports) is known once its session is open: {@link #onTarget} and {@link #targetIncapable} decide
 * those, here too, and {@link PointRun} only asks.
 */
public sealed interface Admission {
    /** The point runs; its rails planned when it has rails (empty otherwise). */
    record Run(Optional<RailPlan.Plan> rails) implements Admission {}

    /** The point is skipped: what it needs is not here, and nothing requires it. */
    record Skip(String reason) implements Admission {}

    /** The point fails before it starts: the profile requires what this host lacks, or a NIC of its kind is not fit. */
    record Fail(FailureKind kind, String reason) implements Admission {}

    /**
     * The rules, in this order: (1) memory the profile does not provide (GPUs, huge pages): skip, required or
     * not; (2) a required transport this host lacks (no library, device or provider, or no device the profile
     * resolves): fail; (3) what the transport cannot do for this point: skip, unless the device lacks a capability
     * ({@link Availability.Kind#DEVICE_LACKS_CAPABILITY}) of a required transport: fail, since a NIC the profile
     * is for must do what the suite asks of it; (4) a NIC of the profile's kind not fit for the point (a port
     * down): fail; (5) without rails, no RDMA device the profile resolves: skip; with rails, short of rails: skip,
     * or fail when required; a rail of its own GPUs the runtime cannot use: skip; a rail's NIC not fit: fail.
     */
    static Admission decide(LinkproofExecutionContext context, SweepPoint point) {
        ProfileRequirements required = context.profile().requirements();
        ProfilePlacement placement = context.profile().placement();
        TransferSpec spec = point.spec();
        String transport = spec.transport();
        Optional<String> notProvided = required.notProvided(spec);
        if (notProvided.isPresent()) {
            return new Skip(notProvided.get());
        }
        Optional<String> unfit = required.unfitNic(spec);
        Optional<String> unmet = unmetRequirement(context, spec, unfit.isPresent());
        if (unmet.isPresent()) {
            return new Fail(FailureKind.REQUIRED_TRANSPORT_UNAVAILABLE, unmet.get());
        }
        TransferSpec placed = placement.placeGpus(spec);
        Availability local = context.localSupport(placed);
        if (!local.available()) {
            Optional<String> incapable = local.kind() == Availability.Kind.DEVICE_LACKS_CAPABILITY
                    ? required.requiredButIncapable(transport, "this host", local.reason())
                    : Optional.empty();
            if (incapable.isEmpty()) {
                return new Skip(context.named(placed, local).reason());
            }
            // A broken NIC is the finding before what it lacks.
            return unfit.<Admission>map(why -> new Fail(FailureKind.NIC_NOT_FIT, why))
                    .orElse(new Fail(FailureKind.REQUIRED_CAPABILITY_UNAVAILABLE, incapable.get()));
        }
        if (unfit.isPresent()) {
            return new Fail(FailureKind.NIC_NOT_FIT, unfit.get());
        }
        if (!point.hasRails()) {
            return required.noDevice(spec).<Admission>map(Skip::new).orElse(new Run(Optional.empty()));
        }
        RailPlan.Plan plan = rails(context, point);
        Optional<String> shortfall = plan.shortfall();
        if (shortfall.isPresent()) {
            return required.requiredButUnavailable(transport, "this host", shortfall.get())
                    .<Admission>map(why -> new Fail(FailureKind.REQUIRED_TRANSPORT_UNAVAILABLE, why))
                    .orElse(new Skip(shortfall.get()));
        }
        for (int i = 0; i < plan.spots().size(); i++) {
            RailPlan.Spot spot = plan.spots().get(i);
            // A rail of its own GPUs: what the transport says of each (a GPU the runtime cannot use), named.
            if (spot.memory().isPresent()) {
                Availability rail = context.localAvailability(spot.placed(placed));
                if (!rail.available()) {
                    return new Skip("rail " + i + " (" + spot.label() + "): " + rail.reason());
                }
            }
        }
        for (int i = 0; i < plan.spots().size(); i++) {
            RailPlan.Spot spot = plan.spots().get(i);
            Optional<String> unfitRail = required.unfitNic(spec.withSettings(spot.settings()));
            if (unfitRail.isPresent()) {
                return new Fail(FailureKind.NIC_NOT_FIT, "rail " + i + " (" + spot.label() + "): " + unfitRail.get());
            }
        }
        return new Run(Optional.of(plan));
    }

    /**
     * A point the target's session cannot serve ({@code reason}, what it said): a failure when the
     * profile requires the transport and the target's agent lists it unavailable (or not at all);
     * else a skip. Never a failure for a transport that needs both ranks on one host when the target
     * is on another: it could not run there anyway.
     */
    static Admission onTarget(
            LinkproofExecutionContext context,
            SweepPoint point,
            Messages.Welcome agent,
            boolean sameKernel,
            String reason) {
        String transport = point.spec().transport();
        if (!sameKernel
                && context.transport(transport).map(Transport::sameHostOnly).orElse(false)) {
            return new Skip(reason);
        }
        Optional<Messages.TransportInfo> there = agent.transports().stream()
                .filter(t -> t.id().equals(transport))
                .findFirst();
        if (there.filter(Messages.TransportInfo::available).isPresent()) {
            return new Skip(reason);
        }
        return context.profile()
                .requirements()
                .requiredButUnavailable(
                        transport,
                        "the target (" + agent.host() + ")",
                        there.map(Messages.TransportInfo::reason)
                                .orElse("its agent has no such transport (an older agent? run the same build on both"
                                        + " hosts)"))
                .<Admission>map(why -> new Fail(FailureKind.REQUIRED_TRANSPORT_UNAVAILABLE, why))
                .orElse(new Skip(reason));
    }

    /**
     * The target's device lacks what the point needs (its agent's code says so: a verbs device
     * without atomics where this host's has them): as on this host, a failure of its kind under a
     * profile that requires the transport, else a skip with the reason.
     */
    static Admission targetIncapable(LinkproofExecutionContext context, SweepPoint point, String host, String reason) {
        return context.profile()
                .requirements()
                .requiredButIncapable(point.spec().transport(), "the target (" + host + ")", reason)
                .<Admission>map(why -> new Fail(FailureKind.REQUIRED_CAPABILITY_UNAVAILABLE, why))
                .orElse(new Skip(reason));
    }

    /**
     * A required transport (the profile's {@code transport.required}) that this host lacks: the
     * transport itself is unavailable, or it needs an RDMA device and the profile resolves none
     * (unless the point names a NIC of the profile's kind that is not fit: that NIC is the finding).
     */
    private static Optional<String> unmetRequirement(
            LinkproofExecutionContext context, TransferSpec spec, boolean unfitNic) {
        Availability here = context.transportAvailability(spec.transport());
        ProfileRequirements required = context.profile().requirements();
        String why = !here.available()
                ? here.reason()
                : unfitNic ? null : required.noDevice(spec).orElse(null);
        return why == null ? Optional.empty() : required.requiredButUnavailable(spec.transport(), "this host", why);
    }

    /** The point's rails; a transport of one host (gpu-ipc, and decorators of it) runs its rails on pairs of GPUs. */
    private static RailPlan.Plan rails(LinkproofExecutionContext context, SweepPoint point) {
        boolean oneHost = context.transport(point.spec().transport())
                .map(Transport::sameHostOnly)
                .orElse(false);
        return RailPlan.of(context.profile().placement(), context.config().tcpRails(), point, oneHost);
    }
}
