package dev.linkproof.transfer.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ContainerNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.control.Frame;
import dev.linkproof.transfer.control.MessageType;
import dev.linkproof.transfer.control.Messages;
import dev.linkproof.transfer.session.Session;
import dev.linkproof.transfer.session.Timeouts;
import dev.linkproof.transfer.spi.IoSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Malformed control messages, generated: every authenticated request type with one field of a valid
 * body replaced by a hostile value (null, a wrong type, zero, negative, huge, a long string), a field
 * removed or added, or the whole body truncated or replaced. Whatever comes, the agent answers within
 * the deadline — the request's normal reply or an ERROR with a code and a message — keeps the
 * connection, and afterwards still runs a validated point. Seeded, so a failure replays.
 */
@Timeout(120)
class ControlFuzzTest {
    private static final String TOKEN = "0123456789abcdef-fuzz-token";
    private static final Timeouts TIMEOUTS = new Timeouts(Duration.ofSeconds(10), Duration.ofSeconds(10),
            new IoSettings(Duration.ofSeconds(5), Duration.ofSeconds(5)));
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final long SEED = 20261204L;
    private static final int CASES = 600;
    private static AgentServer agent;

    @BeforeAll
    static void startAgent() throws Exception {
        agent = AgentServer.start("127.0.0.1", 0, TOKEN, IoSettings.DEFAULT);
    }

    @AfterAll
    static void stopAgent() {
        agent.close();
    }

    private record Request(MessageType type, MessageType reply, byte[] body) { }

    /** One valid body per authenticated request type, for the point the session has prepared. */
    private static List<Request> templates(String pointId, TransferSpec spec) {
        return List.of(
                new Request(MessageType.PREPARE, MessageType.PREPARED, Messages.encode(new Messages.Prepare(spec))),
                new Request(MessageType.CONNECT, MessageType.CONNECTED, Messages.encode(new Messages.Connect(pointId, Map.of()))),
                new Request(MessageType.FILL, MessageType.CHECKSUMS, Messages.encode(new Messages.Fill(pointId, 1))),
                new Request(MessageType.CHECKSUM, MessageType.CHECKSUMS, Messages.encode(new Messages.Checksum(pointId, 0))),
                new Request(MessageType.LOCATE, MessageType.LOCATED, Messages.encode(new Messages.Locate(pointId, 0, 1, 1))),
                new Request(MessageType.RELEASE, MessageType.RELEASED, Messages.encode(new Messages.Release(pointId + "-other"))),
                new Request(MessageType.PING, MessageType.PONG, Messages.encode(new Messages.Ping(7))));
    }

    @Test
    void everyMalformedRequestIsAnsweredAndTheAgentKeepsServing() throws Exception {
        Random random = new Random(SEED);
        TransferSpec spec = TransferSpec.builder().pointId("fuzz#base").op(Op.WRITE).size(4096).batch(2)
                .iterations(3).warmup(1).build();
        List<String> answered = new ArrayList<>();
        try (Session session = Session.open("127.0.0.1", agent.port(), TOKEN, TIMEOUTS)) {
            // A prepared point, so requests naming it reach the handlers behind the point lookup.
            session.control().call(MessageType.PREPARE, new Messages.Prepare(spec), MessageType.PREPARED,
                    Messages.Prepared.class, Duration.ofSeconds(10));
            List<Request> templates = templates(spec.pointId(), spec);
            for (int i = 0; i < CASES; i++) {
                Request t = templates.get(random.nextInt(templates.size()));
                String mutation;
                byte[] body;
                if (random.nextInt(8) == 0) {
                    body = wholeBody(t.body(), random);
                    mutation = "whole body -> " + preview(body);
                } else {
                    JsonNode tree = JSON.readTree(t.body());
                    mutation = mutate(tree, random);
                    body = JSON.writeValueAsBytes(tree);
                }
                String what = "case " + i + " (seed " + SEED + "): " + t.type() + " with " + mutation;
                session.control().writeRaw(RawFrames.frame(t.type(), body));
                Frame reply = session.control().readRaw(Duration.ofSeconds(15));
                assertThat(reply).as(what + ": the agent closed the connection instead of answering").isNotNull();
                if (reply.type() == MessageType.ERROR) {
                    Messages.Error e = Messages.decode(reply, Messages.Error.class);
                    assertThat(e.code()).as(what).isNotBlank();
                    assertThat(e.message()).as(what).isNotBlank()
                            // the cause in words, not a JVM exception's text leaking through
                            .doesNotContain("Cannot invoke", "NullPointerException", "is null");
                    answered.add(e.code());
                } else {
                    assertThat(reply.type()).as(what).isEqualTo(t.reply());
                    answered.add("ok");
                    if (t.type() == MessageType.PREPARE) {
                        // A mutated spec that is still valid holds a slot: give it back so the next cases have room.
                        Messages.Prepared p = Messages.decode(reply, Messages.Prepared.class);
                        if (!p.pointId().equals(spec.pointId())) {
                            session.control().call(MessageType.RELEASE, new Messages.Release(p.pointId()),
                                    MessageType.RELEASED, Messages.Released.class, Duration.ofSeconds(10));
                        }
                    }
                }
            }
            // The same connection still serves, and a whole validated point runs on it.
            assertThat(session.control().call(MessageType.PING, new Messages.Ping(99), MessageType.PONG,
                    Messages.Pong.class, Duration.ofSeconds(5)).nonce()).isEqualTo(99);
            session.control().call(MessageType.RELEASE, new Messages.Release(spec.pointId()), MessageType.RELEASED,
                    Messages.Released.class, Duration.ofSeconds(10));
            assertThat(session.run(TransferSpec.builder().pointId("fuzz#after").op(Op.READ).size(10_000).batch(3)
                    .iterations(3).warmup(1).build()).isValid()).isTrue();
        }
        // The generator reaches both sides: requests refused, and mutations the agent accepts.
        assertThat(answered).contains("ok").anyMatch(c -> !c.equals("ok"));
    }

