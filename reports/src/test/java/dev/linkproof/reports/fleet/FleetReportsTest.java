package dev.linkproof.reports.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.linkproof.fleet.blame.Blame;
import dev.linkproof.fleet.blame.BlameSettings;
import dev.linkproof.fleet.blame.Blamer;
import dev.linkproof.fleet.blame.Observations;
import dev.linkproof.fleet.blame.OutcomeKind;
import dev.linkproof.fleet.blame.PairOutcome;
import dev.linkproof.fleet.blame.Point;
import dev.linkproof.fleet.blame.Thresholds;
import dev.linkproof.fleet.plan.Pair;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class FleetReportsTest {
    private static final Point WRITE = new Point("write-1MiB", "write 1 MiB");
    private static final FleetRunInfo RUN = new FleetRunInfo(
            "run-42",
            Instant.parse("2026-12-05T02:00:00Z"),
            Instant.parse("2026-12-05T02:03:00Z"),
            "pairwise",
            "h200-roce");

    @TempDir
    Path dir;

    /**
     * Six expected nodes: lpn6 never registers, lpn3 is slow with everyone, lpn4->lpn1 corrupts and
     * lpn2->lpn5 is unreachable (links: their nodes pass elsewhere).
     */
    private static List<PairOutcome> outcomes(List<String> nodes) {
        List<PairOutcome> out = new ArrayList<>();
        for (String a : nodes) {
            for (String b : nodes) {
                if (a.equals(b)) {
                    continue;
                }
                Pair p = new Pair(a, b);
                double bw = 10 + nodes.indexOf(a) * 0.01 + nodes.indexOf(b) * 0.001;
                if (a.equals(nodes.get(2)) || b.equals(nodes.get(2))) {
                    bw = 5;
                }
                if (a.equals(nodes.get(3)) && b.equals(nodes.get(0))) {
                    out.add(new PairOutcome(p, WRITE, OutcomeKind.CORRUPT, bw, 5.0));
                } else if (a.equals(nodes.get(1)) && b.equals(nodes.get(4))) {
                    out.add(PairOutcome.unmeasured(p, WRITE, OutcomeKind.UNREACHABLE));
                } else {
                    out.add(new PairOutcome(p, WRITE, OutcomeKind.PASSED, bw, 5.0));
                }
            }
        }
        return out;
    }

    private static final List<String> NODES = List.of("lpn1", "lpn2", "lpn3", "lpn4", "lpn5");
    private static final List<PairOutcome> OUTCOMES = outcomes(NODES);
    private static final Blame BLAME = Blamer.blame(
            new Observations(List.of("lpn1", "lpn2", "lpn3", "lpn4", "lpn5", "lpn6"), Set.copyOf(NODES), OUTCOMES),
            confirmed(OUTCOMES),
            new BlameSettings(Thresholds.DEFAULTS, 3, 0.5, 32)); // two of six singled out: past the default breaker

    /** The first round and three confirmations of every pair that did the same each time: what a campaign would have. */
    private static List<PairOutcome> confirmed(List<PairOutcome> first) {
        List<PairOutcome> all = new ArrayList<>(first);
        for (int i = 1; i <= 3; i++) {
            long at = Instant.parse("2026-12-05T02:02:00Z").toEpochMilli() + i * 1000L;
            first.forEach(o -> all.add(o.at(dev.linkproof.fleet.blame.Stage.CONFIRMATION, at)));
        }
        return all;
    }

    @Test
    void fleetVerdictJsonParsesBackWithItsFields() throws Exception {
        Path file = FleetVerdictFile.write(dir, RUN, BLAME);
        assertThat(file.getFileName().toString()).isEqualTo("fleet-verdict.json");
        JsonNode j = new ObjectMapper().readTree(file.toFile());
        assertThat(j.get("schema").asText()).isEqualTo("linkproof.fleet-verdict/1");
        assertThat(j.at("/run/id").asText()).isEqualTo("run-42");
        assertThat(j.at("/run/started").asText()).isEqualTo("2026-12-05T02:00:00Z");
        assertThat(j.at("/run/pattern").asText()).isEqualTo("pairwise");
        assertThat(j.at("/run/bandwidthFraction").asDouble()).isEqualTo(0.93);
        assertThat(j.at("/summary/nodes").asInt()).isEqualTo(6);
        assertThat(j.at("/summary/clear").asInt()).isEqualTo(4);
        assertThat(j.at("/summary/verdicts/bad-link").asInt()).isEqualTo(2);
        assertThat(j.at("/summary/verdicts/missing-node").asInt()).isEqualTo(1);
        List<String> statuses = new ArrayList<>();
        j.get("nodes")
                .forEach(n -> statuses.add(
                        n.get("name").asText() + "=" + n.get("status").asText()));
        assertThat(statuses)
                .containsExactly("lpn1=clear", "lpn2=clear", "lpn3=bad", "lpn4=clear", "lpn5=clear", "lpn6=missing");
        List<String> kinds = new ArrayList<>();
        j.get("verdicts").forEach(v -> kinds.add(v.get("kind").asText() + " " + v.get("nodes")));
        assertThat(kinds)
                .containsExactly(
                        "missing-node [\"lpn6\"]",
                        "bad-node [\"lpn3\"]",
                        "bad-link [\"lpn1\",\"lpn4\"]",
                        "bad-link [\"lpn2\",\"lpn5\"]");
        JsonNode bad = j.at("/verdicts/1");
        assertThat(bad.get("reason").asText()).startsWith("fails with 4 of its 4 partners");
        JsonNode e = bad.at("/evidence/0");
        assertThat(e.get("fault").asText()).isEqualTo("slow");
        assertThat(e.get("bandwidthGBps").asDouble()).isEqualTo(5.0);
        assertThat(e.get("fleetReference").asDouble()).isGreaterThan(5.0 / 0.93);
        assertThat(e.get("pointId").asText()).isEqualTo("write-1MiB");
        assertThat(e.get("retest").asBoolean()).isFalse();
        JsonNode link = j.at("/verdicts/2/evidence/0");
        assertThat(link.get("fault").asText()).isEqualTo("corrupt");
        JsonNode unreached = j.at("/verdicts/3/evidence/0");
        assertThat(unreached.get("fault").asText()).isEqualTo("unreachable");
        assertThat(unreached.has("bandwidthGBps"))
                .as("not measured: absent, not NaN")
                .isFalse();
        JsonNode p = j.at("/points/0");
        assertThat(p.get("name").asText()).isEqualTo("write 1 MiB");
        assertThat(p.get("pairs").asInt()).isEqualTo(20);
        assertThat(p.get("measuredBandwidth").asInt()).isEqualTo(19);
        assertThat(p.get("minGBps").asDouble()).isEqualTo(5.0);
        assertThat(p.get("maxGBps").asDouble()).isEqualTo(10.043, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(p.get("medianGBps").asDouble()).isBetween(10.0, 10.043);
        assertThat(Files.readString(file)).doesNotContain("NaN");
        assertThat(FleetVerdictFile.read(file)).isEqualTo(FleetVerdictDocument.of(RUN, BLAME));
    }

    @Test
    void aDocumentOfAnotherSchemaIsRefused() throws Exception {
        Path f = dir.resolve("other.json");
        Files.writeString(f, "{\"schema\":\"linkproof.fleet-verdict/10\"}");
        assertThatThrownBy(() -> FleetVerdictFile.read(f))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("schema 'linkproof.fleet-verdict/10' is not linkproof.fleet-verdict/1");
    }

    private static Document parse(String svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<Element> cells(Document d) throws Exception {
        NodeList l = (NodeList) XPathFactory.newInstance()
                .newXPath()
                .evaluate(
                        "//*[local-name()='rect'][contains(concat(' ', @class, ' '), ' cell ')]",
                        d,
                        XPathConstants.NODESET);
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < l.getLength(); i++) {
            out.add((Element) l.item(i));
        }
        return out;
    }

    private static String title(Element cell) {
        return cell.getElementsByTagNameNS("*", "title").item(0).getTextContent();
    }

    @Test
    void theHeatMapIsWellFormedSvgWithOneCellPerPair() throws Exception {
        String svg = FleetHeatMap.svg(WRITE, OUTCOMES, BLAME);
        Document d = parse(svg);
        assertThat(d.getDocumentElement().getLocalName()).isEqualTo("svg");
        List<Element> cells = cells(d);
        assertThat(cells).hasSize(6 * 5);
        Set<String> pairs = new HashSet<>();
        for (Element c : cells) {
            pairs.add(title(c).substring(0, title(c).indexOf(':')));
        }
        assertThat(pairs)
                .hasSize(30)
                .contains("lpn1->lpn2", "lpn6->lpn1", "lpn1->lpn6")
                .doesNotContain("lpn1->lpn1");
        assertThat(cells)
                .filteredOn(c -> c.getAttribute("class").contains("not-run"))
                .hasSize(10)
                .allSatisfy(c -> assertThat(title(c)).contains("lpn6").endsWith("not run"));
        // lpn3's eight pairs are slow outliers, lpn4->lpn1 corrupt, lpn2->lpn5 unreachable: ten marked cells.
        assertThat(cells)
                .filteredOn(c -> c.getAttribute("class").contains("bad"))
                .extracting(FleetReportsTest::title)
                .hasSize(10)
                .contains(
                        "lpn4->lpn1: 10.030 GB/s (corrupt)",
                        "lpn2->lpn5: not measured (unreachable)",
                        "lpn3->lpn1: 5.000 GB/s (slow)");
        Element best = cells.stream()
                .filter(c -> title(c).startsWith("lpn5->lpn4:"))
                .findFirst()
                .orElseThrow();
        assertThat(best.getAttribute("fill")).isEqualTo("#fde725"); // the top of the scale: viridis' yellow
        assertThat(svg)
                .contains(
                        "row-label", "column-label", "GB/s (10⁹ B/s)", "not run or not measured", "failed or outlier");
    }

    /** 300 nodes, lpn150 slow with everyone: blocks of three, 100 × 100 cells, the slow node's row and column marked. */
    @Test
    void aLargeFleetsHeatMapIsDrawnByBlocksAndStillShowsTheSlowNode() throws Exception {
        List<String> nodes = new ArrayList<>();
        for (int i = 1; i <= 300; i++) {
            nodes.add("lpn" + i);
        }
        List<PairOutcome> outcomes = new ArrayList<>();
        for (String a : nodes) {
            for (String b : nodes) {
                if (!a.equals(b)) {
                    double bw = a.equals("lpn150") || b.equals("lpn150") ? 2 : 10;
                    outcomes.add(new PairOutcome(new Pair(a, b), WRITE, OutcomeKind.PASSED, bw, 5.0));
                }
            }
        }
        Blame blame =
                Blamer.blame(new Observations(nodes, Set.copyOf(nodes), outcomes), outcomes, BlameSettings.DEFAULTS);
        String svg = FleetHeatMap.svg(WRITE, outcomes, blame);
        List<Element> cells = cells(parse(svg));
        assertThat(cells).hasSize(100 * 100);
        // lpn150 is in block 49 (lpn148…lpn150): its row and column, 199 cells, hold its slow pairs.
        assertThat(cells)
                .filteredOn(c -> c.getAttribute("class").contains("bad"))
                .hasSize(199)
                .allSatisfy(c -> assertThat(title(c))
                        .contains("lpn148…lpn150")
                        .contains("slowest")
                        .contains("2.000 GB/s"));
        assertThat(svg).contains("300 nodes in blocks of 3").hasSizeLessThan(4_000_000);
    }

    @Test
    void theHeatMapEscapesNodeAndPointNames() throws Exception {
        List<String> odd = List.of("a<b", "c&d", "e\"f'g", "h\u0001i", "j]]>k");
        List<PairOutcome> o = outcomes(odd).stream()
                .map(x -> new PairOutcome(
                        x.pair(), new Point("p", "p <&> \"1\""), x.kind(), x.bandwidthGBps(), x.latencyUs()))
                .toList();
        Blame b = Blamer.blame(new Observations(odd, Set.copyOf(odd), o), o, BlameSettings.DEFAULTS);
        Document d = parse(FleetHeatMap.svg(new Point("p", "p <&> \"1\""), o, b));
        assertThat(cells(d)).hasSize(20);
        assertThat(cells(d)).extracting(FleetReportsTest::title).contains("a<b->c&d: 10.001 GB/s");
        assertThat(d.getDocumentElement().getTextContent())
                .contains("Bandwidth by pair: p <&> \"1\"", "e\"f'g", "h\uFFFDi");
    }

    private static final Pattern HELP = Pattern.compile("# HELP [a-zA-Z_:][a-zA-Z0-9_:]* [^\\n]*");
    private static final Pattern TYPE =
            Pattern.compile("# TYPE [a-zA-Z_:][a-zA-Z0-9_:]* (counter|gauge|histogram|summary|untyped)");
    private static final Pattern SAMPLE =
            Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*(?:\\{[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\\\n"
                    + "]|\\\\[\\\\\"n])*\"(?:,[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\\\n"
                    + "]|\\\\[\\\\\"n])*\")*\\})? [-+]?(?:[0-9]+(?:\\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|Inf|NaN)");
    private static final dev.linkproof.reports.prometheus.PointLabels LABELS =
            new dev.linkproof.reports.prometheus.PointLabels(
                    "WriteBandwidth.meetsProfile",
                    "write 1 MiB ×1 · 1 conn · tcp",
                    "write",
                    1 << 20,
                    "tcp",
                    "host->host",
                    "1");

    private static String exposition() {
        return FleetPrometheus.text(OUTCOMES, BLAME, p -> LABELS, RUN.finished());
    }

    @Test
    void prometheusLinesFollowTheTextFormatInBaseUnits() throws Exception {
        Path file = FleetPrometheus.write(
                dir.resolve("textfile/fleet.prom"),
                FleetPrometheus.snapshots(OUTCOMES, BLAME, p -> LABELS, RUN.finished()));
        String text = Files.readString(file);
        assertThat(text).endsWith("\n").isEqualTo(exposition());
        List<String> lines = text.lines().toList();
        assertThat(lines)
                .allSatisfy(l -> assertThat(HELP.matcher(l).matches()
                                || TYPE.matcher(l).matches()
                                || SAMPLE.matcher(l).matches())
                        .as(l)
                        .isTrue());
        // Each family announced once, before its samples.
        for (String family : List.of(
                FleetPrometheus.BANDWIDTH,
                FleetPrometheus.OPERATIONS,
                FleetPrometheus.LATENCY,
                FleetPrometheus.NODE_VERDICT,
                FleetPrometheus.LINK_VERDICT,
                FleetPrometheus.LAST_RUN)) {
            assertThat(lines)
                    .filteredOn(l -> l.startsWith("# HELP " + family + " "))
                    .hasSize(1);
            int help = lines.indexOf(lines.stream()
                    .filter(l -> l.startsWith("# HELP " + family + " "))
                    .findFirst()
                    .orElseThrow());
            assertThat(lines.get(help + 1)).isEqualTo("# TYPE " + family + " gauge");
        }
        // 5 × 4 directed pairs, one unreachable: 19 measured; GB/s is 10^9 bytes a second.
        assertThat(lines)
                .filteredOn(l -> l.startsWith(FleetPrometheus.BANDWIDTH + "{"))
                .hasSize(19);
        String point = "memory=\"host->host\",op=\"write\",point=\"write 1 MiB ×1 · 1 conn ·"
                + " tcp\",rails=\"1\",size_bytes=\"1048576\"";
        assertThat(lines)
                .contains(
                        FleetPrometheus.BANDWIDTH + "{dst=\"lpn3\"," + point
                                + ",src=\"lpn1\",test=\"WriteBandwidth.meetsProfile\",transport=\"tcp\"} 5.0E9",
                        FleetPrometheus.BANDWIDTH + "{dst=\"lpn1\"," + point
                                + ",src=\"lpn2\",test=\"WriteBandwidth.meetsProfile\",transport=\"tcp\"} 1.001E10",
                        FleetPrometheus.OPERATIONS + "{dst=\"lpn3\"," + point
                                + ",src=\"lpn1\",test=\"WriteBandwidth.meetsProfile\",transport=\"tcp\"} "
                                + 5e9 / (1 << 20),
                        // A bandwidth point's latency is its loop's average per transfer: 5 µs.
                        FleetPrometheus.LATENCY + "{dst=\"lpn3\"," + point
                                + ",src=\"lpn1\",statistic=\"average\",test=\"WriteBandwidth.meetsProfile\","
                                + "transport=\"tcp\"} 5.0E-6",
                        FleetPrometheus.LINK_VERDICT + "{node_a=\"lpn1\",node_b=\"lpn4\"} 1.0",
                        FleetPrometheus.LINK_VERDICT + "{node_a=\"lpn2\",node_b=\"lpn5\"} 1.0",
                        FleetPrometheus.LAST_RUN + " " + (RUN.finished().getEpochSecond() * 1.0));
        // Every node of the run, for every kind of verdict: 1 where given, 0 elsewhere (healthy nodes too).
        List<String> verdicts = lines.stream()
                .filter(l -> l.startsWith(FleetPrometheus.NODE_VERDICT + "{"))
                .toList();
        assertThat(verdicts).hasSize(6 * dev.linkproof.fleet.blame.VerdictKind.values().length);
        assertThat(verdicts)
                .filteredOn(l -> l.endsWith(" 1.0"))
                .containsExactlyInAnyOrder(
                        FleetPrometheus.NODE_VERDICT + "{kind=\"missing-node\",node=\"lpn6\"} 1.0",
                        FleetPrometheus.NODE_VERDICT + "{kind=\"bad-node\",node=\"lpn3\"} 1.0",
                        FleetPrometheus.NODE_VERDICT + "{kind=\"bad-link\",node=\"lpn1\"} 1.0",
                        FleetPrometheus.NODE_VERDICT + "{kind=\"bad-link\",node=\"lpn4\"} 1.0",
                        FleetPrometheus.NODE_VERDICT + "{kind=\"bad-link\",node=\"lpn2\"} 1.0",
                        FleetPrometheus.NODE_VERDICT + "{kind=\"bad-link\",node=\"lpn5\"} 1.0");
        assertThat(verdicts)
                .contains(
                        FleetPrometheus.NODE_VERDICT + "{kind=\"bad-node\",node=\"lpn1\"} 0.0",
                        FleetPrometheus.NODE_VERDICT + "{kind=\"fleet-degraded\",node=\"lpn5\"} 0.0");
        assertThat(text).doesNotContain("NaN").doesNotContain("gbps").doesNotContain("_us{");
        // No temporary file is left beside it.
        try (var files = Files.list(file.getParent())) {
            assertThat(files).extracting(f -> f.getFileName().toString()).containsExactly("fleet.prom");
        }
    }

    @Test
    void aLatencyPointsLatencyIsItsMedianAndSaysSo() {
        Point latency =
                new Point("read-8", "read 8 B ×1 · 1 conn · tcp · latency", dev.linkproof.fleet.blame.Measure.LATENCY);
        List<PairOutcome> o = List.of(new PairOutcome(new Pair("a", "b"), latency, OutcomeKind.PASSED, 0.001, 12.5));
        Blame b = Blamer.blame(new Observations(List.of("a", "b"), Set.of("a", "b"), o), o, BlameSettings.DEFAULTS);
        String text = FleetPrometheus.text(o, b, p -> null, RUN.finished());
        assertThat(text.lines())
                .anySatisfy(l -> assertThat(l)
                        .startsWith(FleetPrometheus.LATENCY + "{")
                        .contains("statistic=\"p50\"")
                        .contains("point=\"read 8 B ×1 · 1 conn · tcp · latency\"")
                        .endsWith(" 1.25E-5"));
    }

    @Test
    void prometheusLabelValuesAreEscaped() {
        Point odd = new Point("odd", "say \"hi\"\\\nthere");
        List<PairOutcome> o = List.of(new PairOutcome(new Pair("a", "b"), odd, OutcomeKind.PASSED, 1.5e-5, Double.NaN));
        Blame b = Blamer.blame(new Observations(List.of("a", "b"), Set.of("a", "b"), o), o, BlameSettings.DEFAULTS);
        String text = FleetPrometheus.text(o, b, p -> null, RUN.finished());
        assertThat(text.lines())
                .anySatisfy(l -> assertThat(l)
                        .startsWith(FleetPrometheus.BANDWIDTH + "{")
                        .contains("point=\"say \\\"hi\\\"\\\\\\nthere\"")
                        .endsWith(" 15000.0"));
        assertThat(text.lines())
                .allSatisfy(l -> assertThat(HELP.matcher(l).matches()
                                || TYPE.matcher(l).matches()
                                || SAMPLE.matcher(l).matches())
                        .as(l)
                        .isTrue());
    }
}
