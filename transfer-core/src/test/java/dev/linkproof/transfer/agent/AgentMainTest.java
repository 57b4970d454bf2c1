package dev.linkproof.transfer.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/**
 * The agent's command line with bad input: a usage error naming the option (exit 2), or one line
 * saying why it cannot listen (exit 1); each was a stack trace ending in the JDK's message
 * ("port out of range:99999", "Address already in use", "Cannot assign requested address").
 */
@Timeout(30)
class AgentMainTest {
    private static final String TOKEN = "abcdefghijklmnopq";

    private record Run(int rc, String out, String err) {}

    private static Run run(String... args) {
        CommandLine cl = new CommandLine(new AgentMain());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int rc = cl.execute(args);
        assertThat(err.toString())
                .as("no stack trace")
                .doesNotContain("Exception")
                .doesNotContain("\tat ");
        return new Run(rc, out.toString(), err.toString());
    }

    @Test
    void helpPrintsItsUsageWithoutPicocliWarnings() {
        // picocli formats descriptions printf-style and warns on System.err about what it cannot format.
        java.io.PrintStream original = System.err;
        java.io.ByteArrayOutputStream traced = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(traced, true, java.nio.charset.StandardCharsets.UTF_8));
        Run r;
        try {
            r = run("--help");
        } finally {
            System.setErr(original);
        }
        assertThat(r.rc()).isZero();
        assertThat(r.out()).startsWith("Usage: linkproof-agent").contains("FILE (%p");
        assertThat(traced.toString(java.nio.charset.StandardCharsets.UTF_8) + r.err())
                .doesNotContain("picocli WARN");
    }

    @Test
    void aShortTokenIsAUsageError() {
        Run r = run("--port", "0", "--token", "abc");
        assertThat(r.rc()).isEqualTo(2);
        assertThat(r.err())
                .startsWith("--token has 3 character(s); a session token needs at least 16 (leave it out and "
                        + "the agent makes one up and prints it)");
        assertThat(r.out()).doesNotContain(AgentMain.READY);
    }

    @Test
    void aPortOutOfRangeIsAUsageError() {
        Run r = run("--port", "99999", "--token", TOKEN);
        assertThat(r.rc()).isEqualTo(2);
        assertThat(r.err()).startsWith("--port 99999 is not a port: 1..65535, or 0 for a free one");
    }

    @Test
    void anUnknownBindHostIsAUsageError() {
        Run r = run("--bind", "nohost.invalid", "--port", "0", "--token", TOKEN);
        assertThat(r.rc()).isEqualTo(2);
        assertThat(r.err()).startsWith("--bind nohost.invalid: unknown host (the name does not resolve)");
    }

    /** 203.0.113.1 is TEST-NET-3 (RFC 5737): no host has it. */
    @Test
    void anAddressThatIsNotThisHostsSaysSo() {
        Run r = run("--bind", "203.0.113.1", "--port", "0", "--token", TOKEN);
        assertThat(r.rc()).isEqualTo(1);
        assertThat(r.err())
                .isEqualTo("linkproof-agent: cannot listen on 203.0.113.1 port 0: Cannot assign requested address "
                        + "(203.0.113.1 is not an address of this host; --bind 0.0.0.0 listens on all of them)"
                        + System.lineSeparator());
    }

    @Test
    void aPortInUseSaysSo() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            Run r = run("--bind", "127.0.0.1", "--port", Integer.toString(port), "--token", TOKEN);
            assertThat(r.rc()).isEqualTo(1);
            assertThat(r.err())
                    .startsWith("linkproof-agent: cannot listen on 127.0.0.1 port " + port
                            + ": Address already in use (another process listens there, perhaps another agent;"
                            + " --port 0 picks a free port)");
        }
    }
}
