package dev.linkproof.profiles;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.measure.RailResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The criteria table of docs/profiles.md (the one reference of the schema; this module's README
 * points to it) lists the keys the parser takes, and no other; the rails verdicts docs/profiles.md
 * shows are what the evaluator says.
 */
class ProfileDocsTest {
    private static final Path USER_DOCS = Path.of("../docs/profiles.md");
    private static final Pattern ROW = Pattern.compile("(?m)^\\| `([a-z0-9-]+)` \\|");

    /** The keys of the table under "### Criteria", up to the next heading. */
    static List<String> criteriaTable(Path doc) throws IOException {
        String text = Files.readString(doc);
        int at = text.indexOf("### Criteria\n");
        assertThat(at).as(doc + " has a '### Criteria' section").isNotNegative();
        int end = text.indexOf("\n#", at + 1);
        Matcher m = ROW.matcher(text.substring(at, end < 0 ? text.length() : end));
        List<String> keys = new ArrayList<>();
        while (m.find()) {
            keys.add(m.group(1));
        }
        return keys;
    }

    @Test
    void theCriteriaTableListsTheParsersKeys() throws IOException {
        assertThat(criteriaTable(USER_DOCS)).as("docs/profiles.md").containsExactlyElementsOf(CriteriaParser.CRITERION);
    }

    @Test
    void theRailsVerdictsShownAreTheEvaluators() throws IOException {
        String docs = Files.readString(USER_DOCS);
        CriteriaEvaluator h100 =
                new CriteriaEvaluator(BuiltinProfiles.standard().profile("h100-cx7-gpu"), EvaluationContext.none());
        MemoryPlacement gpu = MemoryPlacement.parse("gpu");
        TransferSpec s = TransferSpec.builder()
                .pointId("docs")
                .op(Op.WRITE)
                .size(128 << 20)
                .batch(1)
                .mode(Mode.BANDWIDTH)
                .transport("verbs")
                .initiatorMemory(gpu)
                .targetMemory(gpu)
                .build();
        List<RailResult> rails = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            rails.add(RailsCriteriaTest.rail(i, "mlx5_" + i, s, 384.63 / 8, 2790, 0, 1_000_000_000L));
        }
        List<String> texts = h100.evaluate(Measurement.ofRails(s, rails)).stream()
                .map(Verdict::text)
                .toList();
        assertThat(docs)
                .contains(texts.stream()
                        .filter(t -> t.contains("gpu-node-large"))
                        .findFirst()
                        .orElseThrow());

        rails.set(3, RailsCriteriaTest.rail(3, "mlx5_3", s, 21.0, 6390, 0, 1_000_000_000L));
        texts = h100.evaluate(Measurement.ofRails(s, rails)).stream()
                .map(Verdict::text)
                .toList();
        assertThat(docs)
                .contains(texts.stream()
                        .filter(t -> t.contains("rail 3 (mlx5_3)") && t.contains("gpu-large"))
                        .findFirst()
                        .orElseThrow());

        TransferSpec tcp = TransferSpec.builder()
                .pointId("docs-tcp")
                .op(Op.WRITE)
                .size(1 << 20)
                .build();
        String balance = new CriteriaEvaluator(RailsCriteriaTest.NODE, EvaluationContext.none())
                        .evaluate(Measurement.ofRails(
                                tcp,
                                List.of(
                                        RailsCriteriaTest.rail(
                                                0, "10.77.0.1->10.77.0.2", tcp, 1.08, 20, 0, 1_000_000_000L),
                                        RailsCriteriaTest.rail(
                                                1, "10.77.1.1->10.77.1.2", tcp, 0.05, 20, 0, 1_000_000_000L),
                                        RailsCriteriaTest.rail(
                                                2, "10.77.2.1->10.77.2.2", tcp, 1.10, 20, 0, 1_000_000_000L))))
                        .stream()
                        .filter(v -> v.kind() == Verdict.Kind.MIN_RAIL_BALANCE)
                        .findFirst()
                        .orElseThrow()
                        .text();
        assertThat(docs).contains(balance);
    }
}
