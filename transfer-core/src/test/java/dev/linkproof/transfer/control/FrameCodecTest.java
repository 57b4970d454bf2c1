package dev.linkproof.transfer.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FrameCodecTest {

    private static byte[] frame(MessageType type, String body) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        FrameCodec.write(new DataOutputStream(bytes), type, body.getBytes(StandardCharsets.UTF_8));
        return bytes.toByteArray();
    }

    /** A frame with an arbitrary header, for malformed input. */
    private static byte[] raw(int magic, int version, int type, int length, byte[] body) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(magic);
        out.writeShort(version);
        out.writeShort(type);
        out.writeInt(length);
        out.write(body);
        out.flush();
        return bytes.toByteArray();
    }

    private static DataInputStream in(byte[]... parts) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            all.write(p);
        }
        return new DataInputStream(new ByteArrayInputStream(all.toByteArray()));
    }

    @Test
    void headerIsTwelveBigEndianBytes() throws IOException {
        byte[] f = frame(MessageType.PING, "{}");
        assertThat(f).hasSize(FrameCodec.HEADER_BYTES + 2);
        assertThat(new String(f, 0, 4, StandardCharsets.US_ASCII)).isEqualTo("LKPF");
        assertThat(f[4]).isZero();
        assertThat(f[5]).isEqualTo((byte) FrameCodec.VERSION);
        assertThat(f[6]).isZero();
        assertThat(f[7]).isEqualTo((byte) MessageType.PING.code);
        assertThat(new byte[] {f[8], f[9], f[10], f[11]}).containsExactly(0, 0, 0, 2);
    }

    @Test
    void framesRoundTripInOrder() throws Exception {
        DataInputStream in = in(
                frame(MessageType.HELLO, "{\"a\":1}"),
                frame(MessageType.ERROR, ""),
                frame(MessageType.PONG, "ünïcode"));
        Frame a = FrameCodec.read(in);
        assertThat(a.type()).isEqualTo(MessageType.HELLO);
        assertThat(new String(a.body(), StandardCharsets.UTF_8)).isEqualTo("{\"a\":1}");
        Frame b = FrameCodec.read(in);
        assertThat(b.type()).isEqualTo(MessageType.ERROR);
        assertThat(b.body()).isEmpty();
        Frame c = FrameCodec.read(in);
        assertThat(c.type()).isEqualTo(MessageType.PONG);
        assertThat(new String(c.body(), StandardCharsets.UTF_8)).isEqualTo("ünïcode");
        assertThat(FrameCodec.read(in)).as("clean end of stream").isNull();
    }

    @Test
    void everyMessageTypeRoundTrips() throws Exception {
        for (MessageType t : MessageType.values()) {
            assertThat(MessageType.of(t.code)).contains(t);
            assertThat(FrameCodec.read(in(frame(t, "{}"))).type()).isEqualTo(t);
        }
        assertThat(MessageType.of(0)).isEmpty();
        assertThat(MessageType.of(200)).isEmpty();
    }

    @Test
    void largestBodyRoundTrips() throws Exception {
        byte[] body = new byte[FrameCodec.MAX_BODY];
        body[body.length - 1] = 42;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        FrameCodec.write(new DataOutputStream(bytes), MessageType.CHECKSUMS, body);
        Frame f = FrameCodec.read(in(bytes.toByteArray()));
        assertThat(f.body()).hasSize(FrameCodec.MAX_BODY);
        assertThat(f.body()[body.length - 1]).isEqualTo((byte) 42);
    }

    @Test
    void writingAnOversizeBodyIsRefused() {
        assertThatThrownBy(() -> FrameCodec.write(
                        new DataOutputStream(new ByteArrayOutputStream()),
                        MessageType.PING,
                        new byte[FrameCodec.MAX_BODY + 1]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(Integer.toString(FrameCodec.MAX_BODY + 1));
    }

    @Test
    void badMagicIsFatal() throws IOException {
        ProtocolException e = catchThrowableOfType(
                ProtocolException.class, () -> FrameCodec.read(in(raw(0x48545450, 1, 13, 0, new byte[0]))));
        assertThat(e.fatal()).isTrue();
        assertThat(e.code()).isEqualTo("bad-magic");
        assertThat(e.getMessage()).contains("0x48545450").contains("LKPF");
    }

    @Test
    void oversizeLengthIsFatal() throws IOException {
        ProtocolException e = catchThrowableOfType(
                ProtocolException.class,
                () -> FrameCodec.read(
                        in(raw(FrameCodec.MAGIC, FrameCodec.VERSION, 13, FrameCodec.MAX_BODY + 1, new byte[0]))));
        assertThat(e.fatal()).isTrue();
        assertThat(e.code()).isEqualTo("bad-length");
        assertThat(e.getMessage()).contains(Integer.toString(FrameCodec.MAX_BODY + 1));
    }

    @Test
    void negativeLengthIsFatal() throws IOException {
        ProtocolException e = catchThrowableOfType(
                ProtocolException.class,
                () -> FrameCodec.read(in(raw(FrameCodec.MAGIC, FrameCodec.VERSION, 13, -1, new byte[0]))));
        assertThat(e.fatal()).isTrue();
        assertThat(e.code()).isEqualTo("bad-length");
    }

    @Test
    void badVersionIsNonFatalAndTheNextFrameStillReads() throws Exception {
        byte[] body = "{\"nonce\":1}".getBytes(StandardCharsets.UTF_8);
        DataInputStream in = in(
                raw(FrameCodec.MAGIC, FrameCodec.VERSION + 1, MessageType.PING.code, body.length, body),
                frame(MessageType.PING, "{\"nonce\":2}"));
        ProtocolException e = catchThrowableOfType(ProtocolException.class, () -> FrameCodec.read(in));
        assertThat(e.fatal()).isFalse();
        assertThat(e.code()).isEqualTo("bad-version");
        assertThat(e.getMessage())
                .contains("version " + (FrameCodec.VERSION + 1))
                .contains("speaks " + FrameCodec.VERSION);
        Frame next = FrameCodec.read(in);
        assertThat(next.type()).isEqualTo(MessageType.PING);
        assertThat(new String(next.body(), StandardCharsets.UTF_8)).isEqualTo("{\"nonce\":2}");
    }

    @Test
    void unknownTypeIsNonFatalAndTheNextFrameStillReads() throws Exception {
        byte[] body = "{\"some\":\"thing\"}".getBytes(StandardCharsets.UTF_8);
        DataInputStream in =
                in(raw(FrameCodec.MAGIC, FrameCodec.VERSION, 777, body.length, body), frame(MessageType.BYE, "{}"));
        ProtocolException e = catchThrowableOfType(ProtocolException.class, () -> FrameCodec.read(in));
        assertThat(e.fatal()).isFalse();
        assertThat(e.code()).isEqualTo("bad-type");
        assertThat(e.getMessage()).contains("777");
        assertThat(FrameCodec.read(in).type()).isEqualTo(MessageType.BYE);
    }

    @Test
    void streamEndingInsideAFrameIsAnEofNotACleanEnd() throws IOException {
        byte[] whole = frame(MessageType.PING, "{\"nonce\":12345}");
        byte[] cut = java.util.Arrays.copyOf(whole, whole.length - 3);
        assertThatThrownBy(() -> FrameCodec.read(in(cut)))
                .isInstanceOf(EOFException.class)
                .hasMessageContaining("inside a frame");
        byte[] headerOnly = java.util.Arrays.copyOf(whole, 6);
        assertThatThrownBy(() -> FrameCodec.read(in(headerOnly))).isInstanceOf(EOFException.class);
    }

    @Test
    void aStreamEndingInsideTheMagicIsATruncatedFrameNotACleanEnd() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> FrameCodec.read(
                        new java.io.DataInputStream(new java.io.ByteArrayInputStream(new byte[] {0x4C, 0x4B}))))
                .isInstanceOf(java.io.EOFException.class);
    }
}
