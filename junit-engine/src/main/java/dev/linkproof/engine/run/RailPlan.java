package dev.linkproof.engine.run;

import dev.linkproof.engine.api.SweepPoint;
import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.config.TcpRail;
import dev.linkproof.engine.judging.ProfilePlacement;
import dev.linkproof.profiles.ResourcePlan;
import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.gpuipc.GpuIpcTransport;
import dev.linkproof.transfer.libfabric.LibfabricSettings;
import dev.linkproof.transfer.libfabric.LibfabricTransport;
import dev.linkproof.transfer.probe.GpuDevice;
import dev.linkproof.transfer.probe.ProbeReport;
import dev.linkproof.transfer.probe.RdmaDevice;
import dev.linkproof.transfer.session.Rails;
import dev.linkproof.transfer.tcp.TcpSettings;
import dev.linkproof.transfer.ucx.UcxSettings;
import dev.linkproof.transfer.verbs.VerbsSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which rails a point of several runs on, before any session. RDMA: the profile's NICs in the probe's order, rail
 * i being NIC i on both ranks (hosts of one SKU name their NICs alike); ucx: the same NICs, each rail's context on
 * its own ({@code UCX_NET_DEVICES}); tcp: the links {@code linkproof.tcp.rails} names; a transport of one host
 * (gpu-ipc): rail k from the point's GPU shifted by k to its other GPU shifted by k ({@code gpu->gpu:1} on four
 * GPUs: 0→1, 1→2, 2→3, 3→0 at once). A verbs or ucx point with GPU memory puts rail k's GPUs on the GPU NUMA-local
 * to rail k's NIC ({@link #gpusForNics}), as MORI-IO and DLSlime pair them. A point that asks for more rails than
 * there are, or a transport that has none, is short, and says why.
 */
public final class RailPlan {
    /**
     * One rail before it has a session: how reports name it, the settings that put a point on it, and
     * whether it runs back, from the target's node to the initiator's (driven by the target's agent).
     */
    public record Spot(String label, Map<String, String> settings, boolean back, Optional<Rails.Placement> memory) {
        public Spot(String label, Map<String, String> settings, boolean back) {
            this(label, settings, back, Optional.empty());
        }

        public Spot(String label, Map<String, String> settings) {
            this(label, settings, false);
        }

        /** {@code point} on this rail as far as its memory goes: the rail's own GPUs, else the point's. */
        public TransferSpec placed(TransferSpec point) {
            return memory.map(m -> point.withMemory(m.initiator(), m.target())).orElse(point);
        }
    }

    /**
     * The GPU a rail of a verbs or ucx point with GPU memory uses: the profile's GPU at {@code position}
     * (its {@code gpu:position}), and, when it is not NUMA-local to the rail's NIC, why
     * ({@code fallback}): rail k then uses the profile's GPU k (modulo how many it provides).
     */
    public record GpuChoice(int position, Optional<String> fallback) {}

    private RailPlan() {}

    /** The rails {@code point} runs on, or why it cannot run; gpu-ipc's rails are GPU pairs. */
    public static Plan of(ProfilePlacement placement, List<TcpRail> tcpRails, SweepPoint point) {
        return of(placement, tcpRails, point, point.spec().transport().equals(GpuIpcTransport.ID));
    }

