package dev.linkproof.transfer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.transfer.Deadline;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.Units;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Argument handling only: every case here is rejected (or parsed) before any agent is started. */
class TransferCliTest {

    private record Run(int rc, String out, String err) { }

    private static Run run(String... args) {
        CommandLine cl = TransferCli.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int rc = cl.execute(args);
        return new Run(rc, out.toString(), err.toString());
    }

    @Test
    void badSizeIsAUsageErrorNamingTheValue() {
        Run r = run("--size", "64KiB,lots");
        assertThat(r.rc()).isEqualTo(2);
        assertThat(r.err()).contains("--size").contains("bad size 'lots'").contains("expected e.g. 4096, 4KiB, 1MiB");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void badOpIsAUsageErrorListingTheOps() {
        Run r = run("--op", "scatter");
        assertThat(r.rc()).isEqualTo(2);
        assertThat(r.err()).contains("--op").contains("unknown op 'scatter'").contains("write, read, send, write-with-imm");
    }

    @Test
    void sizeOutsideTheSpecLimitsIsRejectedBeforeConnecting() {
        Run r = run("--size", "2GiB", "--peer", "127.0.0.1:1", "--token", "t");
        assertThat(r.rc()).isEqualTo(2);
        assertThat(r.err()).contains("invalid point (size 2 GiB").contains("size 2147483648 out of range");
    }

    @Test
    void latencyModeWithAPipelineIsRejected() {
        Run r = run("--mode", "latency", "--depth", "8");
        assertThat(r.rc()).isEqualTo(2);
        assertThat(r.err()).contains("latency mode is stop-and-wait");
    }

    @Test
    void depthAutoKeepsAboutFourMebibytesInFlight() {
        CommandLine cl = TransferCli.commandLine();
        cl.parseArgs("-s", "4KiB,64KiB,1MiB,16MiB", "-d", "auto", "-b", "1");
        List<TransferSpec> points = ((TransferCli) cl.getCommand()).points();
        assertThat(points).extracting(TransferSpec::pipelineDepth).containsExactly(1024, 64, 4, 1);
    }

    @Test
    void depthAutoIsStopAndWaitInLatencyModeAndOtherWordsAreUsageErrors() {
        CommandLine cl = TransferCli.commandLine();
        cl.parseArgs("--mode", "latency", "-s", "8", "-d", "auto");
        assertThat(((TransferCli) cl.getCommand()).points()).extracting(TransferSpec::pipelineDepth).containsExactly(1);
        Run r = run("--depth", "deep");
        assertThat(r.rc()).isEqualTo(2);
        assertThat(r.err()).contains("--depth takes a number or 'auto', not 'deep'");
    }

    @Test
    void peerMustBeHostColonPortAndNeedsAToken() {
        assertThat(run("--peer", "localhost").err()).contains("'localhost' is not host:port");
        assertThat(run("--peer", "localhost:http").err()).contains("bad port");
        Run noToken = run("--peer", "127.0.0.1:7471");
        if (System.getenv("LINKPROOF_TOKEN") == null) {
            assertThat(noToken.rc()).isEqualTo(2);
            assertThat(noToken.err()).contains("--peer needs the agent's token");
        }
    }

    @Test
    void agentCpusMustBeACpuListAndExcludesPeer() {
        assertThat(run("--agent-cpus", "one").err()).contains("is not a CPU list");
        assertThat(run("--agent-cpus", "1", "--peer", "h:1", "--token", "t").err()).contains("exclude each other");
    }

    @Test
    void listsExpandToTheCrossProductInOrder() {
        CommandLine cl = TransferCli.commandLine();
        cl.parseArgs("--op", "WRITE", "-s", "64KiB,1MiB,16MiB", "-d", "1,16", "--mode", "Bandwidth", "-n", "50",
                "--duration", "2s");
        TransferCli cli = cl.getCommand();
        List<TransferSpec> points = cli.points();
        assertThat(points).hasSize(6);
        assertThat(points).allSatisfy(p -> assertThat(p.op()).isEqualTo(Op.WRITE));
        assertThat(points).extracting(TransferSpec::size)
                .containsExactly(65536L, 65536L, 1L << 20, 1L << 20, 16L << 20, 16L << 20);
        assertThat(points).extracting(TransferSpec::pipelineDepth).containsExactly(1, 16, 1, 16, 1, 16);
        assertThat(points).extracting(TransferSpec::pointId).doesNotHaveDuplicates();
        assertThat(cli.duration).hasSeconds(2);
    }

    @Test
    void badDurationIsAUsageError() {
        Run r = run("--duration", "soon");
        assertThat(r.rc()).isEqualTo(2);
        assertThat(r.err()).contains("bad duration 'soon'");
    }

    /** The engine's keys and this tool take one grammar (Units.parseDuration): what one accepts, the other does. */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0} = {1} ms")
    @org.junit.jupiter.params.provider.CsvSource({"10s, 10000", "1.5s, 1500", "500ms, 500", "500 ms, 500", "2m, 120000",
            "PT1M, 60000", "pt0.25s, 250", "7, 7000"})
    void durationsReadAsTheEnginesKeysDo(String text, long millis) {
        assertThat(new TransferCli.DurationConverter().convert(text)).isEqualTo(java.time.Duration.ofMillis(millis));
    }

    /** A failure because a deadline ran out names the option that sets it, or says that none does. */
    @Test
    void aDeadlineThatRanOutIsNamedByItsOption() {
        CommandLine cl = TransferCli.commandLine();
        cl.parseArgs("--progress-timeout", "1500ms");
        TransferCli cli = cl.getCommand();
        assertThat(cli.deadlineNote(new PeerFailureException("stuck").expired(Deadline.PROGRESS)))
                .isEqualTo(" [deadline: --progress-timeout=1500ms; raise it if the transfer is slow rather than stuck]");
        assertThat(cli.deadlineNote(new TransferException("again", new PeerFailureException("silent").expired(Deadline.CONTROL))))
                .isEqualTo(" [deadline: control request, 30s, which no option of this tool sets]");
        assertThat(cli.deadlineNote(new PeerFailureException("refused"))).isEmpty();
        assertThat(new TransferCli.DurationConverter().convert(Units.formatDuration(cli.timeouts().io().progressTimeout())))
                .isEqualTo(java.time.Duration.ofMillis(1500));
    }
}
