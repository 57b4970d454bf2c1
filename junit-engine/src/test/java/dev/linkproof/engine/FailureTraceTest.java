package dev.linkproof.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.failure.Failures;
import dev.linkproof.engine.failure.PointError;
import dev.linkproof.engine.failure.PointFailure;
import dev.linkproof.engine.fixtures.RunFixture;
import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.agent.AgentServer;
import dev.linkproof.transfer.spi.IoSettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * What Surefire prints of a point's failure: its first line ({@code ClassName [KIND]: message}, which
 * Allure's categories match), then its cause chain with the transfer's frames, and none of the
 * engine's own (a peer failure showed about fifteen of them, from PointRun down to the descriptor).
 */
@Timeout(60)
class FailureTraceTest {
    @TempDir
    Path dir;

    private static String trace(Throwable t) {
        StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w, true));
        return w.toString();
    }

    private static List<String> engineFrames(String trace) {
        return trace.lines()
                .filter(l -> l.startsWith("\tat dev.linkproof.engine.")
                        && !l.startsWith("\tat dev.linkproof.engine.fixtures.")
                        && !l.startsWith("\tat dev.linkproof.engine.api."))
                .toList();
    }

    private static Throwable onlyFailure(EngineExecutionResults r) {
        List<TestExecutionResult> failed = r.testEvents().failed().list().stream()
                .map(e -> e.getRequiredPayload(TestExecutionResult.class))
                .toList();
        assertThat(failed).hasSize(1);
        return failed.getFirst().getThrowable().orElseThrow();
    }

    /** A point whose peer refused it: a PointError whose cause keeps Session.open's frames, and no engine frame. */
    @Test
    void aPeerFailureShowsItsCauseChainWithoutTheEnginesFrames() throws Exception {
        try (AgentServer agent =
                AgentServer.start("127.0.0.1", 0, "failure-trace-test-token-0123", IoSettings.DEFAULT)) {
            Throwable failure = onlyFailure(EngineTestKit.engine(Constants.ENGINE_ID)
                    .configurationParameter(Constants.PROGRESS, "false")
                    .configurationParameter(Constants.PEER, "127.0.0.1:" + agent.port())
                    .configurationParameter(Constants.TOKEN, "not-the-token-of-that-agent")
                    .selectors(selectMethod(RunFixture.class, "passesWithoutParameters", ""))
                    .execute());
            String trace = trace(failure);
            assertThat(failure).isInstanceOf(PointError.class);
            assertThat(trace.lines().findFirst().orElseThrow())
                    .startsWith(PointError.class.getName() + " [PEER_FAILURE]: write 1 KiB")
                    .contains("refused: wrong session token");
            assertThat(engineFrames(trace)).as(trace).isEmpty();
            assertThat(trace)
                    .as("the cause, with its frames")
                    .contains("Caused by: dev.linkproof.transfer.control.RemoteErrorException: the target agent at"
                            + " 127.0.0.1:")
                    .contains("\tat dev.linkproof.transfer.session.Session.open(");
            assertThat(trace.lines().count()).as(trace).isLessThan(12);
        }
    }

    /** A point judged to fail: its first line and nothing else (the judge's frames told nobody anything). */
    @Test
    void aJudgedFailureIsItsFirstLineAlone() throws Exception {
        Path results = dir.resolve("r.jsonl");
        EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.PROGRESS, "false")
                .configurationParameter(Constants.RESULTS, results.toString())
                .selectors(selectMethod(RunFixture.class, "passesWithoutParameters", ""))
                .execute()
                .testEvents()
                .assertStatistics(s -> s.succeeded(1));
        ResultsLines.rewrite(
                results,
                results,
                n -> n.put("bandwidthGBps", n.get("bandwidthGBps").asDouble() * 1000));
        Throwable failure = onlyFailure(EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.PROGRESS, "false")
                .configurationParameter(
                        Constants.RESULTS, dir.resolve("second.jsonl").toString())
                .configurationParameter(Constants.BASELINE, results.toString())
                .selectors(selectMethod(RunFixture.class, "passesWithoutParameters", ""))
                .execute());
        assertThat(failure).isInstanceOf(PointFailure.class);
        String trace = trace(failure);
        assertThat(trace)
                .startsWith(PointFailure.class.getName() + " [PERFORMANCE_REGRESSION]: ")
                .doesNotContain("\tat ");
    }

    /** The test method's own exception keeps its frames (the method's) and loses the engine's below them. */
    @Test
    void aTestMethodsExceptionKeepsItsFramesAndLosesTheEngines() {
        Throwable failure = onlyFailure(EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.PROGRESS, "false")
                .configurationParameter(
                        Constants.RESULTS, dir.resolve("r.jsonl").toString())
                .selectors(selectMethod(RunFixture.class, "throwsAnException", ""))
                .execute());
        String trace = trace(failure);
        assertThat(trace)
                .startsWith("java.io.IOException: boom from the test method")
                .contains("\tat " + RunFixture.class.getName() + ".throwsAnException(");
        assertThat(engineFrames(trace)).as(trace).isEmpty();
        assertThat(Failures.kindOf(failure)).isEqualTo(FailureKind.ERROR);
    }

    /** Every throwable of the chain is cut at its first engine frame; frames above it stay. */
    @Test
    void theCauseChainIsCutAtTheFirstEngineFrame() {
        PeerFailureException inner = new PeerFailureException("the target agent closed the connection");
        inner.setStackTrace(new StackTraceElement[] {
            new StackTraceElement("dev.linkproof.transfer.tcp.TcpDataPath", "awaitOldest", "TcpDataPath.java", 10),
            new StackTraceElement("dev.linkproof.transfer.session.Session", "run", "Session.java", 20),
            new StackTraceElement("dev.linkproof.engine.run.PointRun", "attempt", "PointRun.java", 30),
            new StackTraceElement(
                    "org.junit.platform.engine.support.hierarchical.NodeTestTask", "execute", "N.java", 40)
        });
        PointError first = new PointError(FailureKind.PEER_FAILURE, "first attempt", inner);
        PointError rerun = new PointError(FailureKind.PEER_FAILURE, "a rerun", first);
        assertThat(rerun.getStackTrace()).isEmpty();
        assertThat(first.getStackTrace()).isEmpty();
        assertThat(inner.getStackTrace())
                .extracting(StackTraceElement::getClassName)
                .containsExactly("dev.linkproof.transfer.tcp.TcpDataPath", "dev.linkproof.transfer.session.Session");
        String trace = trace(rerun);
        assertThat(trace)
                .startsWith(PointError.class.getName() + " [PEER_FAILURE]: a rerun")
                .contains("Caused by: " + PointError.class.getName() + " [PEER_FAILURE]: first attempt")
                .contains("Caused by: dev.linkproof.transfer.PeerFailureException: the target agent closed the"
                        + " connection\n"
                        + "\tat dev.linkproof.transfer.tcp.TcpDataPath.awaitOldest(TcpDataPath.java:10)\n"
                        + "\tat dev.linkproof.transfer.session.Session.run(Session.java:20)\n");
        assertThat(new PointFailure(FailureKind.DATA_CORRUPTION, "slot 3").getStackTrace())
                .isEmpty();
    }
}
