package dev.linkproof.transfer.control;

import java.util.Optional;

/** Control-protocol message types and their wire codes. Each request has exactly one reply (or ERROR). */
public enum MessageType {
    HELLO(1),
    WELCOME(2),
    PREPARE(3),
    PREPARED(4),
    FILL(5),
    CHECKSUMS(6),
    CHECKSUM(7),
    LOCATE(9),
    LOCATED(10),
    RELEASE(11),
    RELEASED(12),
    PING(13),
    PONG(14),
    BYE(15),
    CONNECT(16),
    CONNECTED(17),
    LOAD(18),
    LOADED(19),
    DRIVE(20),
    GO(21),
    POLL(22),
    DRIVE_STATE(23),
    REGISTER(24),
    REGISTERED(25),
    ERROR(99);

    public final int code;

    MessageType(int code) {
        this.code = code;
    }

    public static Optional<MessageType> of(int code) {
        for (MessageType t : values()) {
            if (t.code == code) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