    /** Replaces, removes or adds one field somewhere in {@code tree}; says what it did. */
    private static String mutate(JsonNode tree, Random random) {
        List<String> paths = new ArrayList<>();
        List<ContainerNode<?>> parents = new ArrayList<>();
        List<Object> keys = new ArrayList<>();
        collect(tree, "", paths, parents, keys);
        int k = random.nextInt(paths.size());
        ContainerNode<?> parent = parents.get(k);
        Object key = keys.get(k);
        int action = random.nextInt(10);
        if (action == 0 && parent instanceof ObjectNode o) {
            o.remove((String) key);
            return "'" + paths.get(k) + "' removed";
        }
        if (action == 1 && parent instanceof ObjectNode o) {
            o.put("fuzzExtra", 1);
            return "an unknown field beside '" + paths.get(k) + "'";
        }
        JsonNode value = hostile(random);
        if (parent instanceof ObjectNode o) {
            o.set((String) key, value);
        } else {
            ((ArrayNode) parent).set((Integer) key, value);
        }
        return "'" + paths.get(k) + "' = " + preview(value.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static void collect(JsonNode node, String path, List<String> paths, List<ContainerNode<?>> parents,
                                List<Object> keys) {
        if (node instanceof ObjectNode o) {
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String p = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
                paths.add(p);
                parents.add(o);
                keys.add(e.getKey());
                collect(e.getValue(), p, paths, parents, keys);
            }
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                String p = path + "[" + i + "]";
                paths.add(p);
                parents.add(a);
                keys.add(i);
                collect(a.get(i), p, paths, parents, keys);
            }
        }
    }

    private static JsonNode hostile(Random random) {
        return switch (random.nextInt(14)) {
            case 0 -> NODES.nullNode();
            case 1 -> NODES.numberNode(0);
            case 2 -> NODES.numberNode(-1);
            case 3 -> NODES.numberNode(Long.MAX_VALUE);
            case 4 -> NODES.numberNode(Long.MIN_VALUE);
            case 5 -> NODES.numberNode((long) Integer.MAX_VALUE + 1);
            case 6 -> NODES.numberNode(1L << 40);
            case 7 -> NODES.numberNode(1e300);
            case 8 -> NODES.textNode("x");
            case 9 -> NODES.textNode("");
            case 10 -> NODES.textNode("z".repeat(20_000));
            case 11 -> NODES.booleanNode(true);
            case 12 -> NODES.objectNode().put("a", 1);
            default -> NODES.arrayNode().add(1).add("b");
        };
    }

    /** The whole body replaced: truncated, empty, random bytes, or JSON of the wrong shape. */
    private static byte[] wholeBody(byte[] valid, Random random) {
        return switch (random.nextInt(6)) {
            case 0 -> java.util.Arrays.copyOf(valid, random.nextInt(Math.max(1, valid.length)));
            case 1 -> new byte[0];
            case 2 -> {
                byte[] b = new byte[1 + random.nextInt(200)];
                random.nextBytes(b);
                yield b;
            }
            case 3 -> "null".getBytes(StandardCharsets.UTF_8);
            case 4 -> "[1,2,3]".getBytes(StandardCharsets.UTF_8);
            default -> "\"a string\"".getBytes(StandardCharsets.UTF_8);
        };
    }

    private static String preview(byte[] body) {
        String s = new String(body, StandardCharsets.UTF_8);
        return s.length() > 60 ? s.substring(0, 60) + "... (" + s.length() + " chars)" : s;
    }
}
