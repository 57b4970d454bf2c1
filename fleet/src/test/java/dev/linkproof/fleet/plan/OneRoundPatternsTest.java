package dev.linkproof.fleet.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.fleet.FleetConfigurationException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Ring, incast and fan-out: who meets whom, in how many rounds. */
class OneRoundPatternsTest {
    private static final List<String> FOUR = List.of("lpn1", "lpn2", "lpn3", "lpn4");

    @ParameterizedTest(name = "{0} nodes")
    @ValueSource(ints = {2, 3, 4, 5, 17, 64, 1024})
    void ringSendsEachNodeToTheNextInOneDisjointRound(int n) {
        Plan plan = new Ring().plan(PlanChecks.nodes(n));

        assertThat(plan.rounds()).hasSize(1);
        PlanChecks.roundsAreDisjoint(plan);
        assertThat(plan.pairs()).hasSize(n).contains(new Pair("lpn" + n, "lpn1"));
        for (int i = 1; i < n; i++) {
            assertThat(plan.pairs().get(i - 1)).isEqualTo(new Pair("lpn" + i, "lpn" + (i + 1)));
        }
    }

    @Test
    void incastRunsEveryOtherNodeIntoTheFirstAtOnce() {
        Plan plan = new Incast(Optional.empty(), OptionalInt.empty()).plan(FOUR);

        assertThat(plan.rounds()).hasSize(1);
        assertThat(plan.pairs())
                .containsExactly(new Pair("lpn2", "lpn1"), new Pair("lpn3", "lpn1"), new Pair("lpn4", "lpn1"));
        assertThat(plan.rounds().getFirst().isDisjoint()).isFalse();
    }

    @Test
    void incastOntoANamedNodeInBatches() {
        Plan plan = new Incast(Optional.of("lpn3"), OptionalInt.of(2)).plan(FOUR);

        assertThat(plan.rounds())
                .extracting(Round::pairs)
                .containsExactly(
                        List.of(new Pair("lpn1", "lpn3"), new Pair("lpn2", "lpn3")), List.of(new Pair("lpn4", "lpn3")));
        assertThat(plan.pattern()).isEqualTo("incast:lpn3:batch=2");
    }

    @Test
    void fanOutRunsOneNodeToEveryOther() {
        Plan plan = new FanOut(Optional.of("lpn2"), OptionalInt.empty()).plan(FOUR);

        assertThat(plan.rounds()).hasSize(1);
        assertThat(plan.pairs())
                .containsExactly(new Pair("lpn2", "lpn1"), new Pair("lpn2", "lpn3"), new Pair("lpn2", "lpn4"));
        assertThat(new FanOut(Optional.empty(), OptionalInt.of(1)).plan(FOUR).rounds())
                .hasSize(3);
    }

    @Test
    void aHubOutsideTheFleetIsNamed() {
        assertThatThrownBy(() -> new Incast(Optional.of("lpn9"), OptionalInt.empty()).plan(FOUR))
                .isInstanceOf(FleetConfigurationException.class)
                .hasMessage("incast:lpn9 names node lpn9, which is not in the fleet [lpn1, lpn2, lpn3, lpn4]");
    }
}
