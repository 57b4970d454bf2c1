package dev.linkproof.transfer.verbs;

import dev.linkproof.transfer.SlotLayout;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.Units;
import java.util.ArrayList;
import java.util.List;

/**
 * Which work requests one batch becomes, on which queue pair: a pure function of the spec and the
 * settings, so the target (which must post matching receives for SEND and WRITE_WITH_IMM) computes
 * what the initiator will post without being told. Both ranks use one slot layout, so a transfer's
 * local and remote offsets are equal. Transfers contiguous on both ranks merge into one WR
 * (MORI-IO), WRs are chunked ({@code chunkBytes}, at most {@code maxChunks} pieces), fewer pieces
 * than QPs are split so every QP carries data, and QP q takes a contiguous block of the pieces.
 */
public record WorkPlan(List<List<Piece>> perQp, int mergedTransfers) {
    /**
     * One work request: {@code length} bytes at {@code offset} in both regions, starting in slot
     * {@code slot} (a merged piece spans {@code transfers} slots from there).
     */
    public record Piece(long offset, long length, int transfers, int slot) {}

    public WorkPlan {
        perQp = perQp.stream().map(List::copyOf).toList();
    }

    public static WorkPlan of(TransferSpec spec, VerbsSettings settings) {
        SlotLayout slots = spec.slots();
        if (spec.op().atomic()) {
            // An atomic is one 8-byte WR per counter: nothing merges, chunks or stripes. The counters
            // are spread over min(QPs, counters) QPs, so every op of a counter goes over one QP, in order.
            List<Piece> one = new ArrayList<>();
            for (int slot = 0; slot < spec.batch(); slot++) {
                one.add(new Piece(slots.slotOffset(slot), spec.size(), 1, slot));
            }
            return new WorkPlan(spread(one, spec.connections()), 1);
        }
        List<Piece> pieces = new ArrayList<>();
        for (int slot = 0; slot < spec.batch(); slot++) {
            long off = slots.slotOffset(slot);
            if (settings.merge() && !pieces.isEmpty()) {
                Piece last = pieces.getLast();
                if (last.offset() + last.length() == off) {
                    pieces.set(
                            pieces.size() - 1,
                            new Piece(last.offset(), last.length() + spec.size(), last.transfers() + 1, last.slot()));
                    continue;
                }
            }
            pieces.add(new Piece(off, spec.size(), 1, slot));
        }
        int merged = 0;
        for (Piece p : pieces) {
            merged = Math.max(merged, p.transfers());
        }
        if (settings.chunkBytes() > 0) {
            List<Piece> chunked = new ArrayList<>();
            for (Piece p : pieces) {
                long n = (p.length() + settings.chunkBytes() - 1) / settings.chunkBytes();
                if (settings.maxChunks() > 0 && n > settings.maxChunks()) {
                    n = settings.maxChunks();
                }
                split(p, n, spec.size(), chunked);
            }
            pieces = chunked;
        }
        int qps = spec.connections();
        if (pieces.size() < qps) {
            long per = (qps + pieces.size() - 1) / pieces.size();
            List<Piece> striped = new ArrayList<>();
            for (Piece p : pieces) {
                split(p, Math.min(per, p.length()), spec.size(), striped);
            }
            pieces = striped;
        }
        return new WorkPlan(spread(pieces, qps), merged);
    }

    /** QP q takes a contiguous block of the pieces, in order, over min(qps, pieces) QPs. */
    private static List<List<Piece>> spread(List<Piece> pieces, int qps) {
        int active = Math.min(qps, pieces.size());
        List<List<Piece>> perQp = new ArrayList<>();
        for (int q = 0; q < active; q++) {
            int from = (int) ((long) q * pieces.size() / active);
            int to = (int) ((long) (q + 1) * pieces.size() / active);
            perQp.add(new ArrayList<>(pieces.subList(from, to)));
        }
        return perQp;
    }

    /** Splits {@code p} into {@code n} pieces; a piece of a merged run starts in the slot its first byte is in. */
    private static void split(Piece p, long n, long slotSize, List<Piece> out) {
        long base = p.length() / n;
        long extra = p.length() % n;
        long at = p.offset();
        for (long i = 0; i < n; i++) {
            long len = base + (i < extra ? 1 : 0);
            // Merged slots are contiguous, so the slot of a byte is a division away.
            out.add(new Piece(at, len, p.transfers(), p.slot() + (int) ((at - p.offset()) / slotSize)));
            at += len;
        }
    }

    /** Index of the first work request of queue pair {@code q} in a batch (work requests counted QP by QP). */
    public int firstWorkRequest(int q) {
        int n = 0;
        for (int i = 0; i < q; i++) {
            n += perQp.get(i).size();
        }
        return n;
    }

    /** QPs that carry work; the rest of the spec's QPs stay idle (fewer pieces than QPs). */
    public int activeQps() {
        return perQp.size();
    }

    public int workRequests() {
        return perQp.stream().mapToInt(List::size).sum();
    }

    public long largest() {
        return perQp.stream()
                .flatMap(List::stream)
                .mapToLong(Piece::length)
                .max()
                .orElse(0);
    }

    /**
     * Fails before anything is posted when a WR exceeds the port's {@code max_msg_sz}, as MORI-IO
     * does, naming the sizes and the ways out.
     */
    public void checkMaxMessage(long maxMsgSize, String where, TransferSpec spec, VerbsSettings settings)
            throws TransferException {
        for (List<Piece> qp : perQp) {
            for (Piece p : qp) {
                if (p.length() > maxMsgSize) {
                    String what = p.transfers() > 1
                            ? "a merged work request of " + p.length() + " bytes (" + Units.formatSize(p.length())
                                    + ": " + p.transfers() + " contiguous transfers of " + Units.formatSize(spec.size())
                                    + ")"
                            : "a work request of " + p.length() + " bytes (" + Units.formatSize(p.length()) + ")";
                    throw new TransferException(what + " exceeds max_msg_sz " + maxMsgSize + " bytes ("
                            + Units.formatSize(maxMsgSize) + ") of " + where + "; nothing was posted. Ways out: "
                            + VerbsSettings.CHUNK_BYTES + "=" + maxMsgSize + " (or less) to split work requests"
                            + (p.transfers() > 1 ? ", " + VerbsSettings.MERGE + "=false to post one per transfer" : "")
                            + (settings.maxChunks() > 0 ? ", a larger " + VerbsSettings.MAX_CHUNKS : "")
                            + ", more QPs (qps), or a smaller " + (p.transfers() > 1 ? "batch or size" : "size"));
                }
            }
        }
    }
}
