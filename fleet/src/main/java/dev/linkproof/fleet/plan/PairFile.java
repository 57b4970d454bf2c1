package dev.linkproof.fleet.plan;

import dev.linkproof.fleet.FleetConfigurationException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code file:/path}: the pairs a file lists ({@link PairFileParser} for its lines), each only in
 * the direction written, packed first fit into disjoint rounds ({@link RoundPacking}). Read when
 * the plan is made, since whether its nodes exist depends on the fleet.
 */
public record PairFile(Path path) implements Pattern {
    @Override
    public Plan plan(List<String> nodes) {
        List<String> checked = Plan.requireNodes(nodes);
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new FleetConfigurationException("cannot read the pair file " + path + ": " + e, e);
        }
        return of(text, path.toString(), checked);
    }

    /** The plan of a pair file's text; {@code source} names it in messages and in the plan. */
    static Plan of(String text, String source, List<String> nodes) {
        List<String> checked = Plan.requireNodes(nodes);
        List<Pair> pairs = PairFileParser.parse(text, source, checked);
        return new Plan("file:" + source, checked, Ways.ONE_WAY, RoundPacking.pack(pairs));
    }

    @Override
    public String spec() {
        return "file:" + path;
    }
}
