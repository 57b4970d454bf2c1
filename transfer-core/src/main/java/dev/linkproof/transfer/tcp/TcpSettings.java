package dev.linkproof.transfer.tcp;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The tcp transport's knobs, read from a point's {@link TransferSpec#settings()} so both ranks see
 * the same values. Both pin a point's data connections to one link, which is what a rail is
 * ({@link dev.linkproof.transfer.session.Rails}). The keys and their defaults:
 * docs/transports/tcp.md, "Settings". The control connection stays on the address the session opened.
 *
 * @param address {@code tcp.address}: where the target listens for this point's data connections
 * @param source  {@code tcp.source}: the local address the initiator's data connections are bound to
 */
public record TcpSettings(Optional<String> address, Optional<String> source) {
    public static final String ADDRESS = "tcp.address";
    public static final String SOURCE = "tcp.source";

    static final Set<String> KEYS = Set.of(ADDRESS, SOURCE);

    /** Parses the {@code tcp.*} keys; a blank value or an unknown {@code tcp.} key names the key. */
    public static TcpSettings of(TransferSpec spec) {
        Map<String, String> s = spec.settings();
        for (String k : s.keySet()) {
            if (k.startsWith("tcp.") && !KEYS.contains(k)) {
                throw new IllegalArgumentException(
                        "unknown tcp setting '" + k + "' (known: " + String.join(", ", new TreeSet<>(KEYS)) + ")");
            }
        }
        return new TcpSettings(address(s, ADDRESS), address(s, SOURCE));
    }

    /**
     * The settings of a rail's way back, where the other rank initiates over the same link: its
     * {@code tcp.address} and {@code tcp.source} swapped, so the way back connects to the rail's source
     * from its target. Settings that name no {@code tcp.address} are the same both ways; ones that name
     * one but no source give none (the way back would have nowhere to go).
     */
    public static Optional<Map<String, String>> wayBack(Map<String, String> settings) {
        String address = settings.get(ADDRESS);
        if (address == null) {
            return Optional.of(settings);
        }
        String source = settings.get(SOURCE);
        if (source == null) {
            return Optional.empty();
        }
        Map<String, String> back = new java.util.LinkedHashMap<>(settings);
        back.put(ADDRESS, source);
        back.put(SOURCE, address);
        return Optional.of(back);
    }

    /** The point's tcp settings; a bad one fails the point naming the key (as verbs' do). */
    static TcpSettings require(TransferSpec spec) throws TransferException {
        try {
            return of(spec);
        } catch (IllegalArgumentException e) {
            throw new TransferException("bad tcp setting: " + e.getMessage(), e);
        }
    }

    private static Optional<String> address(Map<String, String> s, String key) {
        String v = s.get(key);
        if (v == null) {
            return Optional.empty();
        }
        if (v.isBlank()) {
            throw new IllegalArgumentException(key + "=" + v + ": expected an IP address or a host name");
        }
        return Optional.of(v.strip());
    }
}
