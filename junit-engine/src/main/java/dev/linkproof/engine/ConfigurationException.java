package dev.linkproof.engine;

import java.util.List;

/**
 * A run that cannot start because of its configuration: a key with a bad value, a baseline that
 * cannot be read, a results file that cannot be written. It fails the whole run before any point
 * runs; its message starts with "configuration error:" and names each key and what is wrong.
 */
public final class ConfigurationException extends RuntimeException {
    public ConfigurationException(List<String> problems) {
        super("configuration error: " + String.join("; ", problems));
    }

    public ConfigurationException(String problem, Throwable cause) {
        super("configuration error: " + problem, cause);
    }
}
