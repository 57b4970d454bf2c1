package dev.linkproof.conformance.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.linkproof.conformance.e2e.VerbsImmediateFaultTransport;
import dev.linkproof.conformance.verbs.fixtures.OneVerbsWrite;
import dev.linkproof.conformance.verbs.fixtures.OversizedMergedWrite;
import dev.linkproof.conformance.verbs.fixtures.VerbsCorruptedInTransit;
import dev.linkproof.conformance.verbs.fixtures.VerbsWrongImmediate;
import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.verbs.VerbsDevice;
import dev.linkproof.transfer.verbs.VerbsTransport;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 * the point naming slot and offset; one wrong WRITE_WITH_IMM immediate fails it naming slot and
 * both immediates; a device name libibverbs does not list says where the name came from. Skipped
 * with the reason where there is no RDMA device.
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
        assertThat(messages(events))
                .singleElement()
                .satisfies(m -> assertThat(m)
                        .contains("a merged work request of 16777216 bytes (16 MiB: 16 contiguous transfers of 1 MiB)")
                        .contains("exceeds max_msg_sz " + max)
                        .contains("nothing was posted")
                        .contains("verbs.chunkBytes=")
                        .contains("verbs.merge=false"));
    }

    @Test
    void flippedByteFailsThePointNamingSlotAndOffset() {
        var events = run(VerbsCorruptedInTransit.class);
        events.assertStatistics(s -> s.started(3).failed(3).succeeded(0));
        List<String> messages = messages(events);
        assertThat(messages)
                .hasSize(3)
                .allSatisfy(m -> assertThat(m)
                        .contains("data corruption")
                        .contains("1 of 3 slot(s) differ")
                        .contains("slot 2, byte offset 2048"));
        assertThat(messages).anySatisfy(m -> assertThat(m).startsWith("write 4097 B ×3"));
        assertThat(messages).anySatisfy(m -> assertThat(m).startsWith("read 4097 B ×3"));
        assertThat(messages).anySatisfy(m -> assertThat(m).startsWith("send 4097 B ×3"));
        events.failed().stream()
                .forEach(e -> dev.linkproof.conformance.e2e.Kinds.assertKind(
                        e.getRequiredPayload(org.junit.platform.engine.TestExecutionResult.class),
                        dev.linkproof.transfer.FailureKind.DATA_CORRUPTION));
    }

    /**
     * The target checks every WRITE_WITH_IMM immediate: one flipped bit in one immediate of the
     * verification pass (batch 11 = 1 warmup + 10 timed, 0-based) fails the point although the data
     * is intact, naming the slot, the work request and both values.
     */
    @Test
    void wrongImmediateFailsThePointNamingSlotAndBothValues() {
        var events = run(VerbsWrongImmediate.class);
        events.assertStatistics(s -> s.started(2).failed(2).succeeded(0));
        List<String> messages = messages(events);
        assertThat(messages).hasSize(2).allSatisfy(m -> {
            assertThat(m)
                    .contains("completion mismatch: 1 of 48 receive completion(s) wrong")
                    .contains("data valid: 4 slot(s)");
            Matcher imm = IMMEDIATE.matcher(m);
            assertThat(imm.find()).as("an immediate mismatch in: %s", m).isTrue();
            long expected = Long.parseLong(imm.group(1), 16);
            long found = Long.parseLong(imm.group(2), 16);
            assertThat(expected ^ found).isEqualTo(1L << VerbsImmediateFaultTransport.FLIPPED_BIT);
        });
        assertThat(messages)
                .anySatisfy(m -> assertThat(m)
                        .startsWith("write-with-imm 4097 B ×4 · 1 QP")
                        .contains("slot 3 (batch 11, QP 0, work request 3): immediate expected 0x"));
        assertThat(messages)
                .anySatisfy(m -> assertThat(m)
                        .startsWith("write-with-imm 4097 B ×4 · 2 QP")
                        .contains("slot 3 (batch 11, QP 1, work request 3): immediate expected 0x"));
        events.failed().stream()
                .forEach(e -> dev.linkproof.conformance.e2e.Kinds.assertKind(
                        e.getRequiredPayload(org.junit.platform.engine.TestExecutionResult.class),
                        dev.linkproof.transfer.FailureKind.COMPLETION_MISMATCH));
    }

    /** A device that libibverbs does not list fails the point saying where its name came from. */
    @Test
    void aMistypedDeviceNameSaysWhereTheNameCameFrom() {
        var events = run(OneVerbsWrite.class, Map.of("linkproof.verbs.device", "nosuch0"));
        events.assertStatistics(s -> s.started(1).failed(1));
        assertThat(messages(events))
                .singleElement()
                .satisfies(m -> assertThat(m)
                        .contains("no RDMA device 'nosuch0' (libibverbs lists: ["
                                + VerbsDevice.deviceNames().getFirst())
                        .contains("named by the point's verbs.device setting (the engine fills it from"
                                + " linkproof.verbs.device"));
    }

    /**
     * Registration past the locked-memory limit: ibv_reg_mr of 1 MiB under a 64 KiB RLIMIT_MEMLOCK,
     * without CAP_IPC_LOCK, fails naming the limit, its value and how to raise it (it said only
     * "locked-memory limit? raise it: ulimit -l unlimited").
     */
    @Test
    void registrationPastTheLockedMemoryLimitNamesItAndHowToRaiseIt() throws Exception {
        String device = VerbsDevice.deviceNames().getFirst();
        String message = LockedMemoryLimit.under(64 << 10, () -> {
            try (VerbsDevice d = VerbsDevice.open(device);
                    VerbsDevice.ProtectionDomain pd = d.allocPd();
                    java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
                var memory = arena.allocate(1 << 20, 4096);
                try (var mr = pd.register(memory, (int) dev.linkproof.transfer.verbs.VerbsAbi.ACCESS_LOCAL_WRITE)) {
                    return "registered: " + mr.length();
                } catch (dev.linkproof.transfer.TransferException e) {
                    return e.getMessage();
                }
            }
        });
        assertThat(message)
                .startsWith("ibv_reg_mr of 1048576 bytes failed: ")
                .contains("the locked-memory limit (RLIMIT_MEMLOCK, ulimit -l) of this process is 64 KiB, and"
                        + " registering 1 MiB")
                .contains("ulimit -l unlimited")
                .contains("docker run --ulimit memlock=-1");
    }

    private static final Pattern IMMEDIATE =
            Pattern.compile("immediate expected 0x([0-9a-f]{8}), found 0x([0-9a-f]{8})");

    /** EngineTestKit does not read system properties: hand on the run's linkproof.* keys (timeouts, agent JVM options). */
    private static org.junit.platform.testkit.engine.Events run(Class<?> fixture) {
        return run(fixture, Map.of());
    }

    private static org.junit.platform.testkit.engine.Events run(Class<?> fixture, Map<String, String> config) {
        var kit = EngineTestKit.engine("linkproof").selectors(selectClass(fixture));
        for (String key : System.getProperties().stringPropertyNames()) {
            if (key.startsWith("linkproof.")) {
                kit = kit.configurationParameter(key, System.getProperty(key));
            }
        }
        return kit.configurationParameters(config).execute().testEvents();
    }

    private static List<String> messages(org.junit.platform.testkit.engine.Events events) {
        return events.filter(e -> e.getType() == EventType.FINISHED)
                .map(VerbsFailureModes::message)
                .toList();
    }

    private static String message(Event e) {
        TestExecutionResult r = e.getRequiredPayload(TestExecutionResult.class);
        return r.getThrowable().map(Throwable::getMessage).orElse("");
    }
}
