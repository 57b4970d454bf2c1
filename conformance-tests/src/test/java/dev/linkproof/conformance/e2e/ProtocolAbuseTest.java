package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.control.ControlChannel;
import dev.linkproof.transfer.control.Frame;
import dev.linkproof.transfer.control.FrameCodec;
import dev.linkproof.transfer.control.MessageType;
import dev.linkproof.transfer.control.Messages;
import dev.linkproof.transfer.control.RemoteErrorException;
import dev.linkproof.transfer.session.LocalAgent;
import dev.linkproof.transfer.session.Session;
import dev.linkproof.transfer.session.Timeouts;
import dev.linkproof.transfer.tcp.TcpWire;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * (c) Malformed control frames and out-of-range requests get error replies naming the problem, and
 * the agent keeps serving: after each abuse, a full validated point still runs against it.
 */
@Tag("e2e")
class ProtocolAbuseTest {
    private static final Duration T = Duration.ofSeconds(10);
    private static LocalAgent agent;

    @BeforeAll
    static void startAgent() throws Exception {
        agent = LocalAgent.start(
                List.of("-Xmx128m"), Path.of("target", "protocol-abuse-agent.log"), Duration.ofSeconds(30));
    }

    @AfterAll
    static void stopAgent() {
        if (agent != null) {
            agent.close();
        }
    }

