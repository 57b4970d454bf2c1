package dev.linkproof.engine.config;

import java.util.List;

/**
 * A run that cannot start because of its configuration: a key with a bad value, a baseline that
 * cannot be read, a results file that cannot be written. It fails the whole run before any point
 * runs; its message starts with "configuration error:" and names each key and what is wrong.
 */
public final class ConfigurationException extends RuntimeException implements dev.linkproof.transfer.KindedFailure {
    /** How every message of this kind begins. */
    public static final String PREFIX = "configuration error: ";

    private final List<String> problems;

    public ConfigurationException(List<String> problems) {
        super(PREFIX + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    public ConfigurationException(String problem, Throwable cause) {
        super(PREFIX + problem, cause);
        this.problems = List.of(problem);
    }

    /** Each problem, without the prefix. */
    public List<String> problems() {
        return problems;
    }

    @Override
    public dev.linkproof.transfer.FailureKind kind() {
        return dev.linkproof.transfer.FailureKind.CONFIGURATION_ERROR;
    }
}
