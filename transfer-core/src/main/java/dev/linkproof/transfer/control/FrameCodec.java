package dev.linkproof.transfer.control;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;

/**
 * Length-prefixed control frames: {@code [int magic "LKPF"][short version][short type][int length][body]},
 * big-endian, body at most {@link #MAX_BODY} bytes of UTF-8 JSON. The version is checked on every
 * frame, so a mismatched peer gets a clear error instead of misparsed messages.
 */
public final class FrameCodec {
    public static final int MAGIC = 0x4C4B5046; // "LKPF"
    /**
     * 2: CHECKSUM names the batches run and CHECKSUMS carries the receiver's completion check.
     * 3: WELCOME carries the agent's GPUs.
     * 4: HELLO carries the initiator's progress deadline, which the agent applies to the session.
     * 5: RELEASED carries the target host's CPU load over the point; LOAD asks for it over a window
     *    (before a busy-host rerun), and WELCOME carries the agent's kernel boot id.
     * 6: DRIVE / GO / POLL / DRIVE_STATE: an agent runs a point against another at the coordinator's request.
     * 7: REGISTER / REGISTERED: a fleet's agent dials the coordinator's registry and says where it serves.
     */
    public static final int VERSION = 7;

    public static final int MAX_BODY = 1 << 20;
    public static final int HEADER_BYTES = 12;

    private FrameCodec() {}

    public static void write(DataOutputStream out, MessageType type, byte[] body) throws IOException {
        if (body.length > MAX_BODY) {
            throw new IllegalArgumentException("control message of " + body.length + " bytes exceeds " + MAX_BODY);
        }
        out.writeInt(MAGIC);
        out.writeShort(VERSION);
        out.writeShort(type.code);
        out.writeInt(body.length);
        out.write(body);
        out.flush();
    }

    /** One whole frame as bytes: for a frame written outside a request/reply exchange (a last BYE, a heartbeat). */
    public static byte[] encode(MessageType type, byte[] body) {
        var bytes = new java.io.ByteArrayOutputStream(HEADER_BYTES + body.length);
        try (var out = new DataOutputStream(bytes)) {
            write(out, type, body);
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory cannot fail", e);
        }
        return bytes.toByteArray();
    }

    /**
     * Reads one frame. A clean end of stream before a frame gives {@code null}. Malformed frames
     * throw {@link ProtocolException}; the body of a frame with a sound header is always consumed,
     * so a non-fatal error leaves the stream framed.
     */
    public static Frame read(DataInputStream in) throws IOException, ProtocolException {
        // Only an end of stream before the first byte is a clean close; one inside the magic is a truncated frame.
        int first = in.read();
        if (first < 0) {
            return null;
        }
        byte[] rest = new byte[3];
        in.readFully(rest);
        int magic = (first << 24) | ((rest[0] & 0xFF) << 16) | ((rest[1] & 0xFF) << 8) | (rest[2] & 0xFF);
        if (magic != MAGIC) {
            throw new ProtocolException(
                    "bad-magic",
                    String.format(
                            "bad frame magic 0x%08x%s (expected 0x%08x \"LKPF\"): not a Linkproof control stream",
                            magic, asText(magic), MAGIC),
                    true);
        }
        int version = in.readUnsignedShort();
        int typeCode = in.readUnsignedShort();
        int length = in.readInt();
        if (length < 0 || length > MAX_BODY) {
            throw new ProtocolException("bad-length", "frame length " + length + " out of range 0.." + MAX_BODY, true);
        }
        byte[] body = in.readNBytes(length);
        if (body.length != length) {
            throw new EOFException("control stream ended inside a frame (" + body.length + " of " + length + " bytes)");
        }
        if (version != VERSION) {
            throw new ProtocolException(
                    "bad-version",
                    "protocol version " + version + " not supported (this side speaks " + VERSION + ")",
                    false);
        }
        MessageType type = MessageType.of(typeCode)
                .orElseThrow(() -> new ProtocolException("bad-type", "unknown message type " + typeCode, false));
        return new Frame(type, body);
    }

    /**
     * The four bytes as text when they are printable ASCII ({@code , the text "HTTP"}): what answered
     * is then usually a text protocol, e.g. an HTTP server or proxy on the port the agent was expected on.
     */
    private static String asText(int magic) {
        StringBuilder b = new StringBuilder();
        for (int shift = 24; shift >= 0; shift -= 8) {
            int c = (magic >>> shift) & 0xFF;
            if (c < 0x20 || c > 0x7e) {
                return "";
            }
            b.append((char) c);
        }
        return ", the text \"" + b + "\"";
    }
}
