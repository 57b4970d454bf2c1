package dev.linkproof.transfer.testing;

import java.util.HashMap;
import java.util.Map;

/**
 * System properties a test sets, each put back as it was (or cleared) by {@link #restore()}: the
 * engine, the GPU runtimes and a local agent read their keys from this JVM's properties, so a test
 * that sets one must leave the next test the JVM it found.
 */
public final class SavedProperties {
    private final Map<String, String> saved = new HashMap<>();

    /** Sets {@code key}, remembering the value it had before the first set. */
    public void set(String key, String value) {
        if (!saved.containsKey(key)) {
            saved.put(key, System.getProperty(key));
        }
        System.setProperty(key, value);
    }

    /** Puts every key set since the last restore back as it was. */
    public void restore() {
        saved.forEach((k, v) -> {
            if (v == null) {
                System.clearProperty(k);
            } else {
                System.setProperty(k, v);
            }
        });
        saved.clear();
    }
}
