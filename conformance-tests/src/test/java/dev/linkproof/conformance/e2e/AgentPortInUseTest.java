package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.transfer.agent.AgentMain;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The fault matrix's "agent's port already in use": {@code linkproof-agent --port N} where another
 * process listens on N exits non-zero at once with one line naming the address and the port, and
 * prints no ready line and no stack trace. The agent runs as its own process, as a user starts it.
 */
@Tag("e2e")
class AgentPortInUseTest {
    @Test
    void anAgentOnATakenPortSaysWhichAndExitsNonZero() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            Process agent = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "--enable-native-access=ALL-UNNAMED",
                            "-Xmx64m",
                            "-cp",
                            System.getProperty("java.class.path"),
                            AgentMain.class.getName(),
                            "--bind",
                            "127.0.0.1",
                            "--port",
                            Integer.toString(port),
                            "--token",
                            "port-in-use-test-token")
                    .start();
            boolean exited = agent.waitFor(30, TimeUnit.SECONDS);
            if (!exited) {
                agent.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
            String out = new String(agent.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(agent.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(exited)
                    .as("the agent exited within 30 s; stderr: %s", err)
                    .isTrue();
            assertThat(agent.exitValue()).as("exit status; stderr: %s", err).isEqualTo(1);
            assertThat(err.lines())
                    .contains("linkproof-agent: cannot listen on 127.0.0.1 port " + port + ": Address already in use "
                            + "(another process listens there, perhaps another agent; --port 0 picks a free port)");
            assertThat(err).as("no stack trace").doesNotContain("Exception").doesNotContain("\tat ");
            assertThat(out).doesNotContain(AgentMain.READY);
        }
    }
}
