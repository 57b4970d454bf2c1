package dev.linkproof.transfer.control;

import dev.linkproof.transfer.TransferException;

/** The agent answered a request with ERROR: the request was refused, the agent is fine. */
public class RemoteErrorException extends TransferException {
    private final String code;

    public RemoteErrorException(String code, String message) {
        super(message);
        this.code = code;
    }

    public String code() {
        return code;
    }
}
