package dev.linkproof.engine.run;

import dev.linkproof.engine.api.SweepPoint;
import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.config.TcpRail;
import dev.linkproof.engine.judging.RunProfile;
import dev.linkproof.profiles.ResourcePlan;
import dev.linkproof.transfer.tcp.TcpSettings;
import dev.linkproof.transfer.verbs.VerbsSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which rails a point of several runs on, before any session: for an RDMA transport, the profile's
 * NICs in the probe's order (rail i is NIC i on both ranks: a pair of hosts of one SKU names its NICs
 * alike, the usual rail-by-rail layout); for ucx the same NICs, each rail's UCX context on its own
 * ({@code UCX_NET_DEVICES}); for tcp, the links {@code linkproof.tcp.rails} names. gpu-ipc has no
 * rails yet (GPU i with GPU j at once needs a placement per rail, not a setting). A point
 * that asks for more rails than there are, or a transport that has none, is short, and says why.
 */
public final class RailPlan {
    /**
     * One rail before it has a session: how reports name it, the settings that put a point on it, and
     * whether it runs back, from the target's node to the initiator's (driven by the target's agent).
     */
    public record Spot(String label, Map<String, String> settings, boolean back) {
        public Spot(String label, Map<String, String> settings) {
            this(label, settings, false);
        }
    }

    /** The UCX setting that puts a ucx point's context on one device (port 1). */
    static final String UCX_NET_DEVICES = "UCX_NET_DEVICES";

    private RailPlan() {
    }

    /** The rails {@code point} runs on, or why it cannot run (a skip, or a failure under a profile that requires its transport). */
    public static Plan of(RunProfile profile, List<TcpRail> tcpRails, SweepPoint point) {
        String transport = point.spec().transport();
        List<Spot> available = new ArrayList<>();
        String none;
        if (ResourcePlan.RDMA_TRANSPORTS.contains(transport)) {
            for (String nic : profile.nicsForEach()) {
                available.add(new Spot(nic, Map.of(VerbsSettings.DEVICE, nic)));
            }
            none = "the profile resolves no RDMA device on this host";
        } else if (transport.equals("ucx")) {
            // UCX over the profile's NICs: each rail's context on its own device (ucp_config_modify per point).
            for (String nic : profile.nicsForEach()) {
                available.add(new Spot(nic, Map.of(UCX_NET_DEVICES, nic + ":1")));
            }
            none = "the profile resolves no RDMA device on this host for ucx's rails";
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
            none = "the " + transport + " transport has no rails to run on here (rails are RDMA devices for verbs, links for "
                    + "tcp)";
        }
        int wanted = point.rails();
        if (wanted == 1 && point.bothWays() && (!transport.equals("tcp") || tcpRails.isEmpty())) {
            // One pair both ways: the pair's own path out (the profile's device, the agent's address) and back.
            return new Plan(List.of(new Spot("out", Map.of()), new Spot("back", Map.of(), true)), Optional.empty());
        }
        if (available.isEmpty()) {
            return new Plan(List.of(), Optional.of(describe(wanted) + " asked, and " + none));
        }
        if (wanted > available.size()) {
            return new Plan(List.of(), Optional.of(describe(wanted) + " asked, and only " + available.size() + " available ("
                    + String.join(", ", available.stream().map(Spot::label).toList()) + ")"));
        }
        List<Spot> out = List.copyOf(available.subList(0, wanted == 0 ? available.size() : wanted));
        return point.bothWays() ? bothWays(out) : new Plan(out, Optional.empty());
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
                return new Plan(List.of(), Optional.of("both ways over tcp link " + s.label() + " needs the initiator's "
                        + "address on it: give " + Constants.TCP_RAILS + " as SOURCE->TARGET"));
            }
            all.add(new Spot(s.label() + " back", back.get(), true));
        }
        return new Plan(List.copyOf(all), Optional.empty());
    }

    private static String describe(int wanted) {
        return wanted == 0 ? "every rail" : wanted + " rails";
    }

    /** The rails a point runs on, or why it is short of them. */
    public record Plan(List<Spot> spots, Optional<String> shortfall) {
    }
}
