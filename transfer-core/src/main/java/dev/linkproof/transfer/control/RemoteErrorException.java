package dev.linkproof.transfer.control;

import dev.linkproof.transfer.TransferException;

/** The agent answered a request with ERROR: the request was refused, the agent is fine. */
public class RemoteErrorException extends TransferException {
    /**
     * The code of a PREPARE the agent refused because the device it would serve the point on lacks
     * what the point needs ({@link dev.linkproof.transfer.Availability.Kind#DEVICE_LACKS_CAPABILITY}:
     * a verbs device without atomics); every other unavailability there is {@code unavailable}.
     */
    public static final String DEVICE_LACKS_CAPABILITY = "device-lacks-capability";

    private final String code;

    public RemoteErrorException(String code, String message) {
        super(message);
        this.code = code;
    }

    public String code() {
        return code;
    }

    /** Whether the target's device lacks what the point needs ({@link #DEVICE_LACKS_CAPABILITY}), by the code, not the words. */
    public boolean deviceLacksCapability() {
        return DEVICE_LACKS_CAPABILITY.equals(code);
    }
}
