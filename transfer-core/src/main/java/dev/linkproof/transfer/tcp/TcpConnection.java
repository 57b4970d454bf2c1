package dev.linkproof.transfer.tcp;

import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.memory.Buffer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * One data connection of a {@link TcpDataPath}: a send cursor and a response cursor over its share
 * of every batch. Its own class because the data path drives several and only pumps them.
 */
final class TcpConnection {
    final int index;
    final SocketChannel ch;
    final SelectionKey key;
    final ByteBuffer[][] sends;
    final ByteBuffer[] payloads;
    final long[] starts;
    final int[] responseOps;
    final boolean readsPayload;
    /** Non-null for GPU memory: each read payload is pushed to the device once it has arrived. */
    final Buffer staged;

    final ByteBuffer response = ByteBuffer.allocateDirect(TcpWire.RESPONSE_BYTES);

    long sentBatches;
    int sendIndex;
    boolean sending;
    long receivedBatches;
    int responseIndex;
    boolean inPayload;
    int interest = -1;

    TcpConnection(
            int index,
            SocketChannel ch,
            SelectionKey key,
            ByteBuffer[][] sends,
            ByteBuffer[] payloads,
            long[] starts,
            int[] responseOps,
            boolean readsPayload,
            Buffer staged) {
        this.index = index;
        this.ch = ch;
        this.key = key;
        this.sends = sends;
        this.payloads = payloads;
        this.starts = starts;
        this.responseOps = responseOps;
        this.readsPayload = readsPayload;
        this.staged = staged;
    }

    /** Writes as much of the posted batches as the socket takes. */
    boolean pumpWrites(long posted) throws PeerFailureException {
        boolean moved = false;
        try {
            while (sentBatches < posted) {
                ByteBuffer[] bufs = sends[sendIndex];
                if (!sending) {
                    for (ByteBuffer b : bufs) {
                        b.clear();
                    }
                    sending = true;
                }
                long n = ch.write(bufs);
                moved |= n > 0;
                if (bufs[bufs.length - 1].hasRemaining()) {
                    return moved;
                }
                sending = false;
                if (++sendIndex == sends.length) {
                    sendIndex = 0;
                    sentBatches++;
                }
            }
            return moved;
        } catch (IOException e) {
            throw new PeerFailureException(
                    "tcp data connection " + index + " failed while sending: " + e.getMessage()
                            + " (did the target rank die?)",
                    e);
        }
    }

    /** Reads whatever responses (and read payloads) have arrived. */
    boolean pumpReads() throws TransferException {
        boolean moved = false;
        try {
            while (receivedBatches < sentBatches || (receivedBatches == sentBatches && responsePending())) {
                if (!inPayload) {
                    int n = ch.read(response);
                    if (n < 0) {
                        throw eof();
                    }
                    moved |= n > 0;
                    if (response.hasRemaining()) {
                        return moved;
                    }
                    int status = response.getInt(0);
                    if (status != TcpWire.STATUS_OK) {
                        throw refused(status, response.getInt(4));
                    }
                    response.clear();
                    if (readsPayload) {
                        payloads[responseOps[responseIndex]].clear();
                        inPayload = true;
                    } else {
                        advance();
                        continue;
                    }
                }
                ByteBuffer payload = payloads[responseOps[responseIndex]];
                int n = ch.read(payload);
                if (n < 0) {
                    throw eof();
                }
                moved |= n > 0;
                if (payload.hasRemaining()) {
                    return moved;
                }
                if (staged != null) {
                    int op = responseOps[responseIndex];
                    staged.pushHostView(starts[op], payloads[op].capacity());
                }
                inPayload = false;
                advance();
            }
            return moved;
        } catch (IOException e) {
            throw new PeerFailureException(
                    "tcp data connection " + index + " failed while receiving: " + e.getMessage()
                            + " (did the target rank die?)",
                    e);
        }
    }

    /** Whether an op already sent in the current (partly sent) batch still owes a response. */
    private boolean responsePending() {
        return responseIndex < responseOps.length && responseOps[responseIndex] < sendIndex;
    }

    private void advance() {
        if (++responseIndex == responseOps.length) {
            responseIndex = 0;
            receivedBatches++;
        }
    }

    void updateInterest(long posted) {
        int want = SelectionKey.OP_READ;
        if (sentBatches < posted) {
            want |= SelectionKey.OP_WRITE;
        }
        if (want != interest) {
            key.interestOps(want);
            interest = want;
        }
    }

    private PeerFailureException eof() {
        return new PeerFailureException(
                "the target rank closed tcp data connection " + index + " mid-transfer (did it die?)");
    }

    private TransferException refused(int status, int messageLength) throws IOException {
        // The message follows the header at once; the channel stays non-blocking (it is
        // registered with the selector), so poll briefly for it.
        ByteBuffer text = ByteBuffer.allocate(Math.max(0, Math.min(messageLength, 4096)));
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (text.hasRemaining() && System.nanoTime() < deadline) {
            if (ch.read(text) < 0) {
                break;
            }
            if (text.hasRemaining()) {
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
            }
        }
        return new TransferException(
                "the target refused a request on connection " + index + " (" + TcpWire.statusName(status) + "): "
                        + new String(text.array(), 0, text.position(), StandardCharsets.UTF_8));
    }
}