    /**
     * The rails {@code point} runs on, or why it cannot run (a skip, or a failure under a profile that
     * requires its transport).
     *
     * @param gpuPairs the point's transport moves data within one host ({@code Transport.sameHostOnly}:
     *                 gpu-ipc, and the test suites' decorators of it): its rails are pairs of GPUs
     */
    public static Plan of(ProfilePlacement placement, List<TcpRail> tcpRails, SweepPoint point, boolean gpuPairs) {
        String transport = point.spec().transport();
        if (gpuPairs) {
            return gpuPairs(placement, point);
        }
        List<Spot> available = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        String none;
        boolean libfabric = transport.equals(LibfabricTransport.ID);
        if (ResourcePlan.RDMA_TRANSPORTS.contains(transport) || transport.equals("ucx") || libfabric) {
            boolean ucx = transport.equals("ucx");
            // UCX over the profile's NICs: each rail's context on its own device (ucp_config_modify per point).
            List<String> nics = placement.nicsForEach();
            // Notes only of the rails that run: a fallback on a NIC the point does not use is nothing to say.
            int used = point.rails() == 0 ? nics.size() : Math.min(point.rails(), nics.size());
            List<Optional<Rails.Placement>> gpus = nicGpus(placement, point.spec(), nics, used, notes);
            for (int k = 0; k < nics.size(); k++) {
                String nic = nics.get(k);
                Optional<Rails.Placement> memory = gpus.get(k);
                String label = memory.map(m -> nic + " · " + gpuOf(m)).orElse(nic);
                // libfabric: the NIC's domain (verbs;ofi_rxm names it as the device, efa after it).
                available.add(new Spot(
                        label,
                        ucx
                                ? Map.of(UcxSettings.NET_DEVICES, UcxSettings.netDevice(nic))
                                : libfabric ? Map.of(LibfabricSettings.DOMAIN, nic) : Map.of(VerbsSettings.DEVICE, nic),
                        false,
                        memory));
            }
            none = ucx || libfabric
                    ? "the profile resolves no RDMA device on this host for " + transport + "'s rails"
                    : "the profile resolves no RDMA device on this host";
        } else if (transport.equals("tcp")) {
            for (TcpRail r : tcpRails) {
                Map<String, String> settings = new LinkedHashMap<>();
                settings.put(TcpSettings.ADDRESS, r.target());
                r.source().ifPresent(s -> settings.put(TcpSettings.SOURCE, s));
                available.add(new Spot(r.label(), settings));
            }
            none = "no tcp links are named: give them with " + Constants.TCP_RAILS
                    + "=SOURCE->TARGET,… (one per rail, each its own link)";
        } else {
            none = "the " + transport
                    + " transport has no rails to run on here (rails are RDMA devices for verbs, ucx and libfabric, "
                    + "links for tcp, GPU pairs for gpu-ipc)";
        }
        int wanted = point.rails();
        if (wanted == 1 && point.bothWays() && (!transport.equals("tcp") || tcpRails.isEmpty())) {
            // One pair both ways: the pair's own path out (the profile's device, the agent's address) and back.
            return new Plan(List.of(new Spot("out", Map.of()), new Spot("back", Map.of(), true)), Optional.empty());
        }
        Plan plan = chosen(available, wanted, none, point.bothWays());
        return plan.shortfall().isPresent() ? plan : new Plan(plan.spots(), plan.shortfall(), notes);
    }

    /** The first {@code wanted} of {@code available} (every one for 0), and their ways back; or why there are too few. */
    private static Plan chosen(List<Spot> available, int wanted, String none, boolean bothWays) {
        if (available.isEmpty()) {
            return new Plan(List.of(), Optional.of(describe(wanted) + " asked, and " + none));
        }
        if (wanted > available.size()) {
            return new Plan(
                    List.of(),
                    Optional.of(describe(wanted) + " asked, and only " + available.size() + " available ("
                            + String.join(
                                    ", ", available.stream().map(Spot::label).toList()) + ")"));
        }
        List<Spot> out = List.copyOf(available.subList(0, wanted == 0 ? available.size() : wanted));
        return bothWays ? bothWays(out) : new Plan(out, Optional.empty());
    }

