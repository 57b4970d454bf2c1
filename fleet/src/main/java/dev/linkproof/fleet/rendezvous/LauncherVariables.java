package dev.linkproof.fleet.rendezvous;

import dev.linkproof.fleet.FleetConfigurationException;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Typed reads of a launcher's environment, each error naming the variable and what was expected.
 * The environment is a map handed in, never {@code System.getenv()}, so every launcher is testable
 * from any machine. A variable set to the empty string counts as unset: launchers never set one so.
 */
final class LauncherVariables {
    private final Map<String, String> env;
    private final Launcher launcher;

    LauncherVariables(Map<String, String> env, Launcher launcher) {
        this.env = Map.copyOf(env);
        this.launcher = launcher;
    }

    Optional<String> get(String name) {
        return Optional.ofNullable(env.get(name)).map(String::strip).filter(v -> !v.isEmpty());
    }

    boolean has(String name) {
        return get(name).isPresent();
    }

    String require(String name, String meaning) {
        return get(name)
                .orElseThrow(() -> new FleetConfigurationException(
                        name + " is not set; " + launcher.words() + " sets it to " + meaning));
    }

    /** A count of at least 1 ({@code WORLD_SIZE}, {@code SLURM_NNODES}). */
    int requireCount(String name, String meaning) {
        return count(name, require(name, meaning));
    }

    OptionalInt count(String name) {
        return get(name).map(v -> OptionalInt.of(count(name, v))).orElse(OptionalInt.empty());
    }

    /** An index from 0 ({@code RANK}, {@code JOB_COMPLETION_INDEX}). */
    OptionalInt index(String name) {
        return get(name)
                .map(v -> OptionalInt.of(number(name, v, 0, "a whole number from 0")))
                .orElse(OptionalInt.empty());
    }

    int requireIndex(String name, String meaning) {
        return number(name, require(name, meaning), 0, "a whole number from 0");
    }

    /** An index that must be below {@code size}, named in the error ({@code RANK=4} with {@code WORLD_SIZE=4}). */
    static void checkBelow(String name, int index, String sizeName, int size) {
        if (index >= size) {
            throw new FleetConfigurationException(name + "=" + index + " is not below " + sizeName + "=" + size);
        }
    }

    private static int count(String name, String value) {
        return number(name, value, 1, "a whole number of at least 1");
    }

    static int number(String name, String value, int min, String expected) {
        try {
            int n = Integer.parseInt(value.strip());
            if (n >= min) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below, naming the variable
        }
        throw new FleetConfigurationException(name + "=" + value + " is not " + expected);
    }
}
