package dev.linkproof.fleet.act;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.linkproof.fleet.blame.Verdict;
import dev.linkproof.fleet.blame.VerdictKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ActTest {
    @TempDir
    Path dir;

    private static Verdict node(VerdictKind kind, String node, String reason) {
        return new Verdict(kind, List.of(node), List.of(), 0, reason);
    }

    /** One verdict of each kind: three nodes to act on, a link and a missing node to leave alone. */
    private static final List<Verdict> VERDICTS = List.of(
            node(VerdictKind.MISSING_NODE, "lpn5", "lpn5 was expected and never registered with the coordinator"),
            node(VerdictKind.UNREACHABLE_NODE, "lpn4", "no pair reached lpn4"),
            node(VerdictKind.CORRUPTING_NODE, "lpn2", "data failed validation on 3 of its 3 partners' pairs"),
            node(VerdictKind.BAD_NODE, "lpn3", "fails with 3 of its 3 partners (SLOW ×6)"),
            new Verdict(VerdictKind.BAD_LINK, List.of("lpn1", "lpn6"), List.of(), 0, "lpn1<->lpn6 fails (SLOW ×2)"));

    /** Every verdict acted on that may be: no breaker in the way, no history. */
    private static final Selection ALL =
            Selection.of(VERDICTS, Integer.MAX_VALUE, java.util.Optional.empty(), ActAfter.DEFAULT);

    @Test
    void slurmDrainsExactlyTheBlamedNodesWithTheExactArgv() {
        ActPlan plan = SlurmDrain.DEFAULT.plan(ALL);
        assertThat(plan.commands())
                .extracting(Command::argv)
                .containsExactly(
                        List.of(
                                "scontrol",
                                "update",
                                "nodename=lpn4",
                                "state=drain",
                                "reason=linkproof: unreachable-node: no pair reached lpn4"),
                        List.of(
                                "scontrol",
                                "update",
                                "nodename=lpn2",
                                "state=drain",
                                "reason=linkproof: corrupting-node: data failed validation on 3 of its 3 partners"
                                        + " pairs"),
                        List.of(
                                "scontrol",
                                "update",
                                "nodename=lpn3",
                                "state=drain",
                                "reason=linkproof: bad-node: fails with 3 of its 3 partners (SLOW ×6)"));
        assertThat(plan.notActedOn())
                .extracting(n -> n.verdict().kind(), NotActedOn::why)
                .containsExactly(
                        tuple(VerdictKind.MISSING_NODE, NotActedOn.Why.NEVER_REGISTERED),
                        tuple(VerdictKind.BAD_LINK, NotActedOn.Why.LINK_NODES_ARE_FINE));
        assertThat(plan.shellLines().getFirst())
                .isEqualTo("scontrol update nodename=lpn4 state=drain reason=\"linkproof: unreachable-node: no pair"
                        + " reached lpn4\"");
    }

    @Test
    void kubernetesLabelsAndTaintsExactlyTheBlamedNodes() {
        ActPlan plan = KubernetesMark.DEFAULT.plan(ALL);
        assertThat(plan.commands())
                .extracting(Command::argv)
                .containsExactly(
                        List.of(
                                "kubectl",
                                "label",
                                "node",
                                "lpn4",
                                "linkproof.dev/verdict=unreachable-node",
                                "--overwrite"),
                        List.of(
                                "kubectl",
                                "taint",
                                "node",
                                "lpn4",
                                "linkproof.dev/unreachable-node=true:NoSchedule",
                                "--overwrite"),
                        List.of(
                                "kubectl",
                                "label",
                                "node",
                                "lpn2",
                                "linkproof.dev/verdict=corrupting-node",
                                "--overwrite"),
                        List.of(
                                "kubectl",
                                "taint",
                                "node",
                                "lpn2",
                                "linkproof.dev/corrupting-node=true:NoSchedule",
                                "--overwrite"),
                        List.of("kubectl", "label", "node", "lpn3", "linkproof.dev/verdict=bad-node", "--overwrite"),
                        List.of(
                                "kubectl",
                                "taint",
                                "node",
                                "lpn3",
                                "linkproof.dev/bad-node=true:NoSchedule",
                                "--overwrite"));
        assertThat(plan.shellLines()).allSatisfy(l -> assertThat(l).doesNotContain("'", "\""));
        assertThat(plan.notActedOn()).hasSize(2);
    }

    /** Verdicts name the agents' pods; the label and taint go on the Kubernetes node each pod ran on. */
    @Test
    void kubernetesMarksTheNodeABlamedPodRanOn() {
        Map<String, String> machines = Map.of("lpn4", "gpu-node-4", "lpn2", "gpu-node-2", "lpn3", "gpu-node-3");
        ActPlan plan = KubernetesMark.DEFAULT.onMachines(machines::get).plan(ALL);
        assertThat(plan.commands())
                .extracting(c -> c.argv().get(3))
                .containsExactly("gpu-node-4", "gpu-node-4", "gpu-node-2", "gpu-node-2", "gpu-node-3", "gpu-node-3");
    }

    @Test
    void aLinkVerdictIsRefusedOutright() {
        assertThatThrownBy(() -> SlurmDrain.DEFAULT.drain(VERDICTS.get(4)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("a bad-link verdict drains nothing");
        assertThatThrownBy(() -> KubernetesMark.DEFAULT.taint(VERDICTS.get(4)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void reasonsLoseQuotesNewlinesAndLength() {
        assertThat(ReasonText.sanitise("a \"quoted\"\nsecond line\r\n\tand `cmd` $HOME \\ it's!", 200))
                .isEqualTo("a quoted second line and cmd HOME it s");
        assertThat(ReasonText.sanitise("  lead\u2028and\u0000trail  ", 200)).isEqualTo("lead and trail");
        String cut = ReasonText.sanitise("x".repeat(500), 120);
        assertThat(cut).hasSize(120).endsWith("...");
        assertThat(ReasonText.sanitise("µ".repeat(10) + "€€", 10)).isEqualTo("µµµµµµµ...");
        Verdict longOne = node(VerdictKind.BAD_NODE, "lpn3", "a\nb \"c\" " + "y".repeat(300));
        String reason = SlurmDrain.DEFAULT.drain(longOne).argv().getLast();
        assertThat(reason)
                .startsWith("reason=linkproof: bad-node: a b c yyy")
                .hasSize("reason=".length() + ReasonText.DEFAULT_MAX)
                .doesNotContain("\n", "\"");
    }

    @Test
    void aNodeNameThatIsNotPlainIsRefused() {
        for (String bad : List.of("lpn1,lpn2", "lpn[1-4]", "-all", "lpn 1", "lpn1\n")) {
            assertThatThrownBy(() -> SlurmDrain.DEFAULT.drain(node(VerdictKind.BAD_NODE, bad, "x")))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not a plain node name");
        }
        assertThat(SlurmDrain.DEFAULT
                        .drain(node(VerdictKind.BAD_NODE, "gpu-node_01.cluster", "x"))
                        .node())
                .isEqualTo("gpu-node_01.cluster");
    }

    /** A stand-in for scontrol: appends its arguments, one a line and a blank line after, to a log; fails for lpn2. */
    private Path fakeScontrol(String body) throws IOException {
        Path script = dir.resolve("scontrol");
        Files.writeString(
                script,
                "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\" >> \"" + dir.resolve("calls.log") + "\"; done\n"
                        + "echo >> \"" + dir.resolve("calls.log") + "\"\n" + body);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return script;
    }

    @Test
    void theRunnerDrainsExactlyTheBlamedNodesAndReportsAFailureWithItsExitCode() throws IOException {
        Path scontrol = fakeScontrol(
                "case \"$2\" in nodename=lpn2) echo 'slurm_update error: Invalid node name specified' >&2; exit 3;;"
                        + " esac\n"
                        + "echo ok\n");
        SlurmDrain drain = new SlurmDrain(scontrol.toString(), "sinfo", ReasonText.DEFAULT_MAX);
        List<CommandOutcome> outcomes = new CommandRunner(Duration.ofSeconds(20)).run(drain.plan(ALL));

        assertThat(outcomes)
                .extracting(o -> o.command().node(), CommandOutcome::succeeded)
                .containsExactly(tuple("lpn4", true), tuple("lpn2", false), tuple("lpn3", true));
        assertThat(outcomes.get(0))
                .isInstanceOfSatisfying(
                        CommandOutcome.Succeeded.class,
                        s -> assertThat(s.output()).isEqualTo("ok"));
        assertThat(outcomes.get(1)).isInstanceOfSatisfying(CommandOutcome.Failed.class, f -> {
            assertThat(f.exitCode()).isEqualTo(3);
            assertThat(f.output()).isEqualTo("slurm_update error: Invalid node name specified");
        });
        // What scontrol was called with, argument by argument: the three blamed nodes, in order, and nothing else.
        String calls = Files.readString(dir.resolve("calls.log"), StandardCharsets.UTF_8);
        assertThat(calls.split("\n\n"))
                .containsExactly(
                        "update\nnodename=lpn4\nstate=drain\nreason=linkproof: unreachable-node: no pair reached lpn4",
                        "update\n"
                            + "nodename=lpn2\n"
                            + "state=drain\n"
                            + "reason=linkproof: corrupting-node: data failed validation on 3 of its 3 partners pairs",
                        "update\n"
                                + "nodename=lpn3\n"
                                + "state=drain\n"
                                + "reason=linkproof: bad-node: fails with 3 of its 3 partners (SLOW ×6)");
    }

    @Test
    void aCommandPastItsDeadlineIsKilledAndReported() throws IOException {
        Path scontrol = fakeScontrol("echo started\nexec sleep 30\n");
        long t0 = System.nanoTime();
        CommandOutcome o = new CommandRunner(Duration.ofMillis(500))
                .run(new SlurmDrain(scontrol.toString(), "sinfo", 120).drain(VERDICTS.get(3)));
        assertThat((System.nanoTime() - t0) / 1e9).isLessThan(10);
        assertThat(o).isInstanceOfSatisfying(CommandOutcome.TimedOut.class, t -> {
            assertThat(t.deadline()).isEqualTo(Duration.ofMillis(500));
            assertThat(t.output()).isEqualTo("started");
        });
    }

    @Test
    void aProgramThatIsNotThereIsReportedAsNotStarted() {
        CommandOutcome o = new CommandRunner(Duration.ofSeconds(5))
                .run(new SlurmDrain(dir.resolve("no-such-scontrol").toString(), "sinfo", 120).drain(VERDICTS.get(3)));
        assertThat(o)
                .isInstanceOfSatisfying(
                        CommandOutcome.NotStarted.class,
                        n -> assertThat(n.why()).contains("no-such-scontrol"));
    }
}
