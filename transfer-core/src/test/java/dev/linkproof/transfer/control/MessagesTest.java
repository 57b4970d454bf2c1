package dev.linkproof.transfer.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.linkproof.transfer.Layout;
import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.validate.CompletionCheck;
import dev.linkproof.transfer.validate.CompletionMismatch;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MessagesTest {

    private static final TransferSpec SPEC = TransferSpec.builder()
            .pointId("C#m[op=read,size=4097]")
            .op(Op.READ)
            .mode(Mode.LATENCY)
            .size(4097)
            .batch(3)
            .connections(2)
            .iterations(5)
            .warmup(1)
            .layout(Layout.STRIDED)
            .offset(7)
            .initiatorMemory(new MemoryPlacement(MemoryKind.GPU, 1))
            .settings(Map.of("UCX_TLS", "rc"))
            .build();

    private static Frame frame(MessageType type, String json) {
        return new Frame(type, json.getBytes(StandardCharsets.UTF_8));
    }

    private static String json(Object message) {
        return new String(Messages.encode(message), StandardCharsets.UTF_8);
    }

    @Test
    void specRoundTripsExactly() throws Exception {
        Messages.Prepare back = Messages.decode(
                new Frame(MessageType.PREPARE, Messages.encode(new Messages.Prepare(SPEC))), Messages.Prepare.class);
        assertThat(back.spec()).isEqualTo(SPEC);
        assertThat(json(SPEC)).contains("\"initiatorMemory\":\"gpu:1\"").contains("\"targetMemory\":\"host\"");
    }

    @Test
    void otherMessagesRoundTrip() throws Exception {
        Messages.Welcome w = new Messages.Welcome(
                "0.1.0",
                "h",
                42,
                "jdk",
                List.of(new Messages.TransportInfo("tcp", true, "ok")),
                new Messages.GpuInfo(true, "CUDA driver API 12.8 (libcuda.so.1), 2 device(s)", 2),
                10_000,
                "6f1c2d3e-0a1b-4c5d-8e9f-0123456789ab");
        assertThat(Messages.decode(new Frame(MessageType.WELCOME, Messages.encode(w)), Messages.Welcome.class))
                .isEqualTo(w);
        Messages.Checksums c = new Messages.Checksums("p", new long[] {1, -1, Long.MIN_VALUE});
        assertThat(Messages.decode(new Frame(MessageType.CHECKSUMS, Messages.encode(c)), Messages.Checksums.class)
                        .checksums())
                .containsExactly(1, -1, Long.MIN_VALUE);
        Messages.Checksums withCheck = new Messages.Checksums(
                "p",
                new long[] {7},
                new CompletionCheck(
                        48,
                        1,
                        new CompletionMismatch(3, 11, 1, 3, CompletionMismatch.IMMEDIATE, 0xdeadbeefL, 0xdeafbeefL)));
        Messages.Checksums back =
                Messages.decode(new Frame(MessageType.CHECKSUMS, Messages.encode(withCheck)), Messages.Checksums.class);
        assertThat(back.completions()).isEqualTo(withCheck.completions());
        assertThat(back.checksums()).containsExactly(7);
        assertThat(Messages.decode(new Frame(MessageType.CHECKSUMS, Messages.encode(c)), Messages.Checksums.class)
                        .completions())
                .isNull();
        Messages.Checksum request = new Messages.Checksum("p", 12);
        assertThat(Messages.decode(new Frame(MessageType.CHECKSUM, Messages.encode(request)), Messages.Checksum.class))
                .isEqualTo(request);
        Messages.Located l = new Messages.Located("p", 2, -1, 0, 0);
        assertThat(Messages.decode(new Frame(MessageType.LOCATED, Messages.encode(l)), Messages.Located.class))
                .isEqualTo(l);
    }

    @Test
    void malformedJsonIsANonFatalBadBody() {
        ProtocolException e = catchThrowableOfType(
                ProtocolException.class,
                () -> Messages.decode(frame(MessageType.PREPARE, "{\"spec\": {"), Messages.Prepare.class));
        assertThat(e.fatal()).isFalse();
        assertThat(e.code()).isEqualTo("bad-body");
        assertThat(e.getMessage()).startsWith("malformed PREPARE body: ").doesNotContain("\n");
    }

    @Test
    void aJsonNullBodyIsABadBodyNotANullMessage() {
        ProtocolException e = catchThrowableOfType(
                ProtocolException.class,
                () -> Messages.decode(frame(MessageType.RELEASE, "null"), Messages.Release.class));
        assertThat(e.code()).isEqualTo("bad-body");
        assertThat(e.fatal()).isFalse();
        assertThat(e.getMessage()).isEqualTo("malformed RELEASE body: null, expected a JSON object");
    }

    @Test
    void notJsonAtAllIsABadBody() {
        ProtocolException e = catchThrowableOfType(
                ProtocolException.class,
                () -> Messages.decode(frame(MessageType.PING, "GET / HTTP/1.1"), Messages.Ping.class));
        assertThat(e.code()).isEqualTo("bad-body");
        assertThat(e.fatal()).isFalse();
    }

    @Test
    void unknownPropertiesAndMissingPrimitivesAreRefused() {
        ProtocolException unknown = catchThrowableOfType(
                ProtocolException.class,
                () -> Messages.decode(frame(MessageType.PING, "{\"nonce\":1,\"extra\":2}"), Messages.Ping.class));
        assertThat(unknown.code()).isEqualTo("bad-body");
        assertThat(unknown.getMessage()).contains("extra");
        ProtocolException nullPrimitive = catchThrowableOfType(
                ProtocolException.class,
                () -> Messages.decode(frame(MessageType.PING, "{\"nonce\":null}"), Messages.Ping.class));
        assertThat(nullPrimitive.code()).isEqualTo("bad-body");
    }

    private static String specJsonWith(String field, Object value) {
        String original = json(new Messages.Prepare(SPEC.withIterations(5, 1)));
        String key = "\"" + field + "\":";
        int at = original.indexOf(key);
        assertThat(at).as("field %s in %s", field, original).isPositive();
        int end = at + key.length();
        int stop = end;
        if (original.charAt(end) == '"') {
            stop = original.indexOf('"', end + 1) + 1;
        } else {
            while (original.charAt(stop) != ',' && original.charAt(stop) != '}') {
                stop++;
            }
        }
        return original.substring(0, end) + value + original.substring(stop);
    }

    @Test
    void releasedCarriesTheTargetHostsLoadOrNothing() throws Exception {
        Messages.Released with = new Messages.Released("p", new Messages.HostLoad(1.25, 0.5, 2, 700_000_000L));
        assertThat(Messages.decode(frame(MessageType.RELEASED, json(with)), Messages.Released.class))
                .isEqualTo(with);
        assertThat(Messages.decode(frame(MessageType.RELEASED, "{\"pointId\":\"p\"}"), Messages.Released.class)
                        .host())
                .isNull();
    }

    @Test
    void aLoadWindowIsOneTenthOfASecondToTwoSeconds() throws Exception {
        assertThat(Messages.decode(frame(MessageType.LOAD, "{\"windowMillis\":250}"), Messages.Load.class)
                        .windowMillis())
                .isEqualTo(250);
        for (String w : new String[] {"99", "2001", "-1", "0"}) {
            ProtocolException e = catchThrowableOfType(
                    ProtocolException.class,
                    () -> Messages.decode(
                            frame(MessageType.LOAD, "{\"windowMillis\":" + w + "}"), Messages.Load.class));
            assertThat(e.getMessage()).isEqualTo("malformed LOAD body: windowMillis " + w + " is outside 100..2000");
        }
        assertThat(Messages.decode(frame(MessageType.LOADED, "{\"host\":null}"), Messages.Loaded.class)
                        .host())
                .isNull();
    }

    @Test
    void aHostLoadNoHostCouldHaveIsABadRequestNamingTheField() {
        String[][] cases = {
            {"{\"otherCpus\":1,\"ownCpus\":0,\"cpus\":0,\"wallNanos\":1}", "host.cpus 0 is outside 1..65536"},
            {"{\"otherCpus\":1,\"ownCpus\":0,\"cpus\":70000,\"wallNanos\":1}", "host.cpus 70000 is outside 1..65536"},
            {
                "{\"otherCpus\":-0.5,\"ownCpus\":0,\"cpus\":2,\"wallNanos\":1}",
                "host.otherCpus -0.5 and host.ownCpus 0.0 must each be within 0..3 for 2 CPUs"
            },
            {
                "{\"otherCpus\":0,\"ownCpus\":9,\"cpus\":2,\"wallNanos\":1}",
                "host.otherCpus 0.0 and host.ownCpus 9.0 must each be within 0..3 for 2 CPUs"
            },
            {
                "{\"otherCpus\":\"NaN\",\"ownCpus\":0,\"cpus\":2,\"wallNanos\":1}",
                "host.otherCpus NaN and host.ownCpus 0.0 must each be within 0..3 for 2 CPUs"
            },
            {"{\"otherCpus\":0,\"ownCpus\":0,\"cpus\":2,\"wallNanos\":0}", "host.wallNanos 0 must be positive"},
        };
        for (String[] c : cases) {
            ProtocolException e = catchThrowableOfType(
                    ProtocolException.class,
                    () -> Messages.decode(
                            frame(MessageType.RELEASED, "{\"pointId\":\"p\",\"host\":" + c[0] + "}"),
                            Messages.Released.class));
            assertThat(e).as(c[0]).isNotNull();
            assertThat(e.code()).isEqualTo("bad-request");
            assertThat(e.getMessage()).isEqualTo("malformed RELEASED body: " + c[1]);
        }
    }

    @Test
    void specWithOutOfRangeSizeIsABadRequestNamingTheField() {
        ProtocolException e = catchThrowableOfType(
                ProtocolException.class,
                () -> Messages.decode(frame(MessageType.PREPARE, specJsonWith("size", 0)), Messages.Prepare.class));
        assertThat(e.fatal()).isFalse();
        assertThat(e.code()).isEqualTo("bad-request");
        assertThat(e.getMessage()).isEqualTo("malformed PREPARE body: size 0 out of range 1..1073741824");
    }

    @Test
    void specRangeChecksAreAppliedOnDecode() {
        assertThat(catchThrowableOfType(
                                ProtocolException.class,
                                () -> Messages.decode(
                                        frame(MessageType.PREPARE, specJsonWith("size", 2147483648L)),
                                        Messages.Prepare.class))
                        .getMessage())
                .contains("size 2147483648 out of range");
        assertThat(catchThrowableOfType(
                                ProtocolException.class,
                                () -> Messages.decode(
                                        frame(MessageType.PREPARE, specJsonWith("batch", 0)), Messages.Prepare.class))
                        .getMessage())
                .contains("batch 0 out of range");
        assertThat(catchThrowableOfType(
                                ProtocolException.class,
                                () -> Messages.decode(
                                        frame(MessageType.PREPARE, specJsonWith("connections", 9999)),
                                        Messages.Prepare.class))
                        .getMessage())
                .contains("connections 9999 out of range");
        assertThat(catchThrowableOfType(
                                ProtocolException.class,
                                () -> Messages.decode(
                                        frame(MessageType.PREPARE, specJsonWith("offset", 4096)),
                                        Messages.Prepare.class))
                        .getMessage())
                .contains("offset 4096 out of range");
        assertThat(catchThrowableOfType(
                                ProtocolException.class,
                                () -> Messages.decode(
                                        frame(MessageType.PREPARE, specJsonWith("pointId", "\"\"")),
                                        Messages.Prepare.class))
                        .getMessage())
                .contains("pointId is required");
    }

    @Test
    void badMemoryPlacementIsABadRequest() {
        ProtocolException e = catchThrowableOfType(
                ProtocolException.class,
                () -> Messages.decode(
                        frame(MessageType.PREPARE, specJsonWith("targetMemory", "\"ram\"")), Messages.Prepare.class));
        assertThat(e.code()).isEqualTo("bad-request");
        assertThat(e.getMessage()).contains("unknown memory kind 'ram'");
    }

    @Test
    void unknownEnumValueIsABadBody() {
        ProtocolException e = catchThrowableOfType(
                ProtocolException.class,
                () -> Messages.decode(
                        frame(MessageType.PREPARE, specJsonWith("op", "\"TELEPORT\"")), Messages.Prepare.class));
        assertThat(e.code()).isEqualTo("bad-body");
        assertThat(e.getMessage()).contains("TELEPORT");
    }
}
