package dev.linkproof.transfer.cli;

import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.gpuipc.GpuIpcTransport;
import dev.linkproof.transfer.libfabric.LibfabricSettings;
import dev.linkproof.transfer.libfabric.LibfabricTransport;
import dev.linkproof.transfer.session.Rails;
import dev.linkproof.transfer.tcp.TcpTransport;
import dev.linkproof.transfer.ucx.UcxSettings;
import dev.linkproof.transfer.ucx.UcxTransport;
import dev.linkproof.transfer.verbs.VerbsSettings;
import dev.linkproof.transfer.verbs.VerbsTransport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code --rails}: what each rail of a point runs on, as the settings its spec gets on both ranks or
 * the memory it runs on: verbs {@code DEVICE} ({@code verbs.device}); ucx {@code DEVICE[:PORT]}
 * ({@code UCX_NET_DEVICES} by the engine's rule, {@link UcxSettings#netDevice}); tcp
 * {@code [SOURCE->]TARGET} ({@code tcp.source}, {@code tcp.address}); gpu-ipc a GPU pair {@code I->J}
 * by runtime ordinal, in place of the point's memory ({@link Rails.Placement}). Another transport's
 * rails are a usage error rather than rails that would all run on one path.
 */
final class RailEntries {
    /** The initiator-side address of a tcp rail. */
    static final String TCP_SOURCE = dev.linkproof.transfer.tcp.TcpSettings.SOURCE;
    /** The target-side address of a tcp rail. */
    static final String TCP_ADDRESS = dev.linkproof.transfer.tcp.TcpSettings.ADDRESS;
    /** Between a tcp rail's source and target addresses. */
    static final String ARROW = "->";

    /**
     * One rail: how reports name it, the settings its spec gets beside the point's own, whether it is a
     * way back driven by the agent, and its own memory (a gpu-ipc rail's GPUs) in place of the point's.
     */
    record Entry(String label, Map<String, String> settings, boolean back, Optional<Rails.Placement> memory) {
        Entry {
            settings = Map.copyOf(settings);
            java.util.Objects.requireNonNull(memory, "memory");
        }

        Entry(String label, Map<String, String> settings, boolean back) {
            this(label, settings, back, Optional.empty());
        }

        Entry(String label, Map<String, String> settings) {
            this(label, settings, false);
        }
    }

    /**
     * {@code --both-ways}: the rails (one unnamed pair, "out", when there are none), then each of them
     * back, driven from the agent's side toward this process's agent; a tcp rail's addresses swapped for
     * its way back, so it needs its SOURCE. gpu-ipc is of one host: as the engine runs it, each pair
     * (the point's own, {@code pointMemory}, when there are no rails) also runs reversed (GPU j to GPU
     * i), driven from here like the rest: {@code "GPU 1→GPU 0 back"}.
     */
    static List<Entry> bothWays(String transport, List<Entry> rails, Rails.Placement pointMemory) {
        if (transport.equals(GpuIpcTransport.ID)) {
            List<Entry> out = rails.isEmpty()
                    ? List.of(new Entry(pointMemory.label(), Map.of(), false, Optional.of(pointMemory)))
                    : rails;
            List<Entry> all = new ArrayList<>(out);
            for (Entry e : out) {
                Rails.Placement back = e.memory().orElse(pointMemory).reversed();
                all.add(new Entry(back.label() + " back", e.settings(), false, Optional.of(back)));
            }
            return List.copyOf(all);
        }
        return bothWays(rails);
    }

    /** {@link #bothWays(String, List, Rails.Placement)} for a transport of two hosts. */
    static List<Entry> bothWays(List<Entry> rails) {
        List<Entry> out = rails.isEmpty() ? List.of(new Entry("out", Map.of())) : rails;
        List<Entry> all = new java.util.ArrayList<>(out);
        for (Entry e : out) {
            Map<String, String> back = dev.linkproof.transfer.tcp.TcpSettings.wayBack(e.settings())
                    .orElseThrow(() -> new IllegalArgumentException("--both-ways over tcp rail '" + e.label()
                            + "' needs its SOURCE->TARGET " + "(the way back goes to the source)"));
            all.add(new Entry(rails.isEmpty() ? "back" : e.label() + " back", back, true, e.memory()));
        }
        return List.copyOf(all);
    }

    private static final Pattern DEVICE = Pattern.compile("[A-Za-z0-9_.-]+");
    /** A UCX device: an RDMA device, with its port or not (mlx5_0, mlx5_0:1). */
    private static final Pattern UCX_DEVICE = Pattern.compile("[A-Za-z0-9_.-]+(:[0-9]+)?");
    /** A gpu-ipc rail: the initiator's GPU and the target's, runtime ordinals. */
    private static final Pattern GPU_PAIR = Pattern.compile("([0-9]{1,4})\\s*->\\s*([0-9]{1,4})");
    /** A host name, an IPv4 or IPv6 address (a zone too: fe80::1%eth1). */
    private static final Pattern ADDRESS = Pattern.compile("[A-Za-z0-9_.:%-]+|\\[[A-Za-z0-9_.:%-]+]");

    private RailEntries() {}

    /**
     * The rails {@code entries} name for {@code transport}, in order.
     *
     * @param settings the point's own settings ({@code --set}): a rail's key given there too is an error
     * @throws IllegalArgumentException naming the bad entry and what was expected
     */
    static List<Entry> parse(String transport, List<String> entries, Map<String, String> settings) {
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("--rails needs at least one rail");
        }
        List<Entry> rails = new ArrayList<>();
        // What a rail runs on (its settings and memory): two entries of one rail are one rail twice.
        Map<List<Object>, String> seen = new HashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            String entry = entries.get(i).trim();
            if (entry.isEmpty()) {
                throw new IllegalArgumentException("--rails: entry " + i + " is empty (a comma too many?)");
            }
            Entry rail = switch (transport) {
                case VerbsTransport.ID -> verbs(entry);
                case TcpTransport.ID -> tcp(entry);
                case UcxTransport.ID -> ucx(entry);
                case GpuIpcTransport.ID -> gpuPair(entry);
                case LibfabricTransport.ID -> libfabric(entry);
                default ->
                    throw new IllegalArgumentException("--rails is for the verbs (a device per rail), ucx (a UCX"
                            + " device per rail), tcp (an address pair per rail), gpu-ipc (a GPU pair per rail) and"
                            + " libfabric (a domain per rail) transports; transport "
                            + transport + " has no per-rail setting yet");
            };
            String earlier = seen.putIfAbsent(List.of(rail.settings(), rail.memory()), entry);
            if (earlier != null) {
                String what = earlier.equals(entry)
                        ? rail.label()
                        : rail.label() + " ('" + earlier + "' and '" + entry + "')";
                throw new IllegalArgumentException("--rails names " + what + " twice: every rail is its own "
                        + switch (transport) {
                            case VerbsTransport.ID -> "device";
                            case UcxTransport.ID -> "device (a bare name is port " + UcxSettings.DEFAULT_PORT + ")";
                            case GpuIpcTransport.ID -> "pair of GPUs";
                            case LibfabricTransport.ID -> "domain";
                            default -> "pair of addresses";
                        });
            }
            for (String key : rail.settings().keySet()) {
                if (settings.containsKey(key)) {
                    throw new IllegalArgumentException(
                            "--rails sets " + key + " for every rail; drop --set " + key + "=" + settings.get(key));
                }
            }
            rails.add(rail);
        }
        return List.copyOf(rails);
    }

    private static Entry verbs(String entry) {
        if (!DEVICE.matcher(entry).matches()) {
            throw new IllegalArgumentException(
                    "--rails: '" + entry + "' is not an RDMA device name: a verbs rail is a device,"
                            + " used on both ranks (e.g. --rails rxe0,rxe9 or mlx5_0,mlx5_1)");
        }
        return new Entry(entry, Map.of(VerbsSettings.DEVICE, entry));
    }

    /** A ucx rail: its device as UCX_NET_DEVICES names it, by the engine's rule; labelled as given. */
    private static Entry ucx(String entry) {
        if (!UCX_DEVICE.matcher(entry).matches()) {
            throw new IllegalArgumentException("--rails: '" + entry + "' is not a UCX device: a ucx rail is DEVICE or "
                    + "DEVICE:PORT, used on both ranks as " + UcxSettings.NET_DEVICES + " (a bare name on port "
                    + UcxSettings.DEFAULT_PORT + "; e.g. --rails mlx5_0,mlx5_1 or mlx5_0:1,mlx5_1:1)");
        }
        return new Entry(entry, Map.of(UcxSettings.NET_DEVICES, UcxSettings.netDevice(entry)));
    }

    /** A libfabric rail: a domain of the point's provider (a NIC, for tcp an interface), used on both ranks. */
    private static Entry libfabric(String entry) {
        if (!DEVICE.matcher(entry).matches()) {
            throw new IllegalArgumentException(
                    "--rails: '" + entry + "' is not a libfabric domain name: a libfabric rail is a domain of the"
                            + " provider (fi_info's domain: a NIC such as rdmap16s27 or rxe0, for tcp an"
                            + " interface), used on both ranks (e.g. --rails lo,eth0)");
        }
        return new Entry(entry, Map.of(LibfabricSettings.DOMAIN, entry));
    }

    /** A gpu-ipc rail: GPU I (the initiator's side) to GPU J, as the rail's memory; labelled as the engine labels it. */
    private static Entry gpuPair(String entry) {
        Matcher m = GPU_PAIR.matcher(entry);
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    "--rails: '" + entry + "' is not a GPU pair: a gpu-ipc rail is I->J, the runtime ordinals of the"
                            + " initiator's GPU and the target's (quote the '>'; e.g. --rails"
                            + " '0->1,1->0')");
        }
        Rails.Placement pair = new Rails.Placement(
                new MemoryPlacement(MemoryKind.GPU, Integer.parseInt(m.group(1))),
                new MemoryPlacement(MemoryKind.GPU, Integer.parseInt(m.group(2))));
        return new Entry(pair.label(), Map.of(), false, Optional.of(pair));
    }

    private static Entry tcp(String entry) {
        Map<String, String> s = new LinkedHashMap<>();
        int arrow = entry.indexOf(ARROW);
        String target =
                arrow < 0 ? entry : entry.substring(arrow + ARROW.length()).trim();
        if (arrow >= 0) {
            String source = entry.substring(0, arrow).trim();
            requireAddress(entry, source, "source");
            s.put(TCP_SOURCE, source);
        }
        requireAddress(entry, target, "target");
        s.put(TCP_ADDRESS, target);
        return new Entry(arrow < 0 ? target : s.get(TCP_SOURCE) + ARROW + target, s);
    }

    private static void requireAddress(String entry, String address, String which) {
        if (!ADDRESS.matcher(address).matches()) {
            throw new IllegalArgumentException("--rails: '" + entry + "' has "
                    + (address.isEmpty()
                            ? "no " + which + " address"
                            : "'" + address + "' as its " + which
                                    + " address, which is not a host name or an IP address")
                    + ": a tcp rail is SOURCE->TARGET or TARGET (e.g. 10.1.0.1->10.1.0.2)");
        }
    }
}
