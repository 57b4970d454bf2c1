package dev.linkproof.conformance.softroce;

import static dev.linkproof.conformance.softroce.Guest.sentPackets;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.linkproof.conformance.e2e.VerbsBitFlipTransport;
import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.Units;
import dev.linkproof.transfer.cli.TransferCli;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.measure.RailResult;
import dev.linkproof.transfer.probe.RdmaDevice;
import dev.linkproof.transfer.session.LocalAgent;
import dev.linkproof.transfer.session.Rails;
import dev.linkproof.transfer.session.Session;
import dev.linkproof.transfer.session.Timeouts;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.verbs.VerbsTransport;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Rails on two real RDMA devices at once (issue #23, item 5): the VM's rxe device and rxe9 on dummy9, added here and
 * removed after, rail k on device k on both ranks. Through the command line ({@code TransferCli --rails}): both rails
 * run, overlap, validate, and each device's packet counter shows its rail went through it. Through {@link Rails}
 * directly: a byte flipped in one rail's verification pass ({@link VerbsBitFlipTransport}) fails the point naming
 * that rail, the other rail valid. It adds a network interface and an RDMA link: only inside the Soft-RoCE VM
 * (SoftRoceSuite's guest script sets {@value Guest#GUEST}); elsewhere it is skipped with the reason.
 */
@Tag("softroce")
class VerbsRailsCli {
    private static final String NETDEV = "dummy9";
    private static final String SECOND = "rxe9";
    private static RdmaDevice first;
    private static AutoCloseable second;

    @TempDir
    Path dir;

    @BeforeAll
    static void addSecondDevice() throws Exception {
        first = Guest.rxeToChange("adds a network interface and an RDMA device");
        second = Guest.secondRxe(NETDEV, "10.11.19.19", SECOND);
    }

    @AfterAll
    static void removeSecondDevice() throws Exception {
        if (second != null) {
            second.close();
        }
    }

    @Test
    void twoRailsFromTheCommandLineRunAtOnceEachOnItsDevice() throws Exception {
        long firstBefore = sentPackets(first.name());
        long secondBefore = sentPackets(SECOND);
        int size = 64 * 1024;
        int batch = 4;
        int iterations = 40;
        List<String> args = new ArrayList<>(List.of(
                "--transport",
                "verbs",
                "--rails",
                first.name() + "," + SECOND,
                "--size",
                Integer.toString(size),
                "--batch",
                Integer.toString(batch),
                "--depth",
                "2",
                "--iters",
                Integer.toString(iterations),
                "--warmup",
                "4",
                "--format",
                "json",
                "--progress-timeout",
                Units.formatDuration(timeouts().io().progressTimeout()),
                "--agent-log",
                dir.resolve("agent.log").toString()));
        for (String a : agentJvmArgs()) {
            args.add("--agent-jvm-arg=" + a);
        }
        CommandLine cl = TransferCli.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int rc = cl.execute(args.toArray(String[]::new));

        assertThat(rc).as("exit status; stderr: %s; stdout: %s", err, out).isZero();
        JsonNode point =
                new ObjectMapper().readTree(out.toString().lines().findFirst().orElseThrow());
        assertThat(point.path("valid").asBoolean()).as(point.toString()).isTrue();
        JsonNode rails = point.path("rails");
        assertThat(rails).hasSize(2);
        assertThat(rails.get(0).path("device").asText()).isEqualTo(first.name());
        assertThat(rails.get(1).path("device").asText()).isEqualTo(SECOND);
        long perRail = (long) size * batch * iterations;
        for (JsonNode rail : rails) {
            assertThat(rail.path("valid").asBoolean()).as(rail.toString()).isTrue();
            assertThat(rail.path("bytes").asLong()).isEqualTo(perRail);
        }
        assertThat(point.path("bytes").asLong()).isEqualTo(2 * perRail);
        assertThat(rails.get(0).path("start_ms").asDouble())
                .as("rail 0 started before rail 1 ended")
                .isLessThan(rails.get(1).path("end_ms").asDouble());
        assertThat(rails.get(1).path("start_ms").asDouble())
                .as("rail 1 started before rail 0 ended")
                .isLessThan(rails.get(0).path("end_ms").asDouble());
        // Each rail went through its own device: both devices' counters moved.
        assertThat(sentPackets(first.name())).as("%s's packets", first.name()).isGreaterThan(firstBefore);
        assertThat(sentPackets(SECOND)).as("%s's packets", SECOND).isGreaterThan(secondBefore);
    }

    @Test
    void aByteFlippedOnOneRailFailsThePointNamingThatRail() throws Exception {
        Timeouts t = timeouts();
        try (LocalAgent agent = LocalAgent.start(agentJvmArgs(), dir.resolve("agent.log"), t.agentStart());
                Session a = Session.open(agent.host(), agent.port(), agent.token(), t);
                Session b = Session.open(agent.host(), agent.port(), agent.token(), t)) {
            TransferSpec point = spec("rails-flip", VerbsTransport.ID, Map.of());
            Measurement m = Rails.run(
                    point,
                    List.of(
                            new Rails.Rail(
                                    first.name(),
                                    a,
                                    spec("rails-flip/rail=0", VerbsTransport.ID, Map.of("verbs.device", first.name()))),
                            new Rails.Rail(
                                    SECOND,
                                    b,
                                    spec(
                                            "rails-flip/rail=1",
                                            VerbsBitFlipTransport.ID,
                                            Map.of("verbs.device", SECOND, "fault.slot", "1", "fault.offset", "7")))),
                    t.control());

            assertThat(m.isValid()).isFalse();
            assertThat(m.validation().where()).isEqualTo("rail 1 (" + SECOND + ")");
            assertThat(m.validation().describe())
                    .startsWith("rail 1 (" + SECOND + "): data corruption: 1 of 6 slot(s) differ;")
                    .contains("slot 1, byte offset 7");
            assertThat(m.validation().failureKind()).contains(FailureKind.DATA_CORRUPTION);
            assertThat(m.rails()).extracting(RailResult::label).containsExactly(first.name(), SECOND);
            assertThat(m.rails().get(0).measurement().isValid())
                    .as(m.rails().get(0).measurement().validation().describe())
                    .isTrue();
            assertThat(m.rails().get(1).measurement().isValid()).isFalse();
            // The sessions go on: the flip was in the data, not the rails' control.
            assertThat(a.usable()).isTrue();
            assertThat(b.usable()).isTrue();
        }
    }

    private static TransferSpec spec(String id, String transport, Map<String, String> settings) {
        return TransferSpec.builder()
                .pointId(id)
                .transport(transport)
                .op(Op.WRITE)
                .size(4097)
                .batch(3)
                .pipelineDepth(1)
                .iterations(10)
                .warmup(1)
                .settings(settings)
                .build();
    }

    /** The guest's deadlines (SoftRoceSuite passes them as linkproof.timeout.*), else ten times the host's. */
    private static Timeouts timeouts() {
        Duration progress = duration("linkproof.timeout.progress", Duration.ofSeconds(60));
        return new Timeouts(
                duration("linkproof.timeout.agentStart", Duration.ofSeconds(120)),
                duration("linkproof.timeout.control", Duration.ofSeconds(120)),
                new IoSettings(progress, IoSettings.DEFAULT.connectTimeout().multipliedBy(10)));
    }

    private static Duration duration(String key, Duration otherwise) {
        String v = System.getProperty(key);
        return v == null || v.isBlank() ? otherwise : Units.parseDuration(v);
    }

    /** The guest's agent JVM options (SoftRoceSuite: C1 only, no CDS, serial GC, a small heap). */
    private static List<String> agentJvmArgs() {
        String v = System.getProperty("linkproof.agent.jvmArgs", "-Xmx256m").trim();
        return v.isEmpty() ? List.of() : List.of(v.split("\\s+"));
    }
}