    @Test
    void garbageInsteadOfAFrameIsAnsweredAndOnlyThatConnectionCloses() throws Exception {
        try (ControlChannel raw = ControlChannel.connect(agent.host(), agent.port(), T)) {
            raw.writeRaw("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            Frame reply = raw.readRaw(T);
            assertThat(reply.type()).isEqualTo(MessageType.ERROR);
            Messages.Error e = decodeError(reply);
            assertThat(e.code()).isEqualTo("bad-magic");
            assertThat(e.message()).contains("bad frame magic 0x47455420");
            assertThat(raw.readRaw(T))
                    .as("the unframeable connection is closed")
                    .isNull();
        }
        assertAgentStillServes();
    }

    @Test
    void oversizeLengthIsRefused() throws Exception {
        try (ControlChannel raw = ControlChannel.connect(agent.host(), agent.port(), T)) {
            raw.writeRaw(header(FrameCodec.VERSION, MessageType.HELLO.code, 512 << 20));
            Messages.Error e = decodeError(raw.readRaw(T));
            assertThat(e.code()).isEqualTo("bad-length");
            assertThat(e.message()).contains("frame length 536870912 out of range");
        }
        assertAgentStillServes();
    }

    @Test
    void wellFramedButWrongFramesKeepTheConnectionUsable() throws Exception {
        try (Session s = open()) {
            ControlChannel c = s.control();
            // wrong version, sound framing: refused, same connection keeps serving
            c.writeRaw(frame(FrameCodec.VERSION + 7, MessageType.PING.code, "{\"nonce\":1}"));
            assertThat(decodeError(c.readRaw(T)).message())
                    .contains("protocol version " + (FrameCodec.VERSION + 7) + " not supported");
            // unknown type
            c.writeRaw(frame(FrameCodec.VERSION, 4242, "{}"));
            assertThat(decodeError(c.readRaw(T)).message()).contains("unknown message type 4242");
            // a body that is not JSON
            c.writeRaw(frame(FrameCodec.VERSION, MessageType.PING.code, "{nonce: oops"));
            assertThat(decodeError(c.readRaw(T)).message()).contains("malformed PING body");
            // and the connection still answers
            Messages.Pong pong =
                    c.call(MessageType.PING, new Messages.Ping(99), MessageType.PONG, Messages.Pong.class, T);
            assertThat(pong.nonce()).isEqualTo(99);
            assertThat(s.run(spec("after-bad-frames", Op.WRITE)).isValid()).isTrue();
        }
    }

    @Test
    void outOfRangeRequestsAreRefusedNamingTheCause() throws Exception {
        try (Session s = open()) {
            ControlChannel c = s.control();
            String body = new String(Messages.encode(new Messages.Prepare(spec("p", Op.WRITE))), StandardCharsets.UTF_8)
                    .replace("\"size\":4096", "\"size\":0");
            c.writeRaw(frame(FrameCodec.VERSION, MessageType.PREPARE.code, body));
            Messages.Error e = decodeError(c.readRaw(T));
            assertThat(e.code()).isEqualTo("bad-request");
            assertThat(e.message()).contains("size 0 out of range 1..");

            assertThatThrownBy(() -> c.call(
                            MessageType.CHECKSUM,
                            new Messages.Checksum("nope"),
                            MessageType.CHECKSUMS,
                            Messages.Checksums.class,
                            T))
                    .isInstanceOf(RemoteErrorException.class)
                    .hasMessageContaining("no point 'nope' is prepared");

            TransferSpec spec = spec("range", Op.WRITE);
            Messages.Prepared prepared = c.call(
                    MessageType.PREPARE, new Messages.Prepare(spec), MessageType.PREPARED, Messages.Prepared.class, T);
            assertThatThrownBy(() -> c.call(
                            MessageType.LOCATE,
                            new Messages.Locate("range", 5, 0, 1),
                            MessageType.LOCATED,
                            Messages.Located.class,
                            T))
                    .isInstanceOf(RemoteErrorException.class)
                    .hasMessageContaining("slot 5 out of range 0..0");

            // the data path: a write beyond the region is refused with a message; the connection keeps serving
            try (SocketChannel data = SocketChannel.open(new InetSocketAddress(
                    agent.host(), Integer.parseInt(prepared.endpoint().get("tcp.port"))))) {
                long key = HexFormat.fromHexDigitsToLong(prepared.endpoint().get("tcp.key"));
                writeAll(data, ByteBuffer.allocate(8).putLong(0, key));
                writeAll(data, request(TcpWire.OP_WRITE, prepared.regionBytes() - 10, 100));
                writeAll(data, ByteBuffer.allocate(100));
                ByteBuffer resp = readN(data, TcpWire.RESPONSE_BYTES);
                assertThat(resp.getInt(0)).isEqualTo(TcpWire.STATUS_OUT_OF_RANGE);
                String why = new String(readN(data, resp.getInt(4)).array(), StandardCharsets.UTF_8);
                assertThat(why).contains("remote range [4086, 4086+100) lies outside the region of 4096 bytes");

                writeAll(data, request(TcpWire.OP_READ, 0, 16));
                ByteBuffer ok = readN(data, TcpWire.RESPONSE_BYTES);
                assertThat(ok.getInt(0)).isEqualTo(TcpWire.STATUS_OK);
                assertThat(readN(data, 16).remaining()).isEqualTo(16);
            }
            c.call(
                    MessageType.RELEASE,
                    new Messages.Release("range"),
                    MessageType.RELEASED,
                    Messages.Released.class,
                    T);
            assertThat(s.run(spec("after-range", Op.READ)).isValid()).isTrue();
        }
        assertAgentStillServes();
    }

    @Test
    void aWrongTokenIsRefused() {
        assertThatThrownBy(() -> Session.open(agent.host(), agent.port(), "not-the-token-at-all", Timeouts.DEFAULT))
                .isInstanceOf(RemoteErrorException.class)
                .hasMessageContaining("wrong session token");
        assertAgentStillServes();
    }

    private static void assertAgentStillServes() {
        assertThat(agent.alive()).isTrue();
        try (Session s = open()) {
            assertThat(s.run(spec("still-serving-" + System.nanoTime(), Op.WRITE))
                            .isValid())
                    .isTrue();
        } catch (Exception e) {
            throw new AssertionError("the agent stopped serving: " + e.getMessage(), e);
        }
    }

    private static Session open() throws Exception {
        return Session.open(agent.host(), agent.port(), agent.token(), Timeouts.DEFAULT);
    }

    private static TransferSpec spec(String id, Op op) {
        return TransferSpec.builder()
                .pointId(id)
                .op(op)
                .size(4096)
                .iterations(5)
                .warmup(1)
                .build();
    }

    private static Messages.Error decodeError(Frame f) throws Exception {
        assertThat(f).isNotNull();
        assertThat(f.type()).isEqualTo(MessageType.ERROR);
        return Messages.decode(f, Messages.Error.class);
    }

    private static byte[] header(int version, int type, int length) {
        return ByteBuffer.allocate(FrameCodec.HEADER_BYTES)
                .putInt(FrameCodec.MAGIC)
                .putShort((short) version)
                .putShort((short) type)
                .putInt(length)
                .array();
    }

    private static byte[] frame(int version, int type, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(header(version, type, b.length));
        out.write(b);
        return out.toByteArray();
    }

    private static ByteBuffer request(int op, long offset, long length) {
        return ByteBuffer.allocate(TcpWire.REQUEST_BYTES)
                .putInt(0, op)
                .putInt(4, TcpWire.FLAG_SIGNAL)
                .putLong(8, offset)
                .putLong(16, length);
    }

    private static void writeAll(SocketChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    /** Reads exactly n bytes within 10 s (the channel is switched to non-blocking so the wait has a deadline). */
    private static ByteBuffer readN(SocketChannel ch, int n) throws IOException {
        ch.configureBlocking(false);
        ByteBuffer b = ByteBuffer.allocate(n);
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (b.hasRemaining()) {
            if (ch.read(b) < 0) {
                throw new IOException("connection closed after " + b.position() + " of " + n + " bytes");
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("no reply within 10 s");
            }
            java.util.concurrent.locks.LockSupport.parkNanos(200_000);
        }
        ch.configureBlocking(true);
        return b.flip();
    }
}
