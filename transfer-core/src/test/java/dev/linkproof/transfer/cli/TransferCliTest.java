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

    @Test
    void railsGiveEachRailItsDeviceOrAddressesAndThePointItsCount() {
        CommandLine cl = TransferCli.commandLine();
        cl.parseArgs("--transport", "verbs", "--rails", "rxe0,rxe9", "-s", "64KiB", "--set", "verbs.txDepth=128");
        TransferCli cli = cl.getCommand();
        TransferSpec point = cli.points().getFirst();
        assertThat(point.pointId()).endsWith(",rails=2");
        List<RailEntries.Entry> rails = cli.rails();
        assertThat(rails).extracting(RailEntries.Entry::label).containsExactly("rxe0", "rxe9");
        List<dev.linkproof.transfer.session.Rails.Lane> lanes = TransferCli.lanes(rails, java.util.Collections.nCopies(2, null), null, null);
        List<TransferSpec> each = List.of(lanes.get(0).specFor(point, 0), lanes.get(1).specFor(point, 1));
        assertThat(each).extracting(TransferSpec::settings).containsExactly(
                java.util.Map.of("verbs.device", "rxe0", "verbs.txDepth", "128"),
                java.util.Map.of("verbs.device", "rxe9", "verbs.txDepth", "128"));
        assertThat(each).extracting(TransferSpec::pointId).containsExactly(point.pointId() + "/rail=0", point.pointId() + "/rail=1");

        assertThat(RailEntries.parse("tcp", List.of("10.1.0.1->10.1.0.2", "10.2.0.2", "[fe80::1%eth1]"), java.util.Map.of()))
                .extracting(RailEntries.Entry::settings).containsExactly(
                        java.util.Map.of("tcp.source", "10.1.0.1", "tcp.address", "10.1.0.2"),
                        java.util.Map.of("tcp.address", "10.2.0.2"), java.util.Map.of("tcp.address", "[fe80::1%eth1]"));
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0} {1}")
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "tcp | 127.0.0.1->  | '127.0.0.1->' has no target address: a tcp rail is SOURCE->TARGET or TARGET",
            "tcp | ->10.0.0.2  | '->10.0.0.2' has no source address",
            "tcp | 10.0.0.1->10.0.0.2->10.0.0.3 | has '10.0.0.2->10.0.0.3' as its target address, which is not a host name or an IP address",
            "tcp | a b | 'a b' as its target address",
            "verbs | 10.0.0.1->10.0.0.2 | '10.0.0.1->10.0.0.2' is not an RDMA device name: a verbs rail is a device",
            "verbs | rxe0,rxe0 | --rails names rxe0 twice: every rail is its own device",
            "verbs | rxe0,,rxe9 | entry 1 is empty",
            "ucx | a,b | --rails is for the verbs (a device per rail) and tcp (an address pair per rail) transports; transport ucx has"})
    void aBadRailIsAUsageErrorNamingIt(String transport, String rails, String message) {
        Run r = run("--transport", transport, "--rails", rails);
        assertThat(r.rc()).isEqualTo(2);
        assertThat(r.err()).contains(message);
        assertThat(r.out()).isEmpty();
    }

    @Test
    void aRailsSettingGivenByHandTooIsAUsageError() {
        Run r = run("--transport", "verbs", "--rails", "rxe0,rxe9", "--set", "verbs.device=rxe1");
        assertThat(r.rc()).isEqualTo(2);
        assertThat(r.err()).contains("--rails sets verbs.device for every rail; drop --set verbs.device=rxe1");
    }

    @Test
    void helpDocumentsRails() {
        Run r = run("--help");
        assertThat(r.rc()).isZero();
        assertThat(r.out()).contains("--rails=RAIL[,RAIL...]").contains("verbs: a device per rail")
                .contains("SOURCE->TARGET or TARGET per rail").contains("--rails rxe0,rxe9");
    }

    /** The agent's JVM options may look like this tool's own (-D is --duration here): they are the agent's. */
    @Test
    void agentJvmArgsMayBeSystemProperties() {
        CommandLine cl = TransferCli.commandLine();
        cl.parseArgs("--agent-jvm-arg=-Dstdout.encoding=UTF-8", "--agent-jvm-arg", "-Dlinkproof.verbs.device=rxe9",
                "--agent-jvm-arg=-Xmx256m");
        TransferCli cli = cl.getCommand();
        assertThat(cli.agentJvmArgs).containsExactly("-Dstdout.encoding=UTF-8", "-Dlinkproof.verbs.device=rxe9", "-Xmx256m");
        assertThat(cli.duration).isNull();
        Run r = run("--size", "--iters");
        assertThat(r.rc()).isEqualTo(2);
        assertThat(r.err()).contains("bad size '--iters'");
    }
}
