package dev.linkproof.fleet.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.fleet.FleetConfigurationException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** linkproof.fleet.pattern's values, and errors that quote the value and list the valid ones. */
class PatternParserTest {
    @Test
    void everyFormParses() {
        assertThat(PatternParser.parse("pairwise")).isEqualTo(new Pairwise());
        assertThat(PatternParser.parse(" ring ")).isEqualTo(new Ring());
        assertThat(PatternParser.parse("random-k:3")).isEqualTo(new RandomK(3, RandomK.DEFAULT_SEED));
        assertThat(PatternParser.parse("random-k:3:seed=7")).isEqualTo(new RandomK(3, 7));
        assertThat(PatternParser.parse("incast")).isEqualTo(new Incast(Optional.empty(), OptionalInt.empty()));
        assertThat(PatternParser.parse("incast:lpn1")).isEqualTo(new Incast(Optional.of("lpn1"), OptionalInt.empty()));
        assertThat(PatternParser.parse("incast:batch=8")).isEqualTo(new Incast(Optional.empty(), OptionalInt.of(8)));
        assertThat(PatternParser.parse("fan-out:lpn1:batch=2"))
                .isEqualTo(new FanOut(Optional.of("lpn1"), OptionalInt.of(2)));
        assertThat(PatternParser.parse("file:/etc/lp/pairs:v2.txt"))
                .isEqualTo(new PairFile(Path.of("/etc/lp/pairs:v2.txt")));
    }

    @Test
    void specGivesTheValueBackWithDefaultsSpelledOut() {
        for (String v :
                new String[] {"pairwise", "ring", "random-k:3:seed=7", "incast:lpn1:batch=8", "fan-out", "file:/p.txt"
                }) {
            assertThat(PatternParser.parse(v).spec()).isEqualTo(v);
        }
        assertThat(PatternParser.parse("random-k:3").spec()).isEqualTo("random-k:3:seed=1");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "all-pairs | unknown pattern 'all-pairs'",
                "pairwise:2 | pairwise takes no arguments",
                "random-k | random-k needs k, the partners per node (random-k:3)",
                "random-k:three | k 'three' is not a whole number of at least 1",
                "random-k:0 | k '0' is not a whole number of at least 1",
                "random-k:3:seed=x | seed 'x' is not a whole number",
                "random-k:3:salt=1 | random-k takes only seed=<n>, not 'salt=1'",
                "incast:lpn1:lpn2 | the node comes first, 'lpn2' is out of place",
                "incast:batch=0 | batch '0' is not a whole number of at least 1",
                "fan-out::batch=2 | an empty argument between colons",
                "file: | file: needs the pair file's path",
            })
    void aBadValueIsQuotedWithWhatIsWrongAndTheValidForms(String value, String problem) {
        assertThatThrownBy(() -> PatternParser.parse(value))
                .isInstanceOf(FleetConfigurationException.class)
                .hasMessage("linkproof.fleet.pattern=" + value + ": " + problem + "; valid: " + PatternParser.VALID);
    }
}
