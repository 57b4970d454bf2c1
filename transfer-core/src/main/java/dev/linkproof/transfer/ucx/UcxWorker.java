package dev.linkproof.transfer.ucx;

import static dev.linkproof.transfer.ucx.Ucx.check;
import static dev.linkproof.transfer.ucx.Ucx.lib;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.linkproof.transfer.Deadline;
import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.nativeaccess.Downcalls;
import dev.linkproof.transfer.spi.PeerLiveness;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;

/**
 * A UCP worker in single-thread mode: created, progressed and destroyed by one platform thread.
 * Every wait here progresses the worker, so transports that emulate RMA with messages (tcp) keep
 * moving, and every wait has a deadline.
 */
final class UcxWorker implements AutoCloseable {
    private static final VarHandle W_MASK = Ucx.WORKER_PARAMS.varHandle(groupElement("field_mask"));
    private static final VarHandle W_THREAD = Ucx.WORKER_PARAMS.varHandle(groupElement("thread_mode"));
    private static final VarHandle E_MASK = Ucx.EP_PARAMS.varHandle(groupElement("field_mask"));
    private static final VarHandle E_ADDRESS = Ucx.EP_PARAMS.varHandle(groupElement("address"));
    private static final VarHandle E_MODE = Ucx.EP_PARAMS.varHandle(groupElement("err_mode"));
    private static final VarHandle E_CB = Ucx.EP_PARAMS.varHandle(groupElement("err_handler_cb"));
    private static final VarHandle E_ARG = Ucx.EP_PARAMS.varHandle(groupElement("err_handler_arg"));
    private static final VarHandle R_MASK = Ucx.REQUEST_PARAM.varHandle(groupElement("op_attr_mask"));
    private static final VarHandle R_FLAGS = Ucx.REQUEST_PARAM.varHandle(groupElement("flags"));

    /** One upcall for every endpoint: it stores the status into the byte its arg points to. */
    private static final MemorySegment ERROR_HANDLER;

    static {
        try {
            var mh = MethodHandles.lookup()
                    .findStatic(
                            UcxWorker.class,
                            "onEndpointError",
                            MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, byte.class));
            ERROR_HANDLER = Linker.nativeLinker()
                    .upcallStub(mh, FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_BYTE), Arena.global());
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final MemorySegment handle;
    private final Arena arena = Arena.ofShared();
    /** op_attr_mask = 0: contiguous bytes, no callback; shared by every put, get and flush. */
    final MemorySegment noParams;

    private boolean closed;

    private UcxWorker(MemorySegment handle) {
        this.handle = handle;
        // The arena owns the bytes; the hot downcalls get a view of them with the global scope,
        // because a segment of a shared arena costs two atomic updates of its session per downcall
        // (keeping it alive during the call). The view is used only while the worker is open.
        MemorySegment owned = arena.allocate(Ucx.REQUEST_PARAM);
        this.noParams = MemorySegment.ofAddress(owned.address()).reinterpret(owned.byteSize());
    }

    /** Never lets anything escape into native code: an escaping exception would kill the JVM. */
    private static void onEndpointError(MemorySegment arg, MemorySegment ep, byte status) {
        try {
            arg.reinterpret(1).set(JAVA_BYTE, 0, status == 0 ? (byte) -1 : status);
        } catch (Throwable ignored) {
            // nowhere to report it; the wait that follows times out instead
        }
    }

    static UcxWorker create(UcxContext context) throws TransferException {
        return Downcalls.inArena("ucp_worker_create downcall", a -> {
            MemorySegment params = a.allocate(Ucx.WORKER_PARAMS);
            W_MASK.set(params, 0L, Ucx.UCP_WORKER_PARAM_FIELD_THREAD_MODE);
            W_THREAD.set(params, 0L, Ucx.UCS_THREAD_MODE_SINGLE);
            MemorySegment out = a.allocate(ADDRESS);
            Ucx.checkLimits(
                    (byte) lib().workerCreate.invokeExact(context.handle, params, out),
                    "ucp_worker_create",
                    Ucx.WORKER_SHM_BYTES,
                    0);
            return new UcxWorker(out.get(ADDRESS, 0));
        });
    }

    byte[] address() throws TransferException {
        Ucx.Lib l = lib();
        return Downcalls.inArena("ucp_worker_get_address downcall", a -> {
            MemorySegment addr = a.allocate(ADDRESS);
            MemorySegment len = a.allocate(JAVA_LONG);
            check((byte) l.workerGetAddress.invokeExact(handle, addr, len), "ucp_worker_get_address");
            MemorySegment p = addr.get(ADDRESS, 0).reinterpret(len.get(JAVA_LONG, 0));
            byte[] bytes = p.toArray(JAVA_BYTE);
            l.workerReleaseAddress.invokeExact(handle, p);
            return bytes;
        });
    }

