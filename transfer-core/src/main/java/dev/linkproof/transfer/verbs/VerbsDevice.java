package dev.linkproof.transfer.verbs;

import static dev.linkproof.transfer.verbs.VerbsAbi.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.memory.HostLimits;
import dev.linkproof.transfer.nativeaccess.Downcalls;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * An opened verbs device ({@code struct ibv_context}) and the resources made on it, each closed in
 * reverse order of creation by its user. The data-path calls are {@code static inline} in
 * {@code verbs.h}; like the header, this reads them from {@code context->ops} (offsets in
 * {@link VerbsAbi}) once per context, so the measured loop calls straight into the provider.
 *
 * <p>Longer than 400 lines because each resource is an inner class bound to its context: it posts
 * and polls through the context's ops handles, which apart would be exposed to the whole package.
 */
public final class VerbsDevice implements AutoCloseable {
    /** errno values (Linux): out of memory, and not permitted, both what pinning past RLIMIT_MEMLOCK gives. */
    private static final int ENOMEM = 12;

    private static final int EPERM = 1;
    private final LibIbverbs lib;
    private final String name;
    private final MemorySegment context;
    private final Attributes attributes;
    final MethodHandle postSend;
    final MethodHandle postRecv;
    final MethodHandle pollCq;
    final MethodHandle reqNotifyCq;
    private boolean closed;

    /** What {@code ibv_query_device} says about the device, the fields the transport sizes things by. */
    public record Attributes(
            String firmware,
            long maxMrSize,
            int vendorPartId,
            int maxQp,
            int maxQpWr,
            int maxSge,
            int maxCqe,
            int maxQpRdAtom,
            int maxQpInitRdAtom,
            int physPortCount,
            int atomicCap) {
        /** Whether the device does RDMA atomics at all ({@code atomic_cap} is not IBV_ATOMIC_NONE). */
        public boolean atomics() {
            return atomicCap != ATOMIC_NONE;
        }
    }

    /** What {@code ibv_query_port} says about one port. */
    public record PortAttributes(
            int state, int maxMtu, int activeMtu, int gidTableLength, long maxMessageSize, int lid, int linkLayer) {
        public boolean active() {
            return state == PORT_ACTIVE;
        }

        public boolean ethernet() {
            return linkLayer == LINK_LAYER_ETHERNET;
        }
    }

    private VerbsDevice(LibIbverbs lib, String name, MemorySegment context) throws TransferException {
        this.lib = lib;
        this.name = name;
        this.context = context.reinterpret(CONTEXT_SIZE);
        MemorySegment ops = this.context.asSlice(CONTEXT_OPS, CONTEXT_OPS_SIZE);
        this.postSend = LibIbverbs.opHandle(ops.get(ADDRESS, OPS_POST_SEND), LibIbverbs.POST_SEND);
        this.postRecv = LibIbverbs.opHandle(ops.get(ADDRESS, OPS_POST_RECV), LibIbverbs.POST_RECV);
        this.pollCq = LibIbverbs.opHandle(ops.get(ADDRESS, OPS_POLL_CQ), LibIbverbs.POLL_CQ);
        this.reqNotifyCq = LibIbverbs.opHandle(ops.get(ADDRESS, OPS_REQ_NOTIFY_CQ), LibIbverbs.REQ_NOTIFY_CQ);
        this.attributes = queryDevice();
    }

