package dev.linkproof.transfer.control;

/**
 * A control frame or message that breaks the protocol. {@code fatal} means the stream can no
 * longer be framed (bad magic, oversize length) and the connection must close; otherwise the
 * frame was read whole and the connection keeps serving.
 */
public class ProtocolException extends Exception {
    private final String code;
    private final boolean fatal;

    public ProtocolException(String code, String message, boolean fatal) {
        super(message);
        this.code = code;
        this.fatal = fatal;
    }

    public String code() {
        return code;
    }

    public boolean fatal() {
        return fatal;
    }
}
