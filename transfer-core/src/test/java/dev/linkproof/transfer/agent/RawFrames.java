package dev.linkproof.transfer.agent;

import dev.linkproof.transfer.control.FrameCodec;
import dev.linkproof.transfer.control.MessageType;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/** Control frames built byte by byte, so tests can send what FrameCodec would never write. */
final class RawFrames {
    private RawFrames() {}

    static byte[] frame(int magic, int version, int type, byte[] body) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(magic);
        out.writeShort(version);
        out.writeShort(type);
        out.writeInt(body.length);
        out.write(body);
        out.flush();
        return bytes.toByteArray();
    }

    /** A well-formed header around any body. */
    static byte[] frame(MessageType type, byte[] body) throws IOException {
        return frame(FrameCodec.MAGIC, FrameCodec.VERSION, type.code, body);
    }
}