    /**
     * A one-host transport's rails: rail k runs the point's GPU sides each shifted by k over the GPUs
     * the profile provides (as {@code linkproof.gpus=each} shifts a point of one pair), placed on their
     * runtime ordinals ({@link ProfilePlacement#placeGpus}); {@link dev.linkproof.engine.api.TransferTest#ALL_RAILS}
     * is every GPU. Both ways, each pair also runs the other way (GPU j to GPU i), driven from here
     * like the rest: on one host the way back is the reversed pair, not the same pair driven by the agent.
     */
    private static Plan gpuPairs(ProfilePlacement placement, SweepPoint point) {
        TransferSpec spec = point.spec();
        int gpus = placement.gpuCount();
        List<Spot> available = new ArrayList<>();
        String none;
        boolean anyGpu = isGpu(spec.initiatorMemory()) || isGpu(spec.targetMemory());
        boolean beyond = isGpu(spec.initiatorMemory()) && spec.initiatorMemory().device() >= gpus
                || isGpu(spec.targetMemory()) && spec.targetMemory().device() >= gpus;
        if (!anyGpu) {
            none = "the " + spec.transport()
                    + " transport's rails are pairs of GPUs, and the point's memory names none ("
                    + spec.initiatorMemory() + "->" + spec.targetMemory() + ")";
        } else if (gpus == 0) {
            none = "the profile provides no GPU on this host";
        } else if (beyond) {
            none = "the point needs " + spec.initiatorMemory() + "->" + spec.targetMemory()
                    + ", and the profile provides " + gpus + " GPU(s)";
        } else {
            none = "";
            for (int k = 0; k < gpus; k++) {
                TransferSpec placed = placement.placeGpus(
                        spec.withMemory(shift(spec.initiatorMemory(), k, gpus), shift(spec.targetMemory(), k, gpus)));
                Rails.Placement pair = new Rails.Placement(placed.initiatorMemory(), placed.targetMemory());
                available.add(new Spot(pairLabel(pair), Map.of(), false, Optional.of(pair)));
            }
        }
        Plan out = chosen(available, point.rails(), none, false);
        if (out.shortfall().isPresent() || !point.bothWays()) {
            return out;
        }
        List<Spot> all = new ArrayList<>(out.spots());
        for (Spot s : out.spots()) {
            Rails.Placement back = s.memory().orElseThrow().reversed();
            all.add(new Spot(pairLabel(back) + " back", Map.of(), false, Optional.of(back)));
        }
        return new Plan(List.copyOf(all), Optional.empty());
    }

    private static boolean isGpu(MemoryPlacement side) {
        return side.kind() == MemoryKind.GPU;
    }

    private static MemoryPlacement shift(MemoryPlacement side, int by, int gpus) {
        return isGpu(side) ? new MemoryPlacement(MemoryKind.GPU, (side.device() + by) % gpus) : side;
    }

    /** "GPU 0→GPU 1": a GPU pair as reports name its rail (runtime ordinals). */
    static String pairLabel(Rails.Placement pair) {
        return pair.label();
    }

    private static String side(MemoryPlacement p) {
        return Rails.Placement.side(p);
    }

    /** "GPU 2", or "host→GPU 2": the GPU side(s) of a NIC's rail. */
    private static String gpuOf(Rails.Placement m) {
        return isGpu(m.initiator()) && isGpu(m.target()) && m.initiator().equals(m.target())
                ? side(m.initiator())
                : pairLabel(m);
    }

    /**
     * Each NIC rail's memory for a point with GPU memory: every GPU side on the GPU {@link #gpusForNics}
     * pairs with the rail's NIC (a pair of hosts of one SKU has the same GPU beside NIC k on both); empty
     * for a point without GPU memory, or when the profile provides no GPU (the point is skipped for that).
     * A rail whose GPU is not NUMA-local to its NIC adds a note saying why.
     */
    private static List<Optional<Rails.Placement>> nicGpus(
            ProfilePlacement placement, TransferSpec spec, List<String> nics, int used, List<String> notes) {
        List<Optional<Rails.Placement>> out = new ArrayList<>();
        List<GpuDevice> gpus = placement.gpus();
        if (!(isGpu(spec.initiatorMemory()) || isGpu(spec.targetMemory())) || gpus.isEmpty()) {
            nics.forEach(n -> out.add(Optional.empty()));
            return out;
        }
        List<GpuChoice> choices = gpusForNics(nics, placement.host(), gpus);
        for (int k = 0; k < nics.size(); k++) {
            GpuChoice c = choices.get(k);
            MemoryPlacement gpu =
                    new MemoryPlacement(MemoryKind.GPU, gpus.get(c.position()).index());
            out.add(Optional.of(new Rails.Placement(
                    isGpu(spec.initiatorMemory()) ? gpu : spec.initiatorMemory(),
                    isGpu(spec.targetMemory()) ? gpu : spec.targetMemory())));
            int rail = k;
            c.fallback()
                    .filter(why -> rail < used)
                    .ifPresent(why -> notes.add("rail " + rail + " (" + nics.get(rail) + ") on GPU " + gpu.device()
                            + ", the profile's GPU " + c.position() + ", not by NUMA: " + why));
        }
        return out;
    }

