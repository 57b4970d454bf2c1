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
            public void write(TestResultContainer container) {
            }

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
        AllureLifecycle l = Allure.getLifecycle();
        String uuid = UUID.randomUUID().toString();
        l.scheduleTestCase(new TestResult().setUuid(uuid).setName(spec.pointId()));
        l.startTestCase(uuid);
        AllureBridge.pointStarted(spec, "loopback", "m");
        long bytes = ran.bytesPerIteration() * 10;
        AllureBridge.pointMeasured(new Measurement(ran, bytes, bytes, 1.0, LatencyStats.averageOnly(100),
                new Validation(ran.batch(), ran.bytesPerIteration(), 0, Optional.empty()), Map.of(), phases),
                List.of("PASS data valid"));
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
        String source = r.getAttachments().stream().filter(a -> a.getName().equals("measurement.json")).findFirst()
                .orElseThrow().getSource();
        return JSON.readTree(attachments.get(source));
    }

    private static TransferSpec.Builder spec(String id) {
        return TransferSpec.builder().pointId(id).size(4096).batch(4).iterations(10).warmup(1);
    }

    /** A strided layout is part of the point's unique id, so it is one of its parameters, as its name says " · strided". */
    @Test
    void aStridedPointHasALayoutParameterAndAContiguousOneNone() throws IOException {
        TestResult strided = point(spec("strided").layout(Layout.STRIDED).build());
        assertThat(parameters(strided)).containsEntry("layout", "strided").containsEntry("batch", "4");
        assertThat(measurementJson(strided).get("params").get("layout").asText()).isEqualTo("strided");

        TestResult contiguous = point(spec("contiguous").build());
        assertThat(parameters(contiguous)).doesNotContainKey("layout").containsEntry("batch", "4");
        assertThat(measurementJson(contiguous).get("params").get("layout").asText()).isEqualTo("contiguous");
    }

    /** The memory parameter says where the point ran: its gpu:k is the profile's k-th GPU (here GPUs 2 and 3). */
    @Test
    void theMemoryParameterNamesTheGpusThePointRanOn() {
        TransferSpec own = spec("gpu").initiatorMemory(dev.linkproof.transfer.MemoryPlacement.parse("gpu"))
                .targetMemory(dev.linkproof.transfer.MemoryPlacement.parse("gpu:1")).build();
        TransferSpec ran = own.withMemory(dev.linkproof.transfer.MemoryPlacement.parse("gpu:2"),
                dev.linkproof.transfer.MemoryPlacement.parse("gpu:3"));
        assertThat(parameters(point(own, ran))).containsEntry("memory", "gpu:2 → gpu:3");
        assertThat(parameters(point(own))).containsEntry("memory", "gpu → gpu:1");
    }

    /** The offset, the other dimension of the unique id that only some points have, reaches measurement.json too. */
    @Test
    void measurementJsonCarriesTheOffset() throws IOException {
        TestResult r = point(spec("offset").offset(64).build());
        assertThat(parameters(r)).containsEntry("offset", "64 B");
        assertThat(measurementJson(r).get("params").get("offset").asLong()).isEqualTo(64);
        assertThat(measurementJson(point(spec("aligned").build())).get("params").get("offset").asLong()).isZero();
    }

    /**
     * measurement.json carries each phase's duration to the nanosecond (the steps round theirs to
     * 1 ms): what bench/engine-overhead.sh reads a point's transfer time from.
     */
    @Test
    void measurementJsonCarriesThePhasesToTheNanosecond() throws IOException {
        TestResult r = point(spec("phases").build(), List.of(new Phases.Phase("provision", 1_000L, 1_234_567L),
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
}
