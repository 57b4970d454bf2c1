package dev.linkproof.reports;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.reports.chart.BandwidthChart;
import dev.linkproof.reports.results.PointRecord;
import dev.linkproof.reports.results.ResultsFile;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.LatencyStats;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.measure.Timing;
import dev.linkproof.transfer.validate.Validation;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/**
 * Every point's message rate in its record, and the message-rate chart of a sweep of small
 * messages, read back by parsing the SVG.
 */
class MessageRateTest {
    @TempDir
    Path dir;

    /** {@code op} of {@code size} bytes × batch 4 at {@code opsPerSecond}: 100 iterations, 400 transfers. */
    private static Measurement point(Op op, long size, double opsPerSecond) {
        TransferSpec s = TransferSpec.builder()
                .pointId(op.label() + size)
                .op(op)
                .size(size)
                .batch(4)
                .iterations(100)
                .warmup(1)
                .build();
        long nanos = Math.round(400 / opsPerSecond * 1e9);
        return Measurement.of(
                s,
                new Timing(nanos, 100, LatencyStats.averageOnly(nanos / 400.0)),
                new Validation(4, 4 * size, 0, Optional.empty()),
                Map.of());
    }

    private static PointRecord record(Measurement m, String status) {
        return PointRecord.of(
                m.spec().pointId(),
                "sweep",
                "C",
                "m",
                m.spec().op().label() + " " + m.spec().size(),
                m.spec(),
                m,
                status,
                null,
                List.of(),
                1.0,
                5.0);
    }

    @Test
    void everyMeasuredPointsRecordCarriesItsRateAndTheFileKeepsIt() throws Exception {
        PointRecord write = record(point(Op.WRITE, 64, 2.5e6), "passed");
        assertThat(write.opsPerSecond()).isCloseTo(2.5e6, org.assertj.core.data.Percentage.withPercentage(0.01));
        assertThat(write.bandwidthGBps())
                .isCloseTo(2.5e6 * 64 / 1e9, org.assertj.core.data.Percentage.withPercentage(0.01));
        assertThat(record(point(Op.FETCH_ADD, 8, 3e6), "passed").opsPerSecond())
                .isCloseTo(3e6, org.assertj.core.data.Percentage.withPercentage(0.01));
        TransferSpec unmeasured = TransferSpec.builder().pointId("u").size(64).build();
        assertThat(PointRecord.of(
                                "u",
                                "sweep",
                                "C",
                                "m",
                                "u",
                                unmeasured,
                                null,
                                "broken",
                                "no peer",
                                List.of(),
                                null,
                                null)
                        .opsPerSecond())
                .isNull();

        Path f = dir.resolve("results.jsonl");
        try (ResultsFile out = ResultsFile.create(f)) {
            out.append(write);
        }
        assertThat(java.nio.file.Files.readString(f)).contains("\"opsPerSecond\":");
        assertThat(ResultsFile.read(f).getFirst().opsPerSecond())
                .isCloseTo(2.5e6, org.assertj.core.data.Percentage.withPercentage(0.01));
    }

    @Test
    void aSweepOfSmallMessagesGetsARateChartWhoseDotsAreItsRates() throws Exception {
        List<PointRecord> small = List.of(
                record(point(Op.WRITE, 8, 2e6), "passed"),
                record(point(Op.WRITE, 64, 4e6), "passed"),
                record(point(Op.WRITE, 4096, 8e6), "passed"));
        assertThat(BandwidthChart.wantsRateChart(small)).isTrue();
        Document svg = parse(BandwidthChart.rateSvg("small", small));

        assertThat(texts(svg)).contains("message rate (Mops/s, 10⁶ ops/s)", "message size (log₂)", "8B", "64B", "4KiB");
        assertThat(texts(svg)).noneMatch(t -> t.contains("GB/s"));
        assertThat(elements(svg, "line"))
                .noneMatch(l -> l.getAttribute("class").equals("criterion")
                        || l.getAttribute("class").equals("link-rate"));
        // y: 0-10 Mops/s (8 × 1.1 rounded up) over 320 px below a top of 40
        List<Element> dots = elements(svg, "circle").stream()
                .filter(c -> c.getAttribute("class").equals("point"))
                .toList();
        assertThat(dots).extracting(c -> c.getAttribute("cy")).containsExactly("296.0", "232.0", "104.0");
        assertThat(dots)
                .extracting(c -> c.getTextContent())
                .containsExactly(
                        "write 8: 2.0 Mops/s (passed)",
                        "write 64: 4.0 Mops/s (passed)",
                        "write 4096: 8.0 Mops/s (passed)");

        // the bandwidth chart of the same sweep stays in GB/s, its criterion and link drawn
        Document bw = parse(BandwidthChart.svg("small", small));
        assertThat(texts(bw)).contains("bandwidth (GB/s, 10⁹ B/s)");
        assertThat(elements(bw, "line")).anyMatch(l -> l.getAttribute("class").equals("criterion"));
    }

    @Test
    void aSweepThatReachesLargeMessagesOrOfAtomicsGetsNoSecondChart() throws Exception {
        assertThat(BandwidthChart.wantsRateChart(List.of(
                        record(point(Op.WRITE, 4096, 8e6), "passed"), record(point(Op.WRITE, 8192, 4e6), "passed"))))
                .as("8 KiB is past the small sizes")
                .isFalse();
        List<PointRecord> atomics = List.of(record(point(Op.FETCH_ADD, 8, 3e6), "passed"));
        assertThat(BandwidthChart.wantsRateChart(atomics))
                .as("an atomic sweep's one chart is its rate")
                .isFalse();
        assertThat(texts(parse(BandwidthChart.svg("atomics", atomics)))).contains("message rate (Mops/s, 10⁶ ops/s)");
        TransferSpec unmeasured = TransferSpec.builder().pointId("u").size(64).build();
        assertThat(BandwidthChart.wantsRateChart(List.of(PointRecord.of(
                        "u", "sweep", "C", "m", "u", unmeasured, null, "broken", "no peer", List.of(), null, null))))
                .as("nothing measured, nothing to draw")
                .isFalse();
    }

    /** A rate chart of rails draws each rail's own rate (its bytes over its size and window), not its GB/s. */
    @Test
    void aRateChartOfRailsDrawsEachRailsRate() throws Exception {
        PointRecord rails = record(TwoRails.measurement("small"), "passed");
        Document svg = parse(BandwidthChart.rateSvg("rails", List.of(rails)));
        // rail 1 (rxe9): 0.5 GB of 4 KiB transfers in 100 ms is 1.22 Mops/s
        assertThat(elements(svg, "circle").stream()
                        .filter(c -> c.getAttribute("class").equals("rail-point"))
                        .map(Element::getTextContent))
                .anyMatch(t -> t.startsWith("write 4096: rail 1 (rxe9) 1.2 Mops/s,"));
    }

    private static Document parse(String svg) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new InputSource(new StringReader(svg)));
    }

    private static List<Element> elements(Document d, String tag) {
        NodeList n = d.getElementsByTagName(tag);
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < n.getLength(); i++) {
            out.add((Element) n.item(i));
        }
        return out;
    }

    private static List<String> texts(Document d) {
        return elements(d, "text").stream().map(Element::getTextContent).toList();
    }
}
