package dev.linkproof.reports.allure;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.linkproof.transfer.Layout;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.LatencyStats;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.measure.Phases;
import dev.linkproof.transfer.validate.Validation;
import io.qameta.allure.Allure;
import io.qameta.allure.AllureLifecycle;
import io.qameta.allure.AllureResultsWriter;
import io.qameta.allure.model.Parameter;
import io.qameta.allure.model.TestResult;
import io.qameta.allure.model.TestResultContainer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What the bridge adds to a running Allure test case, written to memory instead of a results folder. */
class AllureBridgeTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<TestResult> results = new ArrayList<>();
    private final Map<String, byte[]> attachments = new LinkedHashMap<>();
    private AllureLifecycle before;

    @BeforeEach
    void inMemory() {
        before = Allure.getLifecycle();
        Allure.setLifecycle(new AllureLifecycle(new AllureResultsWriter() {
            @Override
            public void write(TestResult result) {
                results.add(result);
            }

            @Override
            public void write(TestResultContainer container) {}

            @Override
            public void write(String source, InputStream in) {
                try (in) {
                    attachments.put(source, in.readAllBytes());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }));
    }

    @AfterEach
    void restore() {
        Allure.setLifecycle(before);
    }

    /** Runs one point through the bridge as the engine does; its test result. */
    private TestResult point(TransferSpec spec) {
        return point(spec, spec);
    }

    /** The same, for a point that measured {@code phases}. */
    private TestResult point(TransferSpec spec, List<Phases.Phase> phases) {
        return point(spec, spec, phases);
    }

    private TestResult point(TransferSpec spec, TransferSpec ran) {
        return point(spec, ran, List.of());
    }

    /** The same, for a point whose spec as it ran ({@code ran}: the profile's GPUs, sized iterations) differs from its own. */
    private TestResult point(TransferSpec spec, TransferSpec ran, List<Phases.Phase> phases) {
        long bytes = ran.bytesPerIteration() * 10;
        return point(
                spec,
                new Measurement(
                        ran,
                        bytes,
                        bytes,
                        1.0,
                        LatencyStats.averageOnly(100),
                        new Validation(ran.batch(), ran.bytesPerIteration(), 0, Optional.empty()),
                        Map.of(),
                        phases));
    }

    /** The same, for a point that measured {@code m}. */
    private TestResult point(TransferSpec spec, Measurement m) {
        AllureLifecycle l = Allure.getLifecycle();
        String uuid = UUID.randomUUID().toString();
        l.scheduleTestCase(new TestResult().setUuid(uuid).setName(spec.pointId()));
        l.startTestCase(uuid);
        AllureBridge.pointStarted(spec, "loopback", "m");
        AllureBridge.pointMeasured(m, List.of("PASS data valid"));
        l.stopTestCase(uuid);
        l.writeTestCase(uuid);
        AllureBridge.awaitWrites(); // the attachment files are written off the point's thread
        return results.getLast();
    }

    private static Map<String, String> parameters(TestResult r) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Parameter p : r.getParameters()) {
            out.put(p.getName(), p.getValue());
        }
        return out;
    }

    private JsonNode measurementJson(TestResult r) throws IOException {
        return attachment(r, "measurement.json");
    }

    private JsonNode attachment(TestResult r, String name) throws IOException {
        String source = r.getAttachments().stream()
                .filter(a -> a.getName().equals(name))
                .findFirst()
                .orElseThrow()
                .getSource();
        return JSON.readTree(attachments.get(source));
    }

    private static TransferSpec.Builder spec(String id) {
        return TransferSpec.builder()
                .pointId(id)
                .size(4096)
                .batch(4)
                .iterations(10)
                .warmup(1);
    }

    /** A strided layout is part of the point's unique id, so it is one of its parameters, as its name says " · strided". */
    @Test
    void aStridedPointHasALayoutParameterAndAContiguousOneNone() throws IOException {
        TestResult strided = point(spec("strided").layout(Layout.STRIDED).build());
        assertThat(parameters(strided)).containsEntry("layout", "strided").containsEntry("batch", "4");
        assertThat(measurementJson(strided).get("params").get("layout").asText())
                .isEqualTo("strided");

        TestResult contiguous = point(spec("contiguous").build());
        assertThat(parameters(contiguous)).doesNotContainKey("layout").containsEntry("batch", "4");
        assertThat(measurementJson(contiguous).get("params").get("layout").asText())
                .isEqualTo("contiguous");
    }

    /** The memory parameter says where the point ran: its gpu:k is the profile's k-th GPU (here GPUs 2 and 3). */
    @Test
    void theMemoryParameterNamesTheGpusThePointRanOn() {
        TransferSpec own = spec("gpu")
                .initiatorMemory(dev.linkproof.transfer.MemoryPlacement.parse("gpu"))
                .targetMemory(dev.linkproof.transfer.MemoryPlacement.parse("gpu:1"))
                .build();
        TransferSpec ran = own.withMemory(
                dev.linkproof.transfer.MemoryPlacement.parse("gpu:2"),
                dev.linkproof.transfer.MemoryPlacement.parse("gpu:3"));
        assertThat(parameters(point(own, ran))).containsEntry("memory", "gpu:2 → gpu:3");
        assertThat(parameters(point(own))).containsEntry("memory", "gpu → gpu:1");
    }

    /** The offset, the other dimension of the unique id that only some points have, reaches measurement.json too. */
    @Test
    void measurementJsonCarriesTheOffset() throws IOException {
        TestResult r = point(spec("offset").offset(64).build());
        assertThat(parameters(r)).containsEntry("offset", "64 B");
        assertThat(parameters(r))
                .as("every point, not only atomics, gives its message rate")
                .containsKey("ops/s");
        assertThat(measurementJson(r).get("params").get("offset").asLong()).isEqualTo(64);
        assertThat(measurementJson(point(spec("aligned").build()))
                        .get("params")
                        .get("offset")
                        .asLong())
                .isZero();
    }

    /**
     * measurement.json carries each phase's duration to the nanosecond (the steps round theirs to
     * 1 ms): what bench/engine-overhead.sh reads a point's transfer time from.
     */
    @Test
    void measurementJsonCarriesThePhasesToTheNanosecond() throws IOException {
        TestResult r = point(
                spec("phases").build(),
                List.of(
                        new Phases.Phase("provision", 1_000L, 1_234_567L),
                        new Phases.Phase("timed loop", 1_002L, 89L)));
        JsonNode phases = measurementJson(r).get("phases");
        assertThat(phases).hasSize(2);
        assertThat(phases.get(0).get("name").asText()).isEqualTo("provision");
        assertThat(phases.get(0).get("start").asLong()).isEqualTo(1_000L);
        assertThat(phases.get(0).get("nanos").asLong()).isEqualTo(1_234_567L);
        assertThat(phases.get(1).get("name").asText()).isEqualTo("timed loop");
        assertThat(phases.get(1).get("nanos").asLong()).isEqualTo(89L);
        assertThat(r.getSteps()).extracting(s -> s.getName()).startsWith("provision (1.2 ms)", "timed loop (0.0 ms)");
    }

    /**
     * A point of rails: how many and the slowest as parameters, each rail in measurement.json with
     * its window, and an attachment per rail with that rail's own measurement in the same shape.
     */
    @Test
    void aPointOfRailsShowsItsRailsTheSlowestAndAnAttachmentPerRail() throws IOException {
        Measurement two = dev.linkproof.reports.TwoRails.measurement("rails");
        TestResult r = point(two.spec(), two);
        assertThat(parameters(r))
                .containsEntry("rails", "2")
                .containsEntry("slowest rail", "rail 1 (rxe9) 5.00 GB/s")
                .containsEntry("bandwidth", "14.7 GB/s")
                // the aggregate's message rate: 1.5 GB of 4 KiB transfers over 102 ms
                .containsEntry("ops/s", "3.59 Mops/s");
        assertThat(r.getAttachments())
                .extracting(a -> a.getName())
                .containsExactly("measurement.json", "verdicts.txt", "rail 0 (rxe0).json", "rail 1 (rxe9).json");

        JsonNode rails = measurementJson(r).get("rails");
        assertThat(rails).hasSize(2);
        assertThat(rails.get(1).get("label").asText()).isEqualTo("rxe9");
        assertThat(rails.get(1).get("bandwidthGBps").asDouble()).isEqualTo(5.0);
        assertThat(rails.get(1).get("startMs").asDouble()).isEqualTo(2.0);
        assertThat(rails.get(1).get("durationMs").asDouble()).isEqualTo(100.0);
        assertThat(rails.get(0).get("startMs").asDouble()).isEqualTo(0.0);
        assertThat(measurementJson(r).get("primaryMetric").get("score").asDouble())
                .isCloseTo(1.5e9 / 102e6, org.assertj.core.data.Offset.offset(1e-9));

        JsonNode rail1 = attachment(r, "rail 1 (rxe9).json");
        assertThat(rail1.get("rail").get("index").asInt()).isEqualTo(1);
        assertThat(rail1.get("rail").get("label").asText()).isEqualTo("rxe9");
        assertThat(rail1.get("rail").get("startMs").asDouble()).isEqualTo(2.0);
        assertThat(rail1.get("primaryMetric").get("score").asDouble()).isEqualTo(5.0);
        assertThat(rail1.get("secondaryMetrics").get("latency").get("score").asDouble())
                .isEqualTo(100.0);
        assertThat(rail1.get("bytes").asLong()).isEqualTo(500_000_000L);
        assertThat(rail1.get("validation").asText()).isEqualTo("data valid: 1 slot(s), 4096 bytes, checksums match");
        assertThat(rail1.get("params").get("transport").asText()).isEqualTo("verbs");
        assertThat(rail1.has("rails")).as("a rail is one pair").isFalse();
        assertThat(attachment(r, "rail 0 (rxe0).json")
                        .get("primaryMetric")
                        .get("score")
                        .asDouble())
                .isEqualTo(10.0);

        TestResult one = point(spec("one").build());
        assertThat(parameters(one)).doesNotContainKeys("rails", "slowest rail");
        assertThat(one.getAttachments())
                .extracting(a -> a.getName())
                .containsExactly("measurement.json", "verdicts.txt");
        assertThat(measurementJson(one).has("rails")).isFalse();
    }
}
