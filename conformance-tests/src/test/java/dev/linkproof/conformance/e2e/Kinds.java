package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.engine.failure.Failures;
import dev.linkproof.engine.reporting.RunReporter;
import dev.linkproof.reports.allure.RunFiles;
import dev.linkproof.transfer.FailureKind;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.platform.engine.TestExecutionResult;

/**
 * The one check of a failure's kind: the kind it carries, the one Allure category its trace lands in,
 * and a trace without the engine's own frames.
 */
public final class Kinds {
    private Kinds() {}

    /** {@code result} failed with a failure of {@code kind}, which Allure files under that kind's category alone. */
    public static void assertKind(TestExecutionResult result, FailureKind kind) {
        assertThat(Failures.kindOf(result)).as("the kind of %s", result).contains(kind);
        StringWriter trace = new StringWriter();
        result.getThrowable().orElseThrow().printStackTrace(new PrintWriter(trace));
        assertThat(RunFiles.categoriesFor(RunReporter.status(result), trace.toString()))
                .as("Allure's categories of %s", trace)
                .containsExactly(kind.category());
        // What Surefire prints: the failure and its causes, none of the engine's own frames.
        assertThat(trace.toString().lines().filter(l -> l.startsWith("\tat ") && Failures.isEngineFrame(frame(l))))
                .as("the engine's frames in %s", trace)
                .isEmpty();
    }

    /** The class and method of a printed frame ("\tat a.b.C.m(C.java:1)"), enough for {@link Failures#isEngineFrame}. */
    private static StackTraceElement frame(String line) {
        String at = line.substring(4).replaceAll("\\(.*", "");
        int dot = at.lastIndexOf('.');
        return new StackTraceElement(at.substring(0, Math.max(dot, 0)), at.substring(dot + 1), null, -1);
    }
}
