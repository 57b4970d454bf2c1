package dev.linkproof.engine;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.platform.engine.ConfigurationParameters;

/**
 * Configuration parameters from a map, for tests that build a
 * {@link dev.linkproof.engine.config.LinkproofConfiguration} without a launcher.
 */
public record MapParameters(Map<String, String> map) implements ConfigurationParameters {
    @Override
    public Optional<String> get(String key) {
        return Optional.ofNullable(map.get(key));
    }

    @Override
    public Optional<Boolean> getBoolean(String key) {
        return get(key).map(Boolean::parseBoolean);
    }

    @Override
    public Set<String> keySet() {
        return map.keySet();
    }
}
