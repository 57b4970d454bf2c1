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

    private record Run(int rc, String out, String err) {}

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
        assertThat(r.err())
                .contains("--op")
                .contains("unknown op 'scatter'")
                .contains("write, read, send, write-with-imm");
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
        assertThat(((TransferCli) cl.getCommand()).points())
                .extracting(TransferSpec::pipelineDepth)
                .containsExactly(1);
        Run r = run("--depth", "deep");
        assertThat(r.rc()).isEqualTo(2);
        assertThat(r.err()).contains("--depth takes a number or 'auto', not 'deep'");
    }

    @Test
    void peerMustBeHostColonPortAndNeedsAToken() {
        assertThat(run("--peer", "fe80::1:7471").err())
                .contains("'fe80::1:7471' is not HOST:PORT: an IPv6 address needs brackets");
        assertThat(run("--peer", "localhost:http").err()).contains("bad port 'http'");
        Run noToken = run("--peer", "127.0.0.1:7471");
        if (System.getenv("LINKPROOF_TOKEN") == null) {
            assertThat(noToken.rc()).isEqualTo(2);
            assertThat(noToken.err()).contains("--peer needs the agent's token");
        }
    }

    @Test
    void agentCpusMustBeACpuListAndExcludesPeer() {
        assertThat(run("--agent-cpus", "one").err()).contains("is not a CPU list");
        assertThat(run("--agent-cpus", "1", "--peer", "h:1", "--token", "t").err())
                .contains("exclude each other");
    }

    @Test
    void listsExpandToTheCrossProductInOrder() {
        CommandLine cl = TransferCli.commandLine();
        cl.parseArgs(
                "--op",
                "WRITE",
                "-s",
                "64KiB,1MiB,16MiB",
                "-d",
                "1,16",
                "--mode",
                "Bandwidth",
                "-n",
                "50",
                "--duration",
                "2s");
        TransferCli cli = cl.getCommand();
        List<TransferSpec> points = cli.points();
        assertThat(points).hasSize(6);
        assertThat(points).allSatisfy(p -> assertThat(p.op()).isEqualTo(Op.WRITE));
        assertThat(points)
                .extracting(TransferSpec::size)
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
    @org.junit.jupiter.params.provider.CsvSource({
        "10s, 10000",
        "1.5s, 1500",
        "500ms, 500",
        "500 ms, 500",
        "2m, 120000",
        "PT1M, 60000",
        "pt0.25s, 250",
        "7, 7000"
    })
    void durationsReadAsTheEnginesKeysDo(String text, long millis) {
        assertThat(new Converters.DurationConverter().convert(text)).isEqualTo(java.time.Duration.ofMillis(millis));
    }

    /** A failure because a deadline ran out names the option that sets it, or says that none does. */
    @Test
    void aDeadlineThatRanOutIsNamedByItsOption() {
        CommandLine cl = TransferCli.commandLine();
        cl.parseArgs("--progress-timeout", "1500ms");
        TransferCli cli = cl.getCommand();
        assertThat(cli.deadlineNote(new PeerFailureException("stuck").expired(Deadline.PROGRESS)))
                .isEqualTo(
                        " [deadline: --progress-timeout=1500ms; raise it if the transfer is slow rather than stuck]");
        assertThat(cli.deadlineNote(
                        new TransferException("again", new PeerFailureException("silent").expired(Deadline.CONTROL))))
                .isEqualTo(" [deadline: control request, 30s, which no option of this tool sets]");
        assertThat(cli.deadlineNote(new PeerFailureException("refused"))).isEmpty();
        assertThat(new Converters.DurationConverter()
                        .convert(Units.formatDuration(cli.timeouts().io().progressTimeout())))
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
        List<dev.linkproof.transfer.session.Rails.Lane> lanes =
                TransferRun.lanes(rails, java.util.Collections.nCopies(2, null), null, null);
        List<TransferSpec> each =
                List.of(lanes.get(0).specFor(point, 0), lanes.get(1).specFor(point, 1));
        assertThat(each)
                .extracting(TransferSpec::settings)
                .containsExactly(
                        java.util.Map.of("verbs.device", "rxe0", "verbs.txDepth", "128"),
                        java.util.Map.of("verbs.device", "rxe9", "verbs.txDepth", "128"));
        assertThat(each)
                .extracting(TransferSpec::pointId)
                .containsExactly(point.pointId() + "/rail=0", point.pointId() + "/rail=1");

        assertThat(RailEntries.parse(
                        "tcp", List.of("10.1.0.1->10.1.0.2", "10.2.0.2", "[fe80::1%eth1]"), java.util.Map.of()))
                .extracting(RailEntries.Entry::settings)
                .containsExactly(
                        java.util.Map.of("tcp.source", "10.1.0.1", "tcp.address", "10.1.0.2"),
                        java.util.Map.of("tcp.address", "10.2.0.2"),
                        java.util.Map.of("tcp.address", "[fe80::1%eth1]"));
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0} {1}")
    @org.junit.jupiter.params.provider.CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "tcp | 127.0.0.1->  | '127.0.0.1->' has no target address: a tcp rail is SOURCE->TARGET or TARGET",
                "tcp | ->10.0.0.2  | '->10.0.0.2' has no source address",
                "tcp | 10.0.0.1->10.0.0.2->10.0.0.3 | has '10.0.0.2->10.0.0.3' as its target address, which is not a"
                        + " host name or an IP address",
                "tcp | a b | 'a b' as its target address",
                "verbs | 10.0.0.1->10.0.0.2 | '10.0.0.1->10.0.0.2' is not an RDMA device name: a verbs rail is a"
                        + " device",
                "verbs | rxe0,rxe0 | --rails names rxe0 twice: every rail is its own device",
                "verbs | rxe0,,rxe9 | entry 1 is empty",
                "nosuch | a,b | --rails is for the verbs (a device per rail), ucx (a UCX device per rail), tcp (an"
                        + " address pair per rail), gpu-ipc (a GPU pair per rail) and libfabric (a domain per rail)"
                        + " transports; transport nosuch has no per-rail setting yet",
                "libfabric | lo,lo | --rails names lo twice: every rail is its own domain",
                "libfabric | 10.0.0.1->10.0.0.2 | --rails: '10.0.0.1->10.0.0.2' is not a libfabric domain name",
                "ucx | 10.0.0.1->10.0.0.2 | --rails: '10.0.0.1->10.0.0.2' is not a UCX device: a ucx rail is DEVICE or"
                        + " DEVICE:PORT, used on both ranks as UCX_NET_DEVICES (a bare name on port 1",
                "ucx | mlx5_0:one | --rails: 'mlx5_0:one' is not a UCX device",
                "ucx | mlx5_0,mlx5_0:1 | --rails names mlx5_0:1 ('mlx5_0' and 'mlx5_0:1') twice: every rail is its own"
                        + " device (a bare name is port 1)",
                "gpu-ipc | rxe0 | --rails: 'rxe0' is not a GPU pair: a gpu-ipc rail is I->J, the runtime ordinals of"
                        + " the initiator's GPU and the target's",
                "gpu-ipc | gpu:0->gpu:1 | --rails: 'gpu:0->gpu:1' is not a GPU pair",
                "gpu-ipc | 0->1->2 | --rails: '0->1->2' is not a GPU pair",
                "gpu-ipc | 0->1,0 -> 1 | --rails names GPU 0→GPU 1 ('0->1' and '0 -> 1') twice: every rail is its own"
                        + " pair of GPUs"
            })
    void aBadRailIsAUsageErrorNamingIt(String transport, String rails, String message) {
        Run r = run("--transport", transport, "--rails", rails);
        assertThat(r.rc()).isEqualTo(2);
        assertThat(r.err()).contains(message);
        assertThat(r.out()).isEmpty();
    }

    /**
     * ucx rails: rail k's UCX context on entry k's device, set as UCX_NET_DEVICES by the rule the
     * engine's ucx rails use (UcxSettings.netDevice: a bare name on port 1), beside the point's own
     * UCX settings; labelled as given.
     */
    @Test
    void ucxRailsGiveEachRailsContextItsDeviceAsTheEngineDoes() {
        CommandLine cl = TransferCli.commandLine();
        cl.parseArgs("--transport", "ucx", "--rails", "mlx5_0,mlx5_1:2", "--set", "UCX_TLS=rc");
        TransferCli cli = cl.getCommand();
        TransferSpec point = cli.points().getFirst();
        assertThat(point.pointId()).endsWith(",rails=2");
        List<RailEntries.Entry> rails = cli.rails();
        assertThat(rails).extracting(RailEntries.Entry::label).containsExactly("mlx5_0", "mlx5_1:2");
        assertThat(rails).allSatisfy(e -> assertThat(e.memory()).isEmpty());
        List<dev.linkproof.transfer.session.Rails.Lane> lanes =
                TransferRun.lanes(rails, java.util.Collections.nCopies(2, null), null, null);
        assertThat(List.of(lanes.get(0).specFor(point, 0), lanes.get(1).specFor(point, 1)))
                .extracting(TransferSpec::settings)
                .containsExactly(
                        java.util.Map.of("UCX_NET_DEVICES", "mlx5_0:1", "UCX_TLS", "rc"),
                        java.util.Map.of("UCX_NET_DEVICES", "mlx5_1:2", "UCX_TLS", "rc"));
        assertThat(dev.linkproof.transfer.ucx.UcxSettings.netDevice("mlx5_0")).isEqualTo("mlx5_0:1");

        Run clash = run("--transport", "ucx", "--rails", "mlx5_0", "--set", "UCX_NET_DEVICES=mlx5_1:1");
        assertThat(clash.rc()).isEqualTo(2);
        assertThat(clash.err())
                .contains("--rails sets UCX_NET_DEVICES for every rail; drop --set UCX_NET_DEVICES=mlx5_1:1");
    }

    /**
     * gpu-ipc rails: each entry a GPU pair (runtime ordinals), the rail's memory in place of the
     * point's, labelled as the engine labels its GPU rails; the point's memory is rail 0's. Both ways,
     * every pair also runs reversed, driven from here (not by the agent): one host.
     */
    @Test
    void gpuIpcRailsArePairsOfGpusAsTheRailsMemory() {
        CommandLine cl = TransferCli.commandLine();
        cl.parseArgs("--transport", "gpu-ipc", "--rails", "0->1, 1 -> 0,2->2");
        TransferCli cli = cl.getCommand();
        TransferSpec point = cli.points().getFirst();
        assertThat(point.pointId()).endsWith(",rails=3");
        assertThat(point.initiatorMemory() + "->" + point.targetMemory())
                .as("rail 0's")
                .isEqualTo("gpu->gpu:1");
        List<RailEntries.Entry> rails = cli.rails();
        assertThat(rails)
                .extracting(RailEntries.Entry::label)
                .containsExactly("GPU 0→GPU 1", "GPU 1→GPU 0", "GPU 2→GPU 2");
        assertThat(rails).allSatisfy(e -> assertThat(e.settings()).isEmpty()).noneMatch(RailEntries.Entry::back);
        List<dev.linkproof.transfer.session.Rails.Lane> lanes =
                TransferRun.lanes(rails, java.util.Collections.nCopies(3, null), null, null);
        List<TransferSpec> each = List.of(
                lanes.get(0).specFor(point, 0),
                lanes.get(1).specFor(point, 1),
                lanes.get(2).specFor(point, 2));
        assertThat(each)
                .extracting(s -> s.initiatorMemory() + "->" + s.targetMemory())
                .containsExactly("gpu->gpu:1", "gpu:1->gpu", "gpu:2->gpu:2");

        CommandLine both = TransferCli.commandLine();
        both.parseArgs("--transport", "gpu-ipc", "--rails", "0->1,2->3", "--both-ways");
        List<RailEntries.Entry> four = ((TransferCli) both.getCommand()).rails();
        assertThat(four)
                .extracting(RailEntries.Entry::label)
                .containsExactly("GPU 0→GPU 1", "GPU 2→GPU 3", "GPU 1→GPU 0 back", "GPU 3→GPU 2 back");
        assertThat(four)
                .extracting(e -> e.memory().orElseThrow().toString())
                .containsExactly("gpu->gpu:1", "gpu:2->gpu:3", "gpu:1->gpu", "gpu:3->gpu:2");
        assertThat(four).as("driven from here: one host").noneMatch(RailEntries.Entry::back);

        // Both ways without --rails: the point's own pair, and it reversed.
        CommandLine pair = TransferCli.commandLine();
        pair.parseArgs("--transport", "gpu-ipc", "--initiator-mem", "gpu", "--target-mem", "gpu:1", "--both-ways");
        List<RailEntries.Entry> two = ((TransferCli) pair.getCommand()).rails();
        assertThat(two).extracting(RailEntries.Entry::label).containsExactly("GPU 0→GPU 1", "GPU 1→GPU 0 back");
        assertThat(two)
                .extracting(e -> e.memory().orElseThrow().toString())
                .containsExactly("gpu->gpu:1", "gpu:1->gpu");
        assertThat(two).noneMatch(RailEntries.Entry::back);

        // Over verbs both ways stays the agent's way back, on the same device.
        CommandLine verbs = TransferCli.commandLine();
        verbs.parseArgs("--transport", "verbs", "--rails", "rxe0", "--both-ways");
        assertThat(((TransferCli) verbs.getCommand()).rails())
                .extracting(RailEntries.Entry::label, RailEntries.Entry::back)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("rxe0", false),
                        org.assertj.core.groups.Tuple.tuple("rxe0 back", true));

        for (String option : List.of("--initiator-mem", "--target-mem")) {
            Run r = run("--transport", "gpu-ipc", "--rails", "0->1", option, "gpu:1");
            assertThat(r.rc()).isEqualTo(2);
            assertThat(r.err())
                    .contains("--rails names each gpu-ipc rail's GPUs (I->J, runtime ordinals): drop " + option);
        }
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
        assertThat(r.out())
                .contains("--rails=RAIL[,RAIL...]")
                .contains("verbs: a device per rail")
                .contains("SOURCE->TARGET or TARGET per rail")
                .contains("--rails rxe0,rxe9");
        assertThat(r.out().replaceAll("\\s+", " "))
                .contains("ucx: a device per rail, DEVICE or DEVICE:PORT")
                .contains("UCX_NET_DEVICES = entry k, a bare name on port 1")
                .contains("gpu-ipc: a GPU pair I->J per rail")
                .contains("each GPU pair (the point's own without --rails) also runs reversed");
    }

    /** The agent's JVM options may look like this tool's own (-D is --duration here): they are the agent's. */
    @Test
    void agentJvmArgsMayBeSystemProperties() {
        CommandLine cl = TransferCli.commandLine();
        cl.parseArgs(
                "--agent-jvm-arg=-Dstdout.encoding=UTF-8",
                "--agent-jvm-arg",
                "-Dlinkproof.verbs.device=rxe9",
                "--agent-jvm-arg=-Xmx256m");
        TransferCli cli = cl.getCommand();
        assertThat(cli.agentJvmArgs)
                .containsExactly("-Dstdout.encoding=UTF-8", "-Dlinkproof.verbs.device=rxe9", "-Xmx256m");
        assertThat(cli.duration).isNull();
        Run r = run("--size", "--iters");
        assertThat(r.rc()).isEqualTo(2);
        assertThat(r.err()).contains("bad size '--iters'");
    }
}
