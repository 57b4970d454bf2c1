package dev.linkproof.transfer.control;

/** One control message: its type and its JSON body. */
public record Frame(MessageType type, byte[] body) {}
