package dev.linkproof.fleet.act;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.linkproof.fleet.blame.Verdict;
import dev.linkproof.fleet.blame.VerdictKind;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a run acts on: the breaker's cap, a degraded fleet, history's damping; and which nodes come back. */
class SelectionTest {
    private static Verdict bad(String node) {
        return new Verdict(VerdictKind.BAD_NODE, List.of(node), List.of(), 0, "fails with 3 of its 3 partners");
    }

    private static History history(Set<String>... blamed) {
        List<History.PastRun> runs = new java.util.ArrayList<>();
        for (int i = 0; i < blamed.length; i++) {
            runs.add(new History.PastRun(
                    "run" + i, Instant.parse("2026-12-01T00:00:00Z").plusSeconds(3600L * i), blamed[i]));
        }
        return new History(runs);
    }

    @Test
    void withoutHistoryEveryConfirmedNodeVerdictIsActedOnUpToTheBreakersShare() {
        Selection s = Selection.of(List.of(bad("n1"), bad("n2")), 2, Optional.empty(), ActAfter.DEFAULT);
        assertThat(s.actOn()).extracting(Verdict::node).containsExactly("n1", "n2");
        assertThat(s.left()).isEmpty();
        // One more than the share: none is acted on, each says why.
        Selection over = Selection.of(List.of(bad("n1"), bad("n2"), bad("n3")), 2, Optional.empty(), ActAfter.DEFAULT);
        assertThat(over.actOn()).isEmpty();
        assertThat(over.left())
                .extracting(NotActedOn::why)
                .containsOnly(NotActedOn.Why.TOO_MANY_NODES)
                .hasSize(3);
        assertThat(over.left().getFirst().describe())
                .endsWith("(too many nodes: 3 nodes to act on, more than the 2 one run may take out)");
    }

    @Test
    void aDegradedFleetIsNeverActedOn() {
        Verdict degraded = new Verdict(
                VerdictKind.FLEET_DEGRADED, List.of("n1", "n2", "n3"), List.of(), 0, "fleet-wide: 3 of 8 nodes fail");
        Selection s = Selection.of(List.of(degraded), 8, Optional.empty(), ActAfter.DEFAULT);
        assertThat(s.actOn()).isEmpty();
        assertThat(s.left()).extracting(NotActedOn::why).containsExactly(NotActedOn.Why.FLEET_DEGRADED);
        assertThat(SlurmDrain.DEFAULT.plan(s).commands()).isEmpty();
        assertThat(KubernetesMark.DEFAULT.plan(s).commands()).isEmpty();
    }

    @Test
    void withHistoryAFirstBlameIsASuspectAndASecondWithinTheWindowActs() {
        Optional<History> none = Optional.of(History.EMPTY);
        Selection first = Selection.of(List.of(bad("n3")), 2, none, ActAfter.DEFAULT);
        assertThat(first.actOn()).isEmpty();
        assertThat(first.left())
                .extracting(NotActedOn::why, NotActedOn::detail)
                .containsExactly(tuple(
                        NotActedOn.Why.NOT_CONFIRMED_BY_HISTORY,
                        "a suspect: blamed in 1 of the last 1 runs, acting needs 2 of 3"));
        // Blamed in the run before: 2 of the last 3.
        Selection second =
                Selection.of(List.of(bad("n3")), 2, Optional.of(history(Set.of(), Set.of("n3"))), ActAfter.DEFAULT);
        assertThat(second.actOn()).extracting(Verdict::node).containsExactly("n3");
        // Blamed three runs ago: outside the window of 3, a suspect again.
        Selection stale = Selection.of(
                List.of(bad("n3")), 2, Optional.of(history(Set.of("n3"), Set.of(), Set.of())), ActAfter.DEFAULT);
        assertThat(stale.actOn()).isEmpty();
        assertThat(stale.left().getFirst().detail())
                .isEqualTo("a suspect: blamed in 1 of the last 3 runs, acting needs 2 of 3");
        // 1/1: history kept, every blame acts.
        assertThat(Selection.of(List.of(bad("n3")), 2, none, ActAfter.parse("1 of 1"))
                        .actOn())
                .hasSize(1);
    }

    @Test
    void actAfterReadsCountOfWindowAndRefusesNonsense() {
        assertThat(ActAfter.parse("2/3")).isEqualTo(new ActAfter(2, 3));
        assertThat(ActAfter.parse(" 3 of 5 ")).isEqualTo(new ActAfter(3, 5));
        assertThatThrownBy(() -> ActAfter.parse("often")).hasMessageContaining("is not COUNT/WINDOW");
        assertThatThrownBy(() -> ActAfter.parse("4/3")).hasMessageContaining("1 <= COUNT <= WINDOW");
    }

    @Test
    void slurmMarksAreOnlyOursAndComeBackWhenTheNodePasses() {
        String sinfo = """
            lpn2|linkproof: bad-node: fails with 3 of its 3 partners
            lpn3|Not responding
            lpn4|linkproof: corrupting-node: data failed validation
            """;
        List<Mark> marks = SlurmDrain.DEFAULT.marks(sinfo);
        assertThat(marks).extracting(Mark::node).containsExactly("lpn2", "lpn4");
        assertThat(SlurmDrain.DEFAULT.resume(marks.getFirst()).argv())
                .containsExactly("scontrol", "update", "nodename=lpn2", "state=resume");
        assertThat(SlurmDrain.DEFAULT.query().argv()).containsExactly("sinfo", "-h", "-N", "-R", "-o", "%N|%E");
    }

    @Test
    void kubernetesMarksComeOffWithTheirOwnTaint() {
        List<Mark> marks = KubernetesMark.DEFAULT.marks("node-a   bad-node\nnode-b   <none>\n");
        assertThat(marks).containsExactly(new Mark("node-a", "bad-node"));
        assertThat(KubernetesMark.DEFAULT.clear(marks.getFirst()))
                .extracting(Command::argv)
                .containsExactly(
                        List.of("kubectl", "label", "node", "node-a", "linkproof.dev/verdict-"),
                        List.of("kubectl", "taint", "node", "node-a", "linkproof.dev/bad-node:NoSchedule-"));
    }
}