    int progress() {
        try {
            return (int) lib().workerProgress.invokeExact(handle);
        } catch (Throwable t) {
            throw new IllegalStateException("ucp_worker_progress failed", t);
        }
    }

    /** The worker's event fd, or -1 where its transports cannot wake a sleeper. */
    int eventFd() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment fd = a.allocate(java.lang.foreign.ValueLayout.JAVA_INT);
            byte st = (byte) lib().workerGetEfd.invokeExact(handle, fd);
            return st == Ucx.UCS_OK ? fd.get(java.lang.foreign.ValueLayout.JAVA_INT, 0) : -1;
        } catch (Throwable t) {
            return -1;
        }
    }

    /**
     * Arms the worker and sleeps in poll(2) on {@code pollFd} (a struct pollfd for the event fd)
     * for at most {@code timeoutMillis}; returns at once when events are already pending.
     */
    void sleep(MemorySegment pollFd, int timeoutMillis) {
        try {
            byte st = (byte) lib().workerArm.invokeExact(handle);
            if (st == Ucx.UCS_OK) {
                int ignored = (int) lib().poll.invokeExact(pollFd, 1L, timeoutMillis);
            }
        } catch (Throwable t) {
            throw new IllegalStateException("ucp_worker_arm/poll failed", t);
        }
    }

    /**
     * An endpoint to the worker at {@code remoteAddress}, in peer error-handling mode when
     * {@code peerErrors}; a failure is then recorded in {@code errorSlot} (one byte, non-zero once
     * the endpoint has failed). Where the transports cannot detect peer failure, UCX refuses peer
     * mode and the endpoint is created without it: a dead peer then shows as a missed deadline.
     */
    MemorySegment connect(byte[] remoteAddress, MemorySegment errorSlot, boolean peerErrors) throws TransferException {
        return Downcalls.inArena("ucp_ep_create downcall", a -> {
            MemorySegment address = a.allocate(remoteAddress.length);
            address.copyFrom(MemorySegment.ofArray(remoteAddress));
            MemorySegment params = a.allocate(Ucx.EP_PARAMS);
            E_MASK.set(
                    params,
                    0L,
                    peerErrors
                            ? Ucx.UCP_EP_PARAM_FIELD_REMOTE_ADDRESS
                                    | Ucx.UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE
                                    | Ucx.UCP_EP_PARAM_FIELD_ERR_HANDLER
                            : Ucx.UCP_EP_PARAM_FIELD_REMOTE_ADDRESS);
            E_ADDRESS.set(params, 0L, address);
            E_MODE.set(params, 0L, Ucx.UCP_ERR_HANDLING_MODE_PEER);
            E_CB.set(params, 0L, ERROR_HANDLER);
            E_ARG.set(params, 0L, errorSlot);
            MemorySegment out = a.allocate(ADDRESS);
            byte st = (byte) lib().epCreate.invokeExact(handle, params, out);
            if (st == Ucx.UCS_ERR_UNREACHABLE && peerErrors) {
                // UCX 1.13's shared-memory transports cannot detect peer failure: without peer
                // error handling they connect, and a dead peer shows as a missed deadline instead.
                E_MASK.set(params, 0L, Ucx.UCP_EP_PARAM_FIELD_REMOTE_ADDRESS);
                st = (byte) lib().epCreate.invokeExact(handle, params, out);
            }
            check(st, "ucp_ep_create");
            return out.get(ADDRESS, 0);
        });
    }

    /** ucp_worker_flush_nbx: a request (or NULL when done at once) covering every op posted so far. */
    MemorySegment flush() throws TransferException {
        try {
            MemorySegment r = (MemorySegment) Ucx.Hot.WORKER_FLUSH.invokeExact(handle, noParams);
            Ucx.checkPtr(r, "ucp_worker_flush_nbx");
            return r;
        } catch (TransferException | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new TransferException("ucx downcall failed: " + t, t);
        }
    }

    /**
     * Progresses until {@code request} completes (NULL = already done), then frees it. Fails with a
     * {@link PeerFailureException} when the worker makes no progress for {@code timeoutNanos} while
     * the request is pending, when an endpoint reports an error, when {@code peer} says the target
     * is gone, or when the request completes with a status that says so. The deadline, the endpoint
     * slots and the peer are looked at every 1024 turns of the loop, so the fast path is two downcalls.
     * A missed deadline names {@link Deadline#PROGRESS}: the data path passes its progress deadline
     * (its close passes what is left of a shorter one, and drops the failure).
     */
    void await(MemorySegment request, long timeoutNanos, MemorySegment errorSlots, PeerLiveness peer, String what)
            throws TransferException {
        if (request.address() == 0) {
            return;
        }
        try {
            long lastProgress = 0;
            boolean progressed = false;
            int turns = 0;
            while (true) {
                byte st = (byte) Ucx.Hot.REQUEST_CHECK_STATUS.invokeExact(request);
                if (st != Ucx.UCS_INPROGRESS) {
                    Ucx.Hot.REQUEST_FREE.invokeExact(request);
                    if (st != Ucx.UCS_OK) {
                        throw failure(what + " failed: " + Ucx.statusString(st), st, errorSlots);
                    }
                    return;
                }
                progressed |= (int) Ucx.Hot.WORKER_PROGRESS.invokeExact(handle) != 0;
                if ((++turns & 0x3ff) == 0) {
                    long now = System.nanoTime();
                    if (progressed || lastProgress == 0) {
                        lastProgress = now;
                        progressed = false;
                    }
                    String stop = null;
                    boolean expired = false;
                    String gone = peer.goneBecause();
                    String failed = failedEndpoints(errorSlots);
                    if (gone != null) {
                        stop = what + " stopped: " + gone + failed;
                    } else if (!failed.isEmpty()) {
                        stop = what + " cannot complete" + failed + " (did the target rank die?)";
                    } else if (now - lastProgress > timeoutNanos) {
                        stop = what + " made no progress for " + timeoutNanos / 1_000_000
                                + " ms: the target rank is hung or unreachable (did the target rank die?)";
                        expired = true;
                    }
                    if (stop != null) {
                        // Released by UCX once it completes (the endpoints' close cancels it).
                        Ucx.Hot.REQUEST_FREE.invokeExact(request);
                        PeerFailureException failure = new PeerFailureException(stop);
                        throw expired ? failure.expired(Deadline.PROGRESS) : failure;
                    }
                }
            }
        } catch (TransferException | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new TransferException("ucx downcall failed: " + t, t);
        }
    }

    /**
     * The exception for a UCX operation that failed with {@code status}: a peer failure when the
     * status or an endpoint says the other side went away, else an error of this side.
     */
    static TransferException failure(String message, byte status, MemorySegment errorSlots) {
        String failed = failedEndpoints(errorSlots);
        if (Ucx.isPeerFailure(status) || !failed.isEmpty()) {
            return new PeerFailureException(message + failed + " (did the target rank die?)");
        }
        return new Ucx.UcxException(message + " (" + status + ")", status);
    }

    static String failedEndpoints(MemorySegment errorSlots) {
        if (errorSlots == null) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        for (long i = 0; i < errorSlots.byteSize(); i++) {
            byte st = errorSlots.get(JAVA_BYTE, i);
            if (st != 0) {
                b.append(b.isEmpty() ? ": " : ", ")
                        .append("endpoint ")
                        .append(i)
                        .append(" failed (")
                        .append(Ucx.statusString(st))
                        .append(')');
            }
        }
        return b.toString();
    }

    /**
     * Closes an endpoint: flushing it first unless {@code force} (a dead or failed peer cannot take
     * part in a flush; a forced close cancels what is outstanding and asks nothing of it). Progresses
     * until the close completes, {@code deadlineNanos} (a {@link System#nanoTime()} value) passes, or
     * {@code peer} reports the target gone; what is left is released when the worker is destroyed.
     */
    void closeEndpoint(MemorySegment ep, boolean force, long deadlineNanos, PeerLiveness peer) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment params = a.allocate(Ucx.REQUEST_PARAM);
            R_MASK.set(params, 0L, Ucx.UCP_OP_ATTR_FIELD_FLAGS);
            R_FLAGS.set(params, 0L, force ? Ucx.UCP_EP_CLOSE_FLAG_FORCE : 0);
            MemorySegment r = (MemorySegment) lib().epClose.invokeExact(ep, params);
            if (Ucx.isPointer(r)) {
                int turns = 0;
                while ((byte) lib().requestCheckStatus.invokeExact(r) == Ucx.UCS_INPROGRESS) {
                    int ignored = (int) lib().workerProgress.invokeExact(handle);
                    if ((++turns & 0xff) == 0
                            && (System.nanoTime() - deadlineNanos > 0 || peer.goneBecause() != null && !force)) {
                        break;
                    }
                }
                // Freed even when it is still pending: UCX releases it once it completes.
                lib().requestFree.invokeExact(r);
            }
        } catch (Throwable t) {
            // closing: nothing more to do
        }
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            try {
                lib().workerDestroy.invokeExact(handle);
            } catch (Throwable t) {
                throw new IllegalStateException("ucp_worker_destroy failed", t);
            } finally {
                arena.close();
            }
        }
    }
}
