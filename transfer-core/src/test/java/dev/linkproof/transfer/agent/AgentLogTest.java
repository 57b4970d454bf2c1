package dev.linkproof.transfer.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent's own log: every line in it as it is printed, bounded, the last lines always in the file itself. */
class AgentLogTest {
    @TempDir
    Path dir;

    @Test
    void thePidIsPutInTheName() {
        assertThat(AgentLog.file("/x/agent-%p.log", 42)).isEqualTo(Path.of("/x/agent-42.log"));
        assertThat(AgentLog.file("/x/agent.log", 42)).isEqualTo(Path.of("/x/agent.log"));
    }

    @Test
    void linesReachTheFileAndTheStreamAndTheFileStaysBounded() throws Exception {
        Path file = dir.resolve("logs/agent.log");
        ByteArrayOutputStream original = new ByteArrayOutputStream();
        long limit = 1000;
        try (AgentLog log = AgentLog.open(file, limit)) {
            PrintStream out = log.tee(new PrintStream(original, true, StandardCharsets.UTF_8));
            for (int i = 0; i < 100; i++) {
                out.println("line " + i + " of what the agent says");
                assertThat(Files.readString(file))
                        .as("unbuffered: in the file as println returns")
                        .endsWith(" " + i + " of what the agent says\n");
            }
        }
        assertThat(original.toString(StandardCharsets.UTF_8))
                .startsWith("line 0 ")
                .endsWith("line 99 of what the agent says\n");
        assertThat(Files.size(file)).isLessThanOrEqualTo(limit);
        assertThat(Files.size(AgentLog.older(file))).isLessThanOrEqualTo(limit);
        assertThat(Files.readString(file)).endsWith("line 99 of what the agent says\n");
        String both = Files.readString(AgentLog.older(file)) + Files.readString(file);
        assertThat(both)
                .as("the two files are one stretch of the output")
                .contains("line 80 of")
                .contains("line 81 of");
        assertThat(both.indexOf("line 80 of")).isLessThan(both.indexOf("line 81 of"));
    }

    /** The pipe to a dead initiator fails every write: the file gets the line all the same. */
    @Test
    void aStreamThatFailsDoesNotCostTheFileItsLine() throws Exception {
        Path file = dir.resolve("agent.log");
        PrintStream broken = new PrintStream(
                new java.io.OutputStream() {
                    @Override
                    public void write(int b) throws java.io.IOException {
                        throw new java.io.IOException("Broken pipe");
                    }
                },
                true,
                StandardCharsets.UTF_8);
        try (AgentLog log = AgentLog.open(file, AgentLog.LIMIT)) {
            log.tee(broken).println("linkproof-agent: stopped (the initiator is gone)");
        }
        assertThat(file).content().isEqualTo("linkproof-agent: stopped (the initiator is gone)\n");
    }
}
