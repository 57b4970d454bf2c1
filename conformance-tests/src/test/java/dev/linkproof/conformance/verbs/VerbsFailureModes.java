package dev.linkproof.conformance.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.linkproof.conformance.verbs.fixtures.OversizedMergedWrite;
import dev.linkproof.conformance.verbs.fixtures.VerbsCorruptedInTransit;
import dev.linkproof.transfer.spi.Availability;
import dev.linkproof.transfer.verbs.VerbsDevice;
import dev.linkproof.transfer.verbs.VerbsTransport;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.EventType;

/**
 * The verbs checks can fail: a merged work request over the port's max_msg_sz fails before
 * posting with the sizes and the ways out; one byte flipped in transit over real queue pairs fails
 * the point naming slot and offset. Skipped with the reason where there is no RDMA device.
 */
@Tag("rdma")
class VerbsFailureModes {
    @BeforeEach
    void needsAnRdmaDevice() {
        Availability a = new VerbsTransport().availability();
        assumeTrue(a.available(), "verbs unavailable: " + a.reason());
    }

    @Test
    void mergedWorkRequestOverMaxMsgSizeFailsBeforePosting() throws Exception {
        String device = VerbsDevice.deviceNames().getFirst();
        long max;
        try (VerbsDevice d = VerbsDevice.open(device)) {
            max = d.queryPort(1).maxMessageSize();
        }
        assumeTrue(max < (16L << 20), device + "'s max_msg_sz is " + max + ": a 16 MiB merged write fits");
        var events = run(OversizedMergedWrite.class);
        events.assertStatistics(s -> s.started(1).failed(1));
        assertThat(messages(events)).singleElement().satisfies(m -> assertThat(m)
                .contains("a merged work request of 16777216 bytes (16 MiB: 16 contiguous transfers of 1 MiB)")
                .contains("exceeds max_msg_sz " + max)
                .contains("nothing was posted")
                .contains("verbs.chunkBytes=").contains("verbs.merge=false"));
    }

    @Test
    void flippedByteFailsThePointNamingSlotAndOffset() {
        var events = run(VerbsCorruptedInTransit.class);
        events.assertStatistics(s -> s.started(3).failed(3).succeeded(0));
        List<String> messages = messages(events);
        assertThat(messages).hasSize(3).allSatisfy(m -> assertThat(m)
                .contains("data corruption").contains("1 of 3 slot(s) differ").contains("slot 2, byte offset 2048"));
        assertThat(messages).anySatisfy(m -> assertThat(m).startsWith("write 4097 B ×3"));
        assertThat(messages).anySatisfy(m -> assertThat(m).startsWith("read 4097 B ×3"));
        assertThat(messages).anySatisfy(m -> assertThat(m).startsWith("send 4097 B ×3"));
    }

    /** EngineTestKit does not read system properties: hand on the run's linkproof.* keys (timeouts, agent JVM options). */
    private static org.junit.platform.testkit.engine.Events run(Class<?> fixture) {
        var kit = EngineTestKit.engine("linkproof").selectors(selectClass(fixture));
        for (String key : System.getProperties().stringPropertyNames()) {
            if (key.startsWith("linkproof.")) {
                kit = kit.configurationParameter(key, System.getProperty(key));
            }
        }
        return kit.execute().testEvents();
    }

    private static List<String> messages(org.junit.platform.testkit.engine.Events events) {
        return events.filter(e -> e.getType() == EventType.FINISHED).map(VerbsFailureModes::message).toList();
    }

    private static String message(Event e) {
        TestExecutionResult r = e.getRequiredPayload(TestExecutionResult.class);
        return r.getThrowable().map(Throwable::getMessage).orElse("");
    }
}
