package dev.linkproof.fleet.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.fleet.FleetConfigurationException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A pair file: both line forms, comments, first-fit disjoint rounds, and every bad line by number. */
class PairFileTest {
    private static final List<String> FOUR = List.of("lpn1", "lpn2", "lpn3", "lpn4");

    @Test
    void linesInBothFormsWithCommentsPackIntoDisjointRounds() {
        Plan plan = PairFile.of("""
            # spine links
            lpn1 lpn2
            lpn3->lpn4   # the new cable
            lpn1 -> lpn3

            lpn2\tlpn1
            """, "pairs.txt", FOUR);

        assertThat(plan.ways()).isEqualTo(Ways.ONE_WAY);
        assertThat(plan.rounds())
                .extracting(Round::pairs)
                .containsExactly(
                        List.of(new Pair("lpn1", "lpn2"), new Pair("lpn3", "lpn4"), new Pair("lpn2", "lpn1")),
                        List.of(new Pair("lpn1", "lpn3")));
        PlanChecks.roundsAreDisjoint(plan);
    }

    @Test
    void everyBadLineIsReportedWithItsNumber() {
        assertThatThrownBy(() -> PairFile.of("""
            lpn1 lpn2
            lpn1 lpn2 lpn3
            lpn1 lpn9
            lpn4->lpn4
            lpn1->lpn2
            ->lpn2
            lpn2 lpn1
            """, "pairs.txt", FOUR))
                .isInstanceOfSatisfying(
                        FleetConfigurationException.class,
                        e -> assertThat(e.problems())
                                .containsExactly(
                                        "pairs.txt:2: 'lpn1 lpn2 lpn3' is not a pair: write 'a b' or 'a->b'",
                                        "pairs.txt:3: node lpn9 is not in the fleet [lpn1, lpn2, lpn3, lpn4]",
                                        "pairs.txt:4: node lpn4 is paired with itself",
                                        "pairs.txt:5: lpn1->lpn2 is already on line 1",
                                        "pairs.txt:6: '->lpn2' is not a pair: write 'a b' or 'a->b'"));
    }

    @Test
    void aFileWithoutPairsIsAnError() {
        assertThatThrownBy(() -> PairFile.of("# nothing yet\n\n", "pairs.txt", FOUR))
                .hasMessage("pairs.txt: no pairs, only comments and blank lines");
    }

    @Test
    void readsTheFileItNamesAndSaysWhenItCannot(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("pairs.txt"), "lpn1 lpn2\n");

        assertThat(new PairFile(file).plan(FOUR).pairs()).containsExactly(new Pair("lpn1", "lpn2"));
        assertThatThrownBy(() -> new PairFile(dir.resolve("missing.txt")).plan(FOUR))
                .isInstanceOf(FleetConfigurationException.class)
                .hasMessageStartingWith("cannot read the pair file " + dir.resolve("missing.txt"));
    }
}