    /** The names of the devices libibverbs lists (its providers found them). */
    public static List<String> deviceNames() throws TransferException {
        LibIbverbs lib = LibIbverbs.get();
        return Downcalls.inArena("ibv_get_device_list downcall", arena -> {
            MemorySegment capture = LibIbverbs.newCapture(arena);
            MemorySegment count = arena.allocate(JAVA_INT);
            MemorySegment list = (MemorySegment) lib.getDeviceList.invokeExact(capture, count);
            if (list.address() == 0) {
                throw new TransferException("ibv_get_device_list failed: " + lib.strerror(LibIbverbs.errno(capture)));
            }
            try {
                int n = count.get(JAVA_INT, 0);
                MemorySegment devices = list.reinterpret(ADDRESS.byteSize() * n);
                List<String> names = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    MemorySegment dev = devices.getAtIndex(ADDRESS, i);
                    MemorySegment s = (MemorySegment) lib.getDeviceName.invokeExact(dev);
                    names.add(s.reinterpret(256).getString(0));
                }
                return names;
            } finally {
                lib.freeDeviceList.invokeExact(list);
            }
        });
    }

    /** {@link #open} found no device of that name among those libibverbs lists. */
    static final class NoSuchDeviceException extends TransferException {
        NoSuchDeviceException(String wanted, List<String> listed) {
            super("no RDMA device '" + wanted + "' (libibverbs lists: " + listed + ")");
        }
    }

    /** Opens the device called {@code wanted}. */
    public static VerbsDevice open(String wanted) throws TransferException {
        LibIbverbs lib = LibIbverbs.get();
        return Downcalls.inArena("opening RDMA device " + wanted, arena -> {
            MemorySegment capture = LibIbverbs.newCapture(arena);
            MemorySegment count = arena.allocate(JAVA_INT);
            MemorySegment list = (MemorySegment) lib.getDeviceList.invokeExact(capture, count);
            if (list.address() == 0) {
                throw new TransferException("ibv_get_device_list failed: " + lib.strerror(LibIbverbs.errno(capture)));
            }
            try {
                int n = count.get(JAVA_INT, 0);
                MemorySegment devices = list.reinterpret(ADDRESS.byteSize() * n);
                List<String> seen = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    MemorySegment dev = devices.getAtIndex(ADDRESS, i);
                    String devName = ((MemorySegment) lib.getDeviceName.invokeExact(dev))
                            .reinterpret(256)
                            .getString(0);
                    seen.add(devName);
                    if (devName.equals(wanted)) {
                        MemorySegment ctx = (MemorySegment) lib.openDevice.invokeExact(capture, dev);
                        if (ctx.address() == 0) {
                            throw new TransferException("ibv_open_device(" + wanted + ") failed: "
                                    + lib.strerror(LibIbverbs.errno(capture)));
                        }
                        return new VerbsDevice(lib, devName, ctx);
                    }
                }
                throw new NoSuchDeviceException(wanted, seen);
            } finally {
                lib.freeDeviceList.invokeExact(list);
            }
        });
    }

    public String name() {
        return name;
    }

    public Attributes attributes() {
        return attributes;
    }

    MemorySegment context() {
        return context;
    }

    LibIbverbs lib() {
        return lib;
    }

    private Attributes queryDevice() throws TransferException {
        return Downcalls.inArena("ibv_query_device downcall", arena -> {
            MemorySegment a = arena.allocate(DEVICE_ATTR_SIZE, 8);
            int rc = (int) lib.queryDevice.invokeExact(context, a);
            check(rc, "ibv_query_device");
            byte[] fw = a.asSlice(DEVICE_ATTR_FW_VER, DEVICE_ATTR_FW_VER_BYTES).toArray(JAVA_BYTE);
            int len = 0;
            while (len < fw.length && fw[len] != 0) {
                len++;
            }
            return new Attributes(
                    new String(fw, 0, len, java.nio.charset.StandardCharsets.US_ASCII),
                    a.get(JAVA_LONG, DEVICE_ATTR_MAX_MR_SIZE),
                    a.get(JAVA_INT, DEVICE_ATTR_VENDOR_PART_ID),
                    a.get(JAVA_INT, DEVICE_ATTR_MAX_QP),
                    a.get(JAVA_INT, DEVICE_ATTR_MAX_QP_WR),
                    a.get(JAVA_INT, DEVICE_ATTR_MAX_SGE),
                    a.get(JAVA_INT, DEVICE_ATTR_MAX_CQE),
                    a.get(JAVA_INT, DEVICE_ATTR_MAX_QP_RD_ATOM),
                    a.get(JAVA_INT, DEVICE_ATTR_MAX_QP_INIT_RD_ATOM),
                    Byte.toUnsignedInt(a.get(JAVA_BYTE, DEVICE_ATTR_PHYS_PORT_CNT)),
                    a.get(JAVA_INT, DEVICE_ATTR_ATOMIC_CAP));
        });
    }

    /**
     * {@code ibv_query_port}. The header's {@code ibv_query_port} is a macro over an inline that
     * prefers the extended op; the exported symbol is the compat entry, which fills only the older
     * prefix of {@code struct ibv_port_attr}: zero the whole struct (as the inline does) and read
     * fields of that prefix only.
     */
    public PortAttributes queryPort(int port) throws TransferException {
        return Downcalls.inArena("ibv_query_port downcall", arena -> {
            MemorySegment a = arena.allocate(PORT_ATTR_SIZE, 8); // Arena.allocate zeroes
            int rc = (int) lib.queryPort.invokeExact(context, (byte) port, a);
            check(rc, "ibv_query_port(" + name + ", port " + port + ")");
            return new PortAttributes(
                    a.get(JAVA_INT, PORT_ATTR_STATE),
                    a.get(JAVA_INT, PORT_ATTR_MAX_MTU),
                    a.get(JAVA_INT, PORT_ATTR_ACTIVE_MTU),
                    a.get(JAVA_INT, PORT_ATTR_GID_TBL_LEN),
                    Integer.toUnsignedLong(a.get(JAVA_INT, PORT_ATTR_MAX_MSG_SZ)),
                    Short.toUnsignedInt(a.get(JAVA_SHORT, PORT_ATTR_LID)),
                    Byte.toUnsignedInt(a.get(JAVA_BYTE, PORT_ATTR_LINK_LAYER)));
        });
    }

    /** {@code ibv_query_gid}: the 16 raw bytes of one GID table entry. */
    public byte[] queryGid(int port, int index) throws TransferException {
        return Downcalls.inArena("ibv_query_gid downcall", arena -> {
            MemorySegment gid = arena.allocate(GID_SIZE, 8);
            int rc = (int) lib.queryGid.invokeExact(context, (byte) port, index, gid);
            check(rc, "ibv_query_gid(" + name + ", port " + port + ", index " + index + ")");
            return gid.toArray(JAVA_BYTE);
        });
    }

    public ProtectionDomain allocPd() throws TransferException {
        return Downcalls.inArena("ibv_alloc_pd downcall", arena -> {
            MemorySegment capture = LibIbverbs.newCapture(arena);
            MemorySegment pd = (MemorySegment) lib.allocPd.invokeExact(capture, context);
            if (pd.address() == 0) {
                throw new TransferException(
                        "ibv_alloc_pd(" + name + ") failed: " + lib.strerror(LibIbverbs.errno(capture)));
            }
            return new ProtectionDomain(pd);
        });
    }

    public CompletionChannel createCompletionChannel() throws TransferException {
        return Downcalls.inArena("ibv_create_comp_channel downcall", arena -> {
            MemorySegment capture = LibIbverbs.newCapture(arena);
            MemorySegment ch = (MemorySegment) lib.createCompChannel.invokeExact(capture, context);
            if (ch.address() == 0) {
                throw new TransferException(
                        "ibv_create_comp_channel failed: " + lib.strerror(LibIbverbs.errno(capture)));
            }
            return new CompletionChannel(ch.reinterpret(COMP_CHANNEL_FD + 8));
        });
    }

    /** {@code ibv_create_cq} with {@code cqe} entries; {@code channel} may be null (polling only). */
    public CompletionQueue createCq(int cqe, CompletionChannel channel) throws TransferException {
        return Downcalls.inArena("ibv_create_cq downcall", arena -> {
            MemorySegment capture = LibIbverbs.newCapture(arena);
            // A local, not a ?: inside invokeExact: its static type must be exactly MemorySegment.
            MemorySegment ch = channel == null ? MemorySegment.NULL : channel.segment;
            MemorySegment cq =
                    (MemorySegment) lib.createCq.invokeExact(capture, context, cqe, MemorySegment.NULL, ch, 0);
            if (cq.address() == 0) {
                throw new TransferException("ibv_create_cq(" + cqe + " entries) failed: "
                        + lib.strerror(LibIbverbs.errno(capture)) + " (device max_cqe " + attributes.maxCqe() + ")");
            }
            return new CompletionQueue(cq, channel);
        });
    }

    void check(int rc, String what) throws TransferException {
        if (rc != 0) {
            // These calls return an errno value (positive) or -1 with errno set; both read well.
            throw new TransferException(what + " failed: " + lib.strerror(Math.abs(rc)));
        }
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            try {
                int rc = (int) lib.closeDevice.invokeExact(context);
            } catch (Throwable ignored) {
                // closing
            }
        }
    }

    private static void destroy(MethodHandle h, MemorySegment p) {
        try {
            int rc = (int) h.invokeExact(p);
        } catch (Throwable ignored) {
            // releasing on a path that is already failing or closing
        }
    }

    /** {@code struct ibv_pd}. */
    public final class ProtectionDomain implements AutoCloseable {
        final MemorySegment pd;
        private boolean closed;

        ProtectionDomain(MemorySegment pd) {
            this.pd = pd;
        }

        /** {@code ibv_reg_mr} over host memory. */
        public MemoryRegion register(MemorySegment memory, int access) throws TransferException {
            return Downcalls.inArena("ibv_reg_mr downcall", arena -> {
                MemorySegment capture = LibIbverbs.newCapture(arena);
                MemorySegment mr =
                        (MemorySegment) lib.regMr.invokeExact(capture, pd, memory, memory.byteSize(), access);
                if (mr.address() == 0) {
                    int errno = LibIbverbs.errno(capture);
                    // ENOMEM and EPERM are what the kernel answers when pinning would pass RLIMIT_MEMLOCK.
                    throw new TransferException(
                            "ibv_reg_mr of " + memory.byteSize() + " bytes failed: " + lib.strerror(errno)
                                    + (errno == ENOMEM || errno == EPERM
                                            ? " (" + HostLimits.here().lockedMemoryNote(memory.byteSize()) + ")"
                                            : ""));
                }
                return new MemoryRegion(mr.reinterpret(MR_RKEY + 4));
            });
        }

        /**
         * {@code ibv_reg_dmabuf_mr}: registers memory exported as a dma-buf file descriptor, as GPU
         * runtimes export device memory (CUDA {@code cuMemGetHandleForAddressRange}, HIP
         * {@code hipMemGetHandleForAddressRange}), for GPUDirect RDMA without nvidia-peermem.
         */
        public MemoryRegion registerDmabuf(long offset, long length, long iova, int fd, int access)
                throws TransferException {
            return Downcalls.inArena("ibv_reg_dmabuf_mr downcall", arena -> {
                MemorySegment capture = LibIbverbs.newCapture(arena);
                MemorySegment mr =
                        (MemorySegment) lib.regDmabufMr.invokeExact(capture, pd, offset, length, iova, fd, access);
                if (mr.address() == 0) {
                    throw new TransferException("ibv_reg_dmabuf_mr(fd " + fd + ", " + length + " bytes) failed: "
                            + lib.strerror(LibIbverbs.errno(capture)));
                }
                return new MemoryRegion(mr.reinterpret(MR_RKEY + 4));
            });
        }

        /** {@code ibv_create_qp} for an RC queue pair, then nothing more: it is in RESET. */
        public QueuePair createRcQp(
                CompletionQueue sendCq, CompletionQueue recvCq, int maxSendWr, int maxRecvWr, int maxSge, int maxInline)
                throws TransferException {
            return Downcalls.inArena("ibv_create_qp downcall", arena -> {
                MemorySegment capture = LibIbverbs.newCapture(arena);
                MemorySegment init = arena.allocate(QP_INIT_ATTR_SIZE, 8);
                init.set(ADDRESS, QP_INIT_ATTR_SEND_CQ, sendCq.cq);
                init.set(ADDRESS, QP_INIT_ATTR_RECV_CQ, recvCq.cq);
                MemorySegment cap = init.asSlice(QP_INIT_ATTR_CAP);
                cap.set(JAVA_INT, QP_CAP_MAX_SEND_WR, maxSendWr);
                cap.set(JAVA_INT, QP_CAP_MAX_RECV_WR, maxRecvWr);
                cap.set(JAVA_INT, QP_CAP_MAX_SEND_SGE, maxSge);
                cap.set(JAVA_INT, QP_CAP_MAX_RECV_SGE, maxSge);
                cap.set(JAVA_INT, QP_CAP_MAX_INLINE_DATA, maxInline);
                init.set(JAVA_INT, QP_INIT_ATTR_QP_TYPE, (int) QPT_RC);
                init.set(JAVA_INT, QP_INIT_ATTR_SQ_SIG_ALL, 0);
                MemorySegment qp = (MemorySegment) lib.createQp.invokeExact(capture, pd, init);
                if (qp.address() == 0) {
                    throw new TransferException("ibv_create_qp(RC, send_wr " + maxSendWr + ", recv_wr " + maxRecvWr
                            + ", inline " + maxInline + ") failed: " + lib.strerror(LibIbverbs.errno(capture)));
                }
                return new QueuePair(
                        qp.reinterpret(QP_STATE + 4),
                        cap.get(JAVA_INT, QP_CAP_MAX_SEND_WR),
                        cap.get(JAVA_INT, QP_CAP_MAX_RECV_WR),
                        cap.get(JAVA_INT, QP_CAP_MAX_INLINE_DATA));
            });
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                destroy(lib.deallocPd, pd);
            }
        }
    }

    /** {@code struct ibv_mr}: its keys and the range it covers. */
    public final class MemoryRegion implements AutoCloseable {
        final MemorySegment mr;
        private boolean closed;

        MemoryRegion(MemorySegment mr) {
            this.mr = mr;
        }

        public int lkey() {
            return mr.get(JAVA_INT, MR_LKEY);
        }

        public int rkey() {
            return mr.get(JAVA_INT, MR_RKEY);
        }

        public long address() {
            return mr.get(JAVA_LONG, MR_ADDR);
        }

        public long length() {
            return mr.get(JAVA_LONG, MR_LENGTH);
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                destroy(lib.deregMr, mr);
            }
        }
    }

    /** {@code struct ibv_comp_channel}: a file descriptor that becomes readable when an armed CQ completes. */
    public final class CompletionChannel implements AutoCloseable {
        final MemorySegment segment;
        private boolean closed;

        CompletionChannel(MemorySegment segment) {
            this.segment = segment;
        }

        public int fd() {
            return segment.get(JAVA_INT, COMP_CHANNEL_FD);
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                destroy(lib.destroyCompChannel, segment);
            }
        }
    }

    /** {@code struct ibv_cq}, polled through the context's {@code poll_cq} op. */
    public final class CompletionQueue implements AutoCloseable {
        final MemorySegment cq;
        final CompletionChannel channel;
        /** Scratch for the event path: ibv_get_cq_event's two out-pointers and one pollfd. */
        private final Arena scratchArena = Arena.ofShared();

        private final MemorySegment eventCq = scratchArena.allocate(ADDRESS);
        private final MemorySegment eventContext = scratchArena.allocate(ADDRESS);
        private final MemorySegment pollfd = scratchArena.allocate(POLLFD_SIZE, 8);
        private int unacked;
        private boolean closed;

        CompletionQueue(MemorySegment cq, CompletionChannel channel) {
            this.cq = cq;
            this.channel = channel;
        }

        /** {@code ibv_poll_cq}: up to {@code n} completions into {@code wcs}; negative on error. */
        public int poll(int n, MemorySegment wcs) throws TransferException {
            try {
                return (int) pollCq.invokeExact(cq, n, wcs);
            } catch (Throwable t) {
                throw new TransferException("poll_cq downcall failed: " + t, t);
            }
        }

        /** {@code ibv_req_notify_cq(cq, 0)}: arm for the next completion. */
        public void arm() throws TransferException {
            int rc;
            try {
                rc = (int) reqNotifyCq.invokeExact(cq, 0);
            } catch (Throwable t) {
                throw new TransferException("req_notify_cq downcall failed: " + t, t);
            }
            check(rc, "ibv_req_notify_cq");
        }

        /**
         * Waits up to {@code timeoutMillis} for the armed CQ's event: {@code poll(2)} on the channel's
         * fd, then {@code ibv_get_cq_event} (which would block without the poll) and an ack. Returns
         * false when the time ran out.
         */
        public boolean awaitEvent(int timeoutMillis) throws TransferException {
            if (channel == null) {
                throw new IllegalStateException("this CQ has no completion channel");
            }
            try {
                LibIbverbs.setPollFd(pollfd, channel.fd());
                int n = (int) lib.poll.invokeExact(pollfd, 1L, timeoutMillis);
                if (n <= 0) {
                    return false; // timeout, or EINTR: the caller re-checks its deadline
                }
                int rc = (int) lib.getCqEvent.invokeExact(channel.segment, eventCq, eventContext);
                check(rc, "ibv_get_cq_event");
                // Acks are batched: ibv_ack_cq_events takes a mutex; destroying the CQ needs all acked.
                if (++unacked >= 64) {
                    lib.ackCqEvents.invokeExact(cq, unacked);
                    unacked = 0;
                }
                return true;
            } catch (TransferException e) {
                throw e;
            } catch (Throwable t) {
                throw new TransferException("completion channel wait failed: " + t, t);
            }
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                if (unacked > 0) {
                    try {
                        lib.ackCqEvents.invokeExact(cq, unacked);
                    } catch (Throwable ignored) {
                        // closing
                    }
                }
                destroy(lib.destroyCq, cq);
                scratchArena.close();
            }
        }
    }

    /** An RC {@code struct ibv_qp}: RESET → INIT → RTR → RTS, then posted to through the ops table. */
    public final class QueuePair implements AutoCloseable {
        final MemorySegment qp;
        private final int maxSendWr;
        private final int maxRecvWr;
        private final int maxInline;
        private final Arena scratchArena = Arena.ofShared();
        private final MemorySegment badWr = scratchArena.allocate(ADDRESS);
        private boolean closed;

        QueuePair(MemorySegment qp, int maxSendWr, int maxRecvWr, int maxInline) {
            this.qp = qp;
            this.maxSendWr = maxSendWr;
            this.maxRecvWr = maxRecvWr;
            this.maxInline = maxInline;
        }

        public int qpNum() {
            return qp.get(JAVA_INT, QP_QP_NUM);
        }

        public int maxSendWr() {
            return maxSendWr;
        }

        public int maxRecvWr() {
            return maxRecvWr;
        }

        /** The inline size the provider granted (it may round the request up). */
        public int maxInline() {
            return maxInline;
        }

        public void toInit(int port, int access) throws TransferException {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment a = arena.allocate(QP_ATTR_SIZE, 8);
                a.set(JAVA_INT, QP_ATTR_QP_STATE, (int) QPS_INIT);
                a.set(JAVA_SHORT, QP_ATTR_PKEY_INDEX, (short) 0);
                a.set(JAVA_BYTE, QP_ATTR_PORT_NUM, (byte) port);
                a.set(JAVA_INT, QP_ATTR_QP_ACCESS_FLAGS, access);
                modify(
                        a,
                        (int) (QP_ATTR_MASK_STATE
                                | QP_ATTR_MASK_PKEY_INDEX
                                | QP_ATTR_MASK_PORT
                                | QP_ATTR_MASK_ACCESS_FLAGS),
                        "INIT");
            }
        }

        /**
         * RTR: the remote QP's number and first PSN, the path MTU (an {@code ibv_mtu} value), and the
         * address: a GRH with the remote GID for RoCE (or when {@code global} on InfiniBand), the LID otherwise.
         */
        public void toRtr(
                int port,
                int mtu,
                int remoteQpn,
                int remotePsn,
                int remoteLid,
                byte[] remoteGid,
                int sgidIndex,
                boolean global,
                int maxDestRdAtomic)
                throws TransferException {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment a = arena.allocate(QP_ATTR_SIZE, 8);
                a.set(JAVA_INT, QP_ATTR_QP_STATE, (int) QPS_RTR);
                a.set(JAVA_INT, QP_ATTR_PATH_MTU, mtu);
                a.set(JAVA_INT, QP_ATTR_DEST_QP_NUM, remoteQpn);
                a.set(JAVA_INT, QP_ATTR_RQ_PSN, remotePsn);
                a.set(JAVA_BYTE, QP_ATTR_MAX_DEST_RD_ATOMIC, (byte) maxDestRdAtomic);
                a.set(JAVA_BYTE, QP_ATTR_MIN_RNR_TIMER, (byte) 1); // 0.01 ms: a late receive is retried soon
                MemorySegment ah = a.asSlice(QP_ATTR_AH_ATTR);
                ah.set(JAVA_SHORT, AH_ATTR_DLID, (short) remoteLid);
                ah.set(JAVA_BYTE, AH_ATTR_SL, (byte) 0);
                ah.set(JAVA_BYTE, AH_ATTR_PORT_NUM, (byte) port);
                if (global) {
                    ah.set(JAVA_BYTE, AH_ATTR_IS_GLOBAL, (byte) 1);
                    MemorySegment grh = ah.asSlice(AH_ATTR_GRH);
                    MemorySegment.copy(MemorySegment.ofArray(remoteGid), 0, grh, GRH_DGID, GID_SIZE);
                    grh.set(JAVA_BYTE, GRH_SGID_INDEX, (byte) sgidIndex);
                    grh.set(JAVA_BYTE, GRH_HOP_LIMIT, (byte) 64);
                    grh.set(JAVA_INT, GRH_FLOW_LABEL, 0);
                    grh.set(JAVA_BYTE, GRH_TRAFFIC_CLASS, (byte) 0);
                }
                modify(
                        a,
                        (int) (QP_ATTR_MASK_STATE
                                | QP_ATTR_MASK_AV
                                | QP_ATTR_MASK_PATH_MTU
                                | QP_ATTR_MASK_DEST_QPN
                                | QP_ATTR_MASK_RQ_PSN
                                | QP_ATTR_MASK_MAX_DEST_RD_ATOMIC
                                | QP_ATTR_MASK_MIN_RNR_TIMER),
                        "RTR");
            }
        }

        /** RTS: this side's first PSN; retries as perftest sets them (timeout 14, retry 7, RNR retry 7 = forever). */
        public void toRts(int psn, int maxRdAtomic) throws TransferException {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment a = arena.allocate(QP_ATTR_SIZE, 8);
                a.set(JAVA_INT, QP_ATTR_QP_STATE, (int) QPS_RTS);
                a.set(JAVA_INT, QP_ATTR_SQ_PSN, psn);
                a.set(JAVA_BYTE, QP_ATTR_TIMEOUT, (byte) 14);
                a.set(JAVA_BYTE, QP_ATTR_RETRY_CNT, (byte) 7);
                a.set(JAVA_BYTE, QP_ATTR_RNR_RETRY, (byte) 7);
                a.set(JAVA_BYTE, QP_ATTR_MAX_RD_ATOMIC, (byte) maxRdAtomic);
                modify(
                        a,
                        (int) (QP_ATTR_MASK_STATE
                                | QP_ATTR_MASK_SQ_PSN
                                | QP_ATTR_MASK_TIMEOUT
                                | QP_ATTR_MASK_RETRY_CNT
                                | QP_ATTR_MASK_RNR_RETRY
                                | QP_ATTR_MASK_MAX_QP_RD_ATOMIC),
                        "RTS");
            }
        }

        private void modify(MemorySegment attr, int mask, String state) throws TransferException {
            int rc;
            try {
                rc = (int) lib.modifyQp.invokeExact(qp, attr, mask);
            } catch (Throwable t) {
                throw new TransferException("ibv_modify_qp downcall failed: " + t, t);
            }
            check(rc, "ibv_modify_qp(QP " + qpNum() + " -> " + state + ")");
        }

        /** {@code ibv_post_send} of a pre-built list; returns 0 or an errno value. Allocation-free. */
        public int postSend(MemorySegment firstWr) throws TransferException {
            try {
                return (int) postSend.invokeExact(qp, firstWr, badWr);
            } catch (Throwable t) {
                throw new TransferException("post_send downcall failed: " + t, t);
            }
        }

        /** {@code ibv_post_recv} of a pre-built list; returns 0 or an errno value. */
        public int postRecv(MemorySegment firstWr) throws TransferException {
            try {
                return (int) postRecv.invokeExact(qp, firstWr, badWr);
            } catch (Throwable t) {
                throw new TransferException("post_recv downcall failed: " + t, t);
            }
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                destroy(lib.destroyQp, qp);
                scratchArena.close();
            }
        }
    }
}
