package dev.linkproof.transfer.cli;

import dev.linkproof.transfer.tcp.TcpTransport;
import dev.linkproof.transfer.verbs.VerbsSettings;
import dev.linkproof.transfer.verbs.VerbsTransport;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code --rails}: what each rail of a point runs on, as the settings its spec gets on both ranks.
 * verbs: a device name per rail ({@code verbs.device}); tcp: {@code SOURCE->TARGET} or {@code TARGET}
 * ({@code tcp.source}, {@code tcp.address}). A transport whose rails have no such setting yet is a
 * usage error rather than rails that would all run on one path.
 */
final class RailEntries {
    /** The initiator-side address of a tcp rail. */
    static final String TCP_SOURCE = dev.linkproof.transfer.tcp.TcpSettings.SOURCE;
    /** The target-side address of a tcp rail. */
    static final String TCP_ADDRESS = dev.linkproof.transfer.tcp.TcpSettings.ADDRESS;
    /** Between a tcp rail's source and target addresses. */
    static final String ARROW = "->";

    /** One rail: how reports name it, and the settings its spec gets beside the point's own. */
    record Entry(String label, Map<String, String> settings, boolean back) {
        Entry {
            settings = Map.copyOf(settings);
        }

        Entry(String label, Map<String, String> settings) {
            this(label, settings, false);
        }
    }

    /**
     * {@code --both-ways}: the rails (one unnamed pair, "out", when there are none), then each of them
     * back, driven from the agent's side toward this process's agent; a tcp rail's addresses swapped for
     * its way back, so it needs its SOURCE.
     */
    static List<Entry> bothWays(List<Entry> rails) {
        List<Entry> out = rails.isEmpty() ? List.of(new Entry("out", Map.of())) : rails;
        List<Entry> all = new java.util.ArrayList<>(out);
        for (Entry e : out) {
            Map<String, String> back = dev.linkproof.transfer.tcp.TcpSettings.wayBack(e.settings()).orElseThrow(() ->
                    new IllegalArgumentException("--both-ways over tcp rail '" + e.label() + "' needs its SOURCE->TARGET "
                            + "(the way back goes to the source)"));
            all.add(new Entry(rails.isEmpty() ? "back" : e.label() + " back", back, true));
        }
        return List.copyOf(all);
    }

    private static final Pattern DEVICE = Pattern.compile("[A-Za-z0-9_.-]+");
    /** A host name, an IPv4 or IPv6 address (a zone too: fe80::1%eth1). */
    private static final Pattern ADDRESS = Pattern.compile("[A-Za-z0-9_.:%-]+|\\[[A-Za-z0-9_.:%-]+]");

    private RailEntries() {
    }

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
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < entries.size(); i++) {
            String entry = entries.get(i).trim();
            if (entry.isEmpty()) {
                throw new IllegalArgumentException("--rails: entry " + i + " is empty (a comma too many?)");
            }
            Entry rail = switch (transport) {
                case VerbsTransport.ID -> verbs(entry);
                case TcpTransport.ID -> tcp(entry);
                default -> throw new IllegalArgumentException("--rails is for the verbs (a device per rail) and tcp (an address"
                        + " pair per rail) transports; transport " + transport + " has no per-rail setting yet");
            };
            if (!seen.add(rail.label())) {
                throw new IllegalArgumentException("--rails names " + rail.label() + " twice: every rail is its own "
                        + (transport.equals(VerbsTransport.ID) ? "device" : "pair of addresses"));
            }
            for (String key : rail.settings().keySet()) {
                if (settings.containsKey(key)) {
                    throw new IllegalArgumentException("--rails sets " + key + " for every rail; drop --set " + key + "="
                            + settings.get(key));
                }
            }
            rails.add(rail);
        }
        return List.copyOf(rails);
    }

    private static Entry verbs(String entry) {
        if (!DEVICE.matcher(entry).matches()) {
            throw new IllegalArgumentException("--rails: '" + entry + "' is not an RDMA device name: a verbs rail is a device,"
                    + " used on both ranks (e.g. --rails rxe0,rxe9 or mlx5_0,mlx5_1)");
        }
        return new Entry(entry, Map.of(VerbsSettings.DEVICE, entry));
    }

    private static Entry tcp(String entry) {
        Map<String, String> s = new LinkedHashMap<>();
        int arrow = entry.indexOf(ARROW);
        String target = arrow < 0 ? entry : entry.substring(arrow + ARROW.length()).trim();
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
            throw new IllegalArgumentException("--rails: '" + entry + "' has " + (address.isEmpty() ? "no " + which + " address"
                    : "'" + address + "' as its " + which + " address, which is not a host name or an IP address")
                    + ": a tcp rail is SOURCE->TARGET or TARGET (e.g. 10.1.0.1->10.1.0.2)");
        }
    }
}
