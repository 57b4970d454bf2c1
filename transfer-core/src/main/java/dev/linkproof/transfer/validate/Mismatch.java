package dev.linkproof.transfer.validate;

/**
 * The first corrupted byte of a point.
 *
 * @param slot     slot index within the batch
 * @param offset   byte offset within the slot
 * @param expected the byte the pattern has there (0..255)
 * @param actual   the byte the receiver holds (0..255)
 */
public record Mismatch(int slot, long offset, int expected, int actual) {
    public String describe() {
        return String.format("slot %d, byte offset %d: expected 0x%02x, found 0x%02x", slot, offset, expected, actual);
    }
}
