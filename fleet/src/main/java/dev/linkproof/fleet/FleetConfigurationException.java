package dev.linkproof.fleet;

import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.KindedFailure;
import java.util.List;

/**
 * A fleet run that cannot start as configured: a pattern value that does not parse, a pair file
 * with bad lines, a launcher variable that is missing or malformed. Each problem names the key,
 * variable or file line at fault, so the engine can report them as they are; it is an
 * {@link IllegalArgumentException} because, like the engine's own keys, a bad value is the caller's.
 */
public final class FleetConfigurationException extends IllegalArgumentException implements KindedFailure {
    private final List<String> problems;

    public FleetConfigurationException(List<String> problems) {
        super(String.join("; ", problems));
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a configuration failure needs at least one problem");
        }
        this.problems = List.copyOf(problems);
    }

    public FleetConfigurationException(String problem) {
        this(List.of(problem));
    }

    public FleetConfigurationException(String problem, Throwable cause) {
        super(problem, cause);
        this.problems = List.of(problem);
    }

    /** Each problem on its own, in the order found (a pair file reports every bad line, not only the first). */
    public List<String> problems() {
        return problems;
    }

    @Override
    public FailureKind kind() {
        return FailureKind.CONFIGURATION_ERROR;
    }
}
