package dev.linkproof.profiles;

import java.util.Map;
import java.util.TreeMap;

/**
 * Transport tuning a profile carries.
 *
 * @param settings     given to both ranks in every {@code TransferSpec.settings} (e.g. {@code UCX_TLS: rc_x})
 * @param environment  environment variables a launched agent gets (e.g. {@code UCX_NET_DEVICES: mlx5_0:1})
 */
public record TransportConfig(Map<String, String> settings, Map<String, String> environment) {
    public static final TransportConfig NONE = new TransportConfig(Map.of(), Map.of());

    public TransportConfig {
        settings = java.util.Collections.unmodifiableMap(new TreeMap<>(settings));
        environment = java.util.Collections.unmodifiableMap(new TreeMap<>(environment));
    }
}