    /**
     * Which of {@code gpus} (the profile's, in its order) each of {@code nics} (rail k's NIC) gets: the
     * GPU on the NIC's NUMA node, as MORI-IO and DLSlime pair a GPU with its NIC. Among several there,
     * the one not yet taken by an earlier rail whose PCI bus is nearest the NIC's (a GPU and NIC behind
     * one PCIe switch take neighbouring bus numbers; the probe does not read the switch tree), then the
     * first in the profile's order; when every GPU there is taken, they are shared, nearest first. A NIC
     * whose NUMA node the probe does not know (a software device, a platform without NUMA) or with no
     * GPU on its node gets GPU k (modulo how many there are), and the reason.
     */
    public static List<GpuChoice> gpusForNics(List<String> nics, ProbeReport probe, List<GpuDevice> gpus) {
        if (gpus.isEmpty()) {
            throw new IllegalArgumentException("no GPUs to pair with NICs");
        }
        List<GpuChoice> out = new ArrayList<>();
        java.util.Set<Integer> taken = new java.util.HashSet<>();
        for (int k = 0; k < nics.size(); k++) {
            String nic = nics.get(k);
            Optional<RdmaDevice> device = probe.rdmaDevice(nic);
            int node = device.map(RdmaDevice::numaNode).orElse(-1);
            if (node < 0) {
                out.add(new GpuChoice(
                        k % gpus.size(),
                        Optional.of(
                                device.isEmpty()
                                        ? "the probe does not list " + nic
                                        : "the probe gives no NUMA node for " + nic
                                                + (device.get().software() ? " (a software device)" : ""))));
                continue;
            }
            List<Integer> local = new ArrayList<>();
            for (int p = 0; p < gpus.size(); p++) {
                if (gpus.get(p).numaNode() == node) {
                    local.add(p);
                }
            }
            if (local.isEmpty()) {
                out.add(new GpuChoice(
                        k % gpus.size(),
                        Optional.of("no GPU the profile provides is on " + nic + "'s NUMA node " + node)));
                continue;
            }
            List<Integer> free = local.stream().filter(p -> !taken.contains(p)).toList();
            String at = device.get().pci().map(f -> f.address()).orElse("");
            java.util.Comparator<Integer> nearest = java.util.Comparator.comparingLong(
                    p -> busDistance(at, gpus.get(p).pci().address()));
            int chosen = (free.isEmpty() ? local : free)
                    .stream().min(nearest.thenComparingInt(p -> p)).orElseThrow();
            taken.add(chosen);
            out.add(new GpuChoice(chosen, Optional.empty()));
        }
        return out;
    }

    /**
     * How far apart two PCI functions' buses are ({@code 0000:18:00.0} and {@code 0000:1b:00.0}: 3);
     * another domain, or an address not known, is as far as can be.
     */
    static long busDistance(String a, String b) {
        String[] x = a.split(":");
        String[] y = b.split(":");
        if (x.length < 3 || y.length < 3 || !x[0].equalsIgnoreCase(y[0])) {
            return Long.MAX_VALUE;
        }
        try {
            return Math.abs(Integer.parseInt(x[1], 16) - Integer.parseInt(y[1], 16));
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }

    /**
     * The rails and, after them, each one back: the same device (a node pair of one SKU names its NICs
     * alike); for tcp the link's addresses swapped, so the way back needs the initiator's address of
     * every link ({@code SOURCE->TARGET}).
     */
    private static Plan bothWays(List<Spot> out) {
        List<Spot> all = new ArrayList<>(out);
        for (Spot s : out) {
            Optional<Map<String, String>> back = TcpSettings.wayBack(s.settings());
            if (back.isEmpty()) {
                return new Plan(
                        List.of(),
                        Optional.of("both ways over tcp link " + s.label() + " needs the initiator's "
                                + "address on it: give " + Constants.TCP_RAILS + " as SOURCE->TARGET"));
            }
            all.add(new Spot(s.label() + " back", back.get(), true, s.memory()));
        }
        return new Plan(List.copyOf(all), Optional.empty());
    }

    private static String describe(int wanted) {
        return wanted == 0 ? "every rail" : wanted + " rails";
    }

    /**
     * The rails a point runs on, or why it is short of them.
     *
     * @param notes what the point's report should say of how its rails were placed (a rail whose GPU is
     *              not NUMA-local to its NIC, and why); empty when there is nothing to say
     */
    public record Plan(List<Spot> spots, Optional<String> shortfall, List<String> notes) {
        public Plan {
            spots = List.copyOf(spots);
            notes = List.copyOf(notes);
        }

        public Plan(List<Spot> spots, Optional<String> shortfall) {
            this(spots, shortfall, List.of());
        }
    }
}
