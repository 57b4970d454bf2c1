package dev.linkproof.profiles;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Transport tuning a profile carries, and the transports a host it matches must have.
 *
 * @param settings    given to both ranks in every {@code TransferSpec.settings} (e.g. {@code UCX_TLS: rc_x})
 * @param environment environment variables a launched agent gets (e.g. {@code UCX_NET_DEVICES: mlx5_0:1})
 * @param required    transports that must be available on both ranks ({@code [verbs]} for a NIC profile): a point of
 *                    one unavailable there fails instead of being skipped, so a misconfigured runner is red, not green
 */
public record TransportConfig(Map<String, String> settings, Map<String, String> environment, Set<String> required) {
    public static final TransportConfig NONE = new TransportConfig(Map.of(), Map.of(), Set.of());

    public TransportConfig {
        settings = java.util.Collections.unmodifiableMap(new TreeMap<>(settings));
        environment = java.util.Collections.unmodifiableMap(new TreeMap<>(environment));
        required = java.util.Collections.unmodifiableSet(new TreeSet<>(required));
    }
}
