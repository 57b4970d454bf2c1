package dev.linkproof.engine.config;

import java.util.Optional;
import org.junit.platform.engine.ConfigurationParameters;

/**
 * One entry of the registry of keys ({@link ConfigurationKeys}): the reference's table is these records rendered,
 * the unknown-key check reads the names from here, and the engine parses each value through it.
 *
 * @param name        {@code linkproof.…}; a family of keys ends with a dot ({@code linkproof.criteria.})
 * @param value       the type: how the value is written and parsed
 * @param defaultText the default, as the reference states it ("none (local pair)", {@code `10s`})
 * @param doc         what the key does, one Markdown paragraph (the reference's last column)
 */
public record Key<T>(String name, Value<T> value, String defaultText, String doc) {

    public Key {
        if (!name.startsWith("linkproof.")) {
            throw new IllegalArgumentException(name + ": every key begins linkproof.");
        }
    }

    /** A family of keys ({@code linkproof.criteria.<name>.<key>}) rather than one. */
    public boolean family() {
        return name.endsWith(".");
    }

    /**
     * The key's value, empty when unset or blank (a blank {@code -Dkey=} is "not given"); a value its
     * type refuses throws {@link IllegalArgumentException} reading {@code key=value <what is wrong>}.
     */
    public Optional<T> read(ConfigurationParameters p) {
        Optional<String> raw = p.get(name).map(String::strip).filter(v -> !v.isEmpty());
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(value.parser().apply(raw.get()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + "=" + raw.get() + " " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
