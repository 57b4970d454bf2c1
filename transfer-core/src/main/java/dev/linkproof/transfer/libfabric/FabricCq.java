package dev.linkproof.transfer.libfabric;

import static dev.linkproof.transfer.libfabric.LibfabricAbi.FID_CQ;
import static dev.linkproof.transfer.libfabric.LibfabricAbi.FI_CQ_ERR_ENTRY;
import static dev.linkproof.transfer.libfabric.LibfabricAbi.offset;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.TransferException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Set;

/**
 * A completion queue's reads: {@code fi_cq_read} (which also drives a manual-progress provider,
 * ofi_rxm and tcp among them) and, when it says an error entry waits ({@code -FI_EAVAIL}),
 * {@code fi_cq_readerr} and {@code fi_cq_strerror}, whose words become the failure's message. The
 * function pointers are read from the queue's table once.
 */
final class FabricCq {
    /** errno values that say the peer is gone or unreachable: a peer failure, not a local error. */
    private static final Set<Integer> PEER_GONE = Set.of(
            103 /* ECONNABORTED */,
            104 /* ECONNRESET */,
            107 /* ENOTCONN */,
            110 /* ETIMEDOUT */,
            111 /* ECONNREFUSED */,
            112 /* EHOSTDOWN */,
            113 /* EHOSTUNREACH */,
            32 /* EPIPE */);

    final MemorySegment cq;
    final int format;
    /** Bytes of one entry of this queue's format. */
    final long entryBytes;

    private final MemorySegment read;
    private final long cqAddress;

    FabricCq(MemorySegment cq, int format) {
        this.cq = cq;
        this.format = format;
        this.entryBytes = format == LibfabricAbi.FI_CQ_FORMAT_MSG ? LibfabricAbi.FI_CQ_MSG_ENTRY.byteSize() : 8;
        this.read = Libfabric.function(cq, offset(FID_CQ, "ops"), LibfabricAbi.FI_OPS_CQ, "read");
        this.cqAddress = cq.address();
    }

    /**
     * Reads up to {@code max} entries into {@code entries} (an address): how many came, 0 when none
     * (-FI_EAGAIN). An error entry fails with its error and the provider's words, naming {@code what}.
     */
    int read(long entries, int max, String what) throws TransferException {
        long n;
        try {
            n = (long) Libfabric.CQ_READ.invokeExact(read, cqAddress, entries, (long) max);
        } catch (Throwable t) {
            throw new TransferException(what + ": fi_cq_read downcall failed: " + t, t);
        }
        if (n >= 0) {
            return (int) n;
        }
        if (n == -LibfabricAbi.FI_EAGAIN) {
            return 0;
        }
        if (n == -LibfabricAbi.FI_EAVAIL) {
            throw errorEntry(what);
        }
        throw new TransferException(
                what + ": fi_cq_read failed: " + Libfabric.lib().strerror((int) -n) + " (" + -n + ")");
    }

    /** The waiting error entry, read and described: its error, the provider's error and its words. */
    private TransferException errorEntry(String what) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment e = a.allocate(FI_CQ_ERR_ENTRY);
            long rc = (long) Libfabric.CQ_READERR.invokeExact(
                    Libfabric.function(cq, offset(FID_CQ, "ops"), LibfabricAbi.FI_OPS_CQ, "readerr"), cq, e, 0L);
            if (rc < 0) {
                return new TransferException(what + ": an error completion could not be read: fi_cq_readerr: "
                        + Libfabric.lib().strerror((int) -rc));
            }
            int err = e.get(JAVA_INT, offset(FI_CQ_ERR_ENTRY, "err"));
            int provErrno = e.get(JAVA_INT, offset(FI_CQ_ERR_ENTRY, "prov_errno"));
            MemorySegment words = (MemorySegment) Libfabric.CQ_STRERROR.invokeExact(
                    Libfabric.function(cq, offset(FID_CQ, "ops"), LibfabricAbi.FI_OPS_CQ, "strerror"),
                    cq,
                    provErrno,
                    e.get(ADDRESS, offset(FI_CQ_ERR_ENTRY, "err_data")),
                    MemorySegment.NULL,
                    0L);
            String provider = words.equals(MemorySegment.NULL)
                    ? ""
                    : words.reinterpret(1024).getString(0);
            String message = what + ": an operation completed in error: "
                    + Libfabric.lib().strerror(err) + " (" + err
                    + "); the provider says: " + (provider.isEmpty() ? "nothing" : provider) + " (prov_errno "
                    + provErrno
                    + ", " + e.get(JAVA_LONG, offset(FI_CQ_ERR_ENTRY, "len")) + " bytes)";
            // The provider's own errno says why where err is only "canceled" (ofi_rxm over tcp: ECANCELED, ENOTCONN).
            boolean peerGone = PEER_GONE.contains(err)
                    || (err == LibfabricAbi.FI_ECANCELED || err == 5 /* EIO */)
                            && PEER_GONE.contains(Math.abs(provErrno));
            return peerGone
                    ? new PeerFailureException(message + ": the peer is gone (did the target rank die?)")
                    : new TransferException(message);
        } catch (Throwable t) {
            return new TransferException(what + ": fi_cq_readerr downcall failed: " + t, t);
        }
    }
}
