package dev.linkproof.transfer.tcp;

/**
 * The tcp transport's data-connection format. After connecting, the initiator sends the point's
 * 8-byte data key; then each transfer is a 24-byte request header (big-endian)
 * {@code [int op][int flags][long remoteOffset][long length]}, followed by the payload for writes.
 * The target answers reads, signaled writes and every refused request with a 16-byte response
 * header {@code [int status][int messageLength][long length]}, followed by the payload (reads) or a
 * UTF-8 error message (refusals).
 */
public final class TcpWire {
    public static final int REQUEST_BYTES = 24;
    public static final int RESPONSE_BYTES = 16;
    public static final int KEY_BYTES = 8;

    public static final int OP_WRITE = 1;
    public static final int OP_READ = 2;

    /** Request flag: answer this write once its payload is in the target's memory. */
    public static final int FLAG_SIGNAL = 1;

    public static final int STATUS_OK = 0;
    public static final int STATUS_OUT_OF_RANGE = 1;
    public static final int STATUS_BAD_REQUEST = 2;
    /** The target could not stage the transfer through its host copy of GPU memory. */
    public static final int STATUS_TARGET_ERROR = 3;

    /** A refused write's payload up to this size is read and dropped, so the connection stays usable. */
    public static final long DRAIN_LIMIT = 64L << 20;

    private TcpWire() {}

    public static String statusName(int status) {
        return switch (status) {
            case STATUS_OK -> "ok";
            case STATUS_OUT_OF_RANGE -> "out-of-range";
            case STATUS_BAD_REQUEST -> "bad-request";
            case STATUS_TARGET_ERROR -> "target-error";
            default -> "status " + status;
        };
    }
}
