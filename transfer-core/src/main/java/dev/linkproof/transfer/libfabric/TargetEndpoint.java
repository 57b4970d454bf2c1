package dev.linkproof.transfer.libfabric;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.spi.PeerEndpoint;
import java.util.HexFormat;
import java.util.Map;

/**
 * What the target published of its libfabric point (its PREPARED endpoint), read and checked through
 * {@link PeerEndpoint}: the provider it opened, its endpoints' names, the keys and base of its region.
 * The names, keys and base are taken on trust, as UCX's are: no receiver can check them.
 *
 * @param names one per target endpoint, for fi_av_insert
 * @param keys  the key of the region as registered for each endpoint (one for all but under FI_MR_ENDPOINT)
 * @param base  what a byte offset into the region is added to (its address under FI_MR_VIRT_ADDR, else 0)
 */
record TargetEndpoint(String provider, byte[][] names, long[] keys, long base, long length) {
    static final String TRANSPORT = "libfabric";

    static TargetEndpoint read(TransferSpec spec, Map<String, String> endpoint) throws TransferException {
        PeerEndpoint peer = PeerEndpoint.of(TRANSPORT, endpoint);
        String provider = peer.string("libfabric.provider");
        java.util.Optional<String> own = LibfabricSettings.of(spec).provider();
        if (own.isPresent() && !own.get().equals(provider)) {
            throw new TransferException(
                    "the target opened libfabric provider " + provider + ", this side names " + own.get()
                            + ": name the same on both ranks (libfabric.provider in the point's settings, or "
                            + LibfabricSettings.PROVIDER_PROPERTY + " on each)");
        }
        String[] hex = peer.string("libfabric.names").split(",");
        String[] keyText = peer.string("libfabric.keys").split(",");
        if (keyText.length != hex.length && keyText.length != 1) {
            throw new TransferException("the target's libfabric endpoint has " + hex.length + " names and "
                    + keyText.length + " keys (libfabric.keys: one, or one per name)");
        }
        byte[][] names = new byte[hex.length][];
        long[] keys = new long[hex.length];
        for (int e = 0; e < hex.length; e++) {
            try {
                names[e] = HexFormat.of().parseHex(hex[e]);
                keys[e] = Long.parseUnsignedLong(keyText[keyText.length == 1 ? 0 : e]);
            } catch (IllegalArgumentException ex) {
                throw new TransferException(
                        "the target's libfabric endpoint is malformed: libfabric.names or libfabric.keys entry " + e
                                + ": " + ex.getMessage());
            }
        }
        long length = peer.number("libfabric.length", 0, Long.MAX_VALUE);
        if (length < spec.slots().regionBytes()) {
            throw new TransferException("the target's libfabric region has " + length + " bytes, the point needs "
                    + spec.slots().regionBytes());
        }
        return new TargetEndpoint(provider, names, keys, peer.unsigned("libfabric.base"), length);
    }
}
