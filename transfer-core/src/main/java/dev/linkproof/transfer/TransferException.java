package dev.linkproof.transfer;

/** A transfer could not be carried out: the peer failed, a deadline passed, or a request was refused. */
public class TransferException extends Exception {
    public TransferException(String message) {
        super(message);
    }

    public TransferException(String message, Throwable cause) {
        super(message, cause);
    }
}
