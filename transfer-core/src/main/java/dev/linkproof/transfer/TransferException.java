package dev.linkproof.transfer;

import java.util.Optional;

/** A transfer could not be carried out: the peer failed, a deadline passed, or a request was refused. */
public class TransferException extends Exception implements KindedFailure {
    private Deadline deadline;

    public TransferException(String message) {
        super(message);
    }

    public TransferException(String message, Throwable cause) {
        super(message, cause);
    }

    /** {@link FailureKind#TRANSFER_ERROR}: this side could not carry the transfer out; a peer failure says so itself. */
    @Override
    public FailureKind kind() {
        return FailureKind.TRANSFER_ERROR;
    }

    /** The deadline that ran out, when that is why this was thrown; empty for every other failure. */
    public Optional<Deadline> deadline() {
        return Optional.ofNullable(deadline);
    }

    /** Marks this as thrown because {@code expired} ran out; returns it, for {@code throw new ...(...).expired(d)}. */
    public TransferException expired(Deadline expired) {
        this.deadline = java.util.Objects.requireNonNull(expired, "expired");
        return this;
    }
}
