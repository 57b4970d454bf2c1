package dev.linkproof.profiles;

import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.probe.GpuDevice;
import dev.linkproof.transfer.probe.HugePages;
import dev.linkproof.transfer.probe.NumaNode;
import dev.linkproof.transfer.probe.ProbeReport;
import dev.linkproof.transfer.probe.RdmaDevice;
import dev.linkproof.transfer.verbs.VerbsSettings;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a run may use on this host: the profile's {@code resources} resolved against the probe. It also says why a
 * point cannot run here ({@link #unavailable}), so the engine can skip it with the reason instead of failing it.
 *
 * @param nics      RDMA devices to use, NUMA-local first ({@code auto}) or as named
 * @param hugepages free huge pages the profile asks a hugepage point to find, at least
 * @param unfitNics devices of the NIC rule's kind not fit for it (left out under {@code auto}, or named), with why
 *                  ("no ACTIVE port (port 1 DOWN)"): a broken NIC, which {@code linkproof.nics=each} runs and fails
 */
public record ResourcePlan(
        String profileId,
        List<RdmaDevice> nics,
        List<GpuDevice> gpus,
        List<Integer> cpuCores,
        HugePages hugePages,
        long hugepages,
        List<String> notes,
        Map<String, String> unfitNics) {
    /** Transports that move data through an RDMA device. */
    public static final Set<String> RDMA_TRANSPORTS = Set.of("verbs");

    public ResourcePlan {
        nics = List.copyOf(nics);
        gpus = List.copyOf(gpus);
        cpuCores = List.copyOf(cpuCores);
        notes = List.copyOf(notes);
        unfitNics = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(unfitNics));
    }

    public static ResourcePlan of(HardwareProfile profile, ProbeReport probe) {
        ResourceSpec spec = profile.resources();
        List<String> notes = new ArrayList<>();

        List<GpuDevice> gpus;
        if (spec.gpusAuto()) {
            gpus = profile.match()
                    .gpu()
                    .map(rule -> ProfileMatcher.matchingGpus(rule, probe))
                    .orElse(probe.gpus());
        } else {
            gpus = new ArrayList<>();
            for (int i : spec.gpus()) {
                if (i < probe.gpus().size()) {
                    gpus.add(probe.gpus().get(i));
                } else {
                    notes.add("GPU " + i + " named in resources.gpus is absent (the probe found "
                            + probe.gpus().size() + ")");
                }
            }
        }

        List<Integer> cores = new ArrayList<>();
        Set<Integer> online =
                probe.cpu().nodes().stream().flatMap(n -> n.cpus().stream()).collect(Collectors.toSet());
        for (int c : spec.cpuCores()) {
            if (online.isEmpty() || online.contains(c)) {
                cores.add(c);
            } else {
                notes.add("cpu " + c + " named in resources.cpu-cores is not online");
            }
        }

        List<RdmaDevice> nics = new ArrayList<>();
        Map<String, String> unfit = new java.util.LinkedHashMap<>();
        if (!spec.nicsAuto()) {
            for (String name : spec.nics()) {
                Optional<RdmaDevice> d = probe.rdmaDevice(name);
                if (d.isPresent()) {
                    nics.add(d.get());
                    // Named, so of the profile's kind whatever its ids; its state can still be wrong.
                    List<String> state =
                            ProfileMatcher.stateProblems(profile.match().nic(), d.get());
                    if (!state.isEmpty()) {
                        unfit.put(name, String.join(", ", state));
                    }
                } else {
                    notes.add("RDMA device " + name + " named in resources.nics is absent");
                }
            }
        } else {
            List<RdmaDevice> candidates = profile.match()
                    .nic()
                    .map(rule -> ProfileMatcher.matchingNics(rule, probe))
                    .orElse(probe.rdmaDevices().stream()
                            .filter(RdmaDevice::hasActivePort)
                            .toList());
            Set<Integer> local = new LinkedHashSet<>();
            gpus.stream().map(GpuDevice::numaNode).filter(n -> n >= 0).forEach(local::add);
            if (local.isEmpty()) {
                for (NumaNode n : probe.cpu().nodes()) {
                    if (n.cpus().stream().anyMatch(cores::contains)) {
                        local.add(n.id());
                    }
                }
            }
            List<RdmaDevice> near = candidates.stream()
                    .filter(d -> local.contains(d.numaNode()))
                    .toList();
            boolean numaLocal = !local.isEmpty() && !near.isEmpty();
            // Devices of the kind the NIC rule is for (its PCI ids or driver) that it leaves out for
            // their state, on the same NUMA terms as the fit ones. Without such a rule (loopback)
            // nothing is of a kind: a host's NICs are not this profile's to fail.
            profile.match().nic().ifPresent(rule -> {
                for (RdmaDevice d : probe.rdmaDevices()) {
                    if (!candidates.contains(d)
                            && ProfileMatcher.ofTheKind(rule, d)
                            && (!numaLocal || local.contains(d.numaNode()))) {
                        unfit.put(d.name(), String.join(", ", ProfileMatcher.stateProblems(Optional.of(rule), d)));
                    }
                }
            });
            if (!numaLocal) {
                nics.addAll(candidates);
                if (!local.isEmpty() && !candidates.isEmpty()) {
                    notes.add("no matching RDMA device on NUMA node(s) " + local + "; using all matching devices");
                }
            } else {
                nics.addAll(near);
            }
        }
        return new ResourcePlan(profile.id(), nics, gpus, cores, probe.hugePages(), spec.hugepages(), notes, unfit);
    }

    /**
     * Settings this plan gives a point so that its transport uses the resources chosen here: for an
     * RDMA transport, {@code verbs.device} = the plan's first NIC (under {@code nics: auto} the
     * NUMA-local one, else the first named that exists). Empty for other transports, or when the plan
     * has no NIC. The caller lays them beneath the point's own settings and the profile's, so either
     * of those still names another device; one device per point, as the verbs transport opens one.
     */
    public Map<String, String> settingsFor(TransferSpec spec) {
        if (!RDMA_TRANSPORTS.contains(spec.transport()) || nics.isEmpty()) {
            return Map.of();
        }
        return Map.of(VerbsSettings.DEVICE, nics.getFirst().name());
    }

    /**
     * Why the RDMA device an RDMA point names ({@code verbs.device}) is not fit for this profile: one
     * of {@link #unfitNics}. Empty for every other point.
     */
    public Optional<String> unfitNic(TransferSpec spec) {
        String device = spec.settings().get(VerbsSettings.DEVICE);
        if (device == null || !RDMA_TRANSPORTS.contains(spec.transport()) || !unfitNics.containsKey(device)) {
            return Optional.empty();
        }
        return Optional.of("RDMA device " + device + " is of the kind profile '" + profileId
                + "' is for, and not fit for it: " + unfitNics.get(device));
    }

    /** Why the point cannot run on this host with this profile; empty when it can. */
    public Optional<String> unavailable(TransferSpec spec) {
        return noDevice(spec).or(() -> notProvided(spec));
    }

    /** An RDMA transport's point on a host where this profile resolves no RDMA device (a port down, a driver not loaded). */
    public Optional<String> noDevice(TransferSpec spec) {
        if (RDMA_TRANSPORTS.contains(spec.transport()) && nics.isEmpty()) {
            return Optional.of("transport " + spec.transport() + " needs an RDMA device, and profile '" + profileId
                    + "' resolves none on this host");
        }
        return Optional.empty();
    }

    /**
     * The spec with each {@code gpu:k} of its memory turned into the runtime ordinal of the k-th GPU
     * this plan provides ({@code resources.gpus: [2, 3]} puts {@code gpu} on GPU 2 and {@code gpu:1}
     * on GPU 3; {@code auto} with a GPU rule, on the GPUs the rule accepts), so that a profile decides
     * where GPU points run as it decides the NIC. A point with a placement beyond the plan's GPUs
     * stays as written, both sides ({@link #notProvided} skips it, and half a mapping would name GPUs it
     * never ran on).
     */
    public TransferSpec placeGpus(TransferSpec spec) {
        if (beyond(spec.initiatorMemory()) || beyond(spec.targetMemory())) {
            return spec;
        }
        MemoryPlacement initiator = place(spec.initiatorMemory());
        MemoryPlacement target = place(spec.targetMemory());
        return initiator.equals(spec.initiatorMemory()) && target.equals(spec.targetMemory())
                ? spec
                : spec.withMemory(initiator, target);
    }

    private boolean beyond(MemoryPlacement side) {
        return side.kind() == MemoryKind.GPU && side.device() >= gpus.size();
    }

    /** {@code side} placed on the plan's GPUs; called only when no side is {@link #beyond} them. */
    private MemoryPlacement place(MemoryPlacement side) {
        if (side.kind() != MemoryKind.GPU) {
            return side;
        }
        return new MemoryPlacement(MemoryKind.GPU, gpus.get(side.device()).index());
    }

    /** Memory the point needs that this profile does not provide here: GPUs it gives none of, huge pages. */
    public Optional<String> notProvided(TransferSpec spec) {
        long hugeSides = 0;
        for (MemoryPlacement side : List.of(spec.initiatorMemory(), spec.targetMemory())) {
            if (side.kind() == MemoryKind.GPU) {
                if (gpus.isEmpty()) {
                    return Optional.of("needs GPU memory (" + side + "), and profile '" + profileId
                            + "' provides no GPU on this host");
                }
                if (beyond(side)) {
                    return Optional.of(
                            "needs " + side + ", and profile '" + profileId + "' provides " + gpus.size() + " GPU(s)");
                }
            } else if (side.kind() == MemoryKind.HUGEPAGE) {
                hugeSides++;
            }
        }
        if (hugeSides > 0) {
            if (hugePages.pageSizeKiB() <= 0 || hugePages.total() == 0) {
                return Optional.of("needs huge pages, and the host reserves none (HugePages_Total 0)");
            }
            long pageBytes = hugePages.pageSizeKiB() * 1024;
            long perSide = (spec.slots().regionBytes() + pageBytes - 1) / pageBytes;
            long needed = Math.max(hugepages, perSide * hugeSides);
            if (hugePages.free() < needed) {
                return Optional.of("needs " + needed + " free huge pages of " + hugePages.pageSizeKiB()
                        + " KiB, and the host has " + hugePages.free() + " free of " + hugePages.total());
            }
        }
        return Optional.empty();
    }
}
