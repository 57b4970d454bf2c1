package dev.linkproof.transfer.verbs;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.gpu.GpuBuffer;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.memory.HostMemory;
import dev.linkproof.transfer.nativeaccess.FileDescriptors;
import dev.linkproof.transfer.spi.PeerEndpoint;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One rank's verbs resources for one point: device, PD, the region's MR, one CQ (with a completion
 * channel in event mode) shared by the point's RC QPs, and the QPs themselves, in INIT until
 * {@link #connect} takes the peer's half (QPNs, PSNs, GID/LID, MTU) to RTR and RTS. Both ranks
 * build one; what differs (queue depths, inline) comes in as arguments.
 */
final class QpSet implements AutoCloseable {
    static final int ACCESS =
            (int) (VerbsAbi.ACCESS_LOCAL_WRITE | VerbsAbi.ACCESS_REMOTE_WRITE | VerbsAbi.ACCESS_REMOTE_READ);
    /**
     * An atomic point's MRs and QPs also allow remote atomics; only theirs: a device without atomics
     * may refuse the flag, and no other point should fail for it.
     */
    static final int ACCESS_ATOMIC = ACCESS | (int) VerbsAbi.ACCESS_REMOTE_ATOMIC;

    private static final SecureRandom RANDOM = new SecureRandom();

    final VerbsSettings settings;
    final VerbsDevice device;
    final VerbsDevice.PortAttributes port;
    final int gidIndex;
    final byte[] gid;
    final VerbsDevice.ProtectionDomain pd;
    final VerbsDevice.MemoryRegion mr;
    final VerbsDevice.CompletionChannel channel;
    final VerbsDevice.CompletionQueue cq;
    final List<VerbsDevice.QueuePair> qps = new ArrayList<>();
    final int[] psns;
    final int rdAtomic;
    /** Whether the CPU can read the region (inline data is copied by it): not so for GPU memory. */
    final boolean cpuReadable;

    int pathMtu;
    private final List<AutoCloseable> owned = new ArrayList<>();

    /**
     * @param sendWr    send-queue depth per QP
     * @param recvWr    receive-queue depth per QP
     * @param inline    inline bytes wanted; {@code -1} = the device's maximum
     * @param cqEntries completion-queue size
     * @param event     whether the CQ gets a completion channel
     */
    QpSet(
            TransferSpec spec,
            VerbsSettings settings,
            Buffer region,
            int qpCount,
            int sendWr,
            int recvWr,
            int inline,
            int cqEntries,
            boolean event)
            throws TransferException {
        this.settings = settings;
        this.cpuReadable = !region.hostViewIsCopy();
        DeviceChooser chooser = DeviceChooser.system();
        String name = chooser.choose(settings);
        try {
            device = own(open(name, settings));
            port = device.queryPort(settings.port());
            if (!port.active()) {
                throw new TransferException(
                        "port " + settings.port() + " of " + name + " is not ACTIVE (state " + port.state() + ")");
            }
            gidIndex = chooser.gidIndex(name, settings);
            gid = device.queryGid(settings.port(), gidIndex);
            VerbsDevice.Attributes caps = device.attributes();
            if (spec.op().atomic() && !caps.atomics()) {
                // supports() says so before a point is provisioned; a device swapped since is caught here.
                throw new TransferException(VerbsTransport.noAtomics(name));
            }
            int access = spec.op().atomic() ? ACCESS_ATOMIC : ACCESS;
            rdAtomic = Math.max(
                    1, Math.min(settings.rdAtomic().orElse(caps.maxQpRdAtom()), Math.max(1, caps.maxQpRdAtom())));
            pathMtu = Math.min(
                    port.activeMtu(),
                    settings.mtuBytes().isPresent()
                            ? VerbsSettings.mtuEnum(settings.mtuBytes().getAsInt())
                            : port.activeMtu());
            pd = own(device.allocPd());
            mr = own(region instanceof GpuBuffer gpu ? registerGpu(pd, gpu) : pd.register(region.segment(), access));
            channel = event ? own(device.createCompletionChannel()) : null;
            cq = own(device.createCq(Math.min(Math.max(cqEntries, 1), caps.maxCqe()), channel));
            int send = Math.min(Math.max(sendWr, 1), caps.maxQpWr());
            int recv = Math.min(Math.max(recvWr, 1), caps.maxQpWr());
            psns = new int[qpCount];
            for (int i = 0; i < qpCount; i++) {
                VerbsDevice.QueuePair qp = own(createQp(send, recv, inline));
                qp.toInit(settings.port(), access);
                qps.add(qp);
                psns[i] = RANDOM.nextInt(1 << 24);
            }
        } catch (TransferException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * GPU memory is registered as a dma-buf the GPU runtime exports (GPUDirect RDMA without
     * nvidia-peermem), with the device address as its iova, so work requests name device addresses
     * exactly as they name host ones. The file descriptor is closed once the MR holds the dma-buf.
     */
    private static VerbsDevice.MemoryRegion registerGpu(VerbsDevice.ProtectionDomain pd, GpuBuffer gpu)
            throws TransferException {
        long pages = (gpu.size() + HostMemory.PAGE - 1) / HostMemory.PAGE * HostMemory.PAGE;
        int fd = gpu.runtime().exportDmabuf(gpu.device(), gpu.devicePointer(), pages);
        try {
            return pd.registerDmabuf(0, gpu.size(), gpu.devicePointer(), fd, ACCESS);
        } catch (TransferException e) {
            throw new TransferException(
                    "GPU " + gpu.device() + " memory cannot be registered for RDMA: " + e.getMessage()
                            + " (the NIC's driver must import dma-bufs: mlx5 and bnxt_re do, rxe does not)",
                    e);
        } finally {
            FileDescriptors.close(fd);
        }
    }

    /** Creates a QP asking for {@code inline} bytes; on refusal asks for half, down to none. */
    private VerbsDevice.QueuePair createQp(int send, int recv, int inline) throws TransferException {
        int want = inline < 0 ? 4096 : inline;
        while (true) {
            try {
                return pd.createRcQp(cq, cq, send, recv, 1, want);
            } catch (TransferException e) {
                if (want == 0) {
                    throw e;
                }
                want = want <= 16 ? 0 : want / 2;
            }
        }
    }

    private <T extends AutoCloseable> T own(T resource) {
        owned.add(resource);
        return resource;
    }

    /** This rank's half: what the peer needs to reach these QPs. */
    Map<String, String> endpoint() {
        Map<String, String> e = new LinkedHashMap<>();
        e.put("verbs.device", device.name());
        e.put("verbs.lid", Integer.toString(port.lid()));
        e.put("verbs.gid", HexFormat.of().formatHex(gid));
        e.put("verbs.gidIndex", Integer.toString(gidIndex));
        e.put("verbs.mtu", Integer.toString(pathMtu));
        e.put("verbs.rdAtomic", Integer.toString(rdAtomic));
        e.put("verbs.maxMsg", Long.toString(port.maxMessageSize()));
        StringBuilder qpn = new StringBuilder();
        StringBuilder psn = new StringBuilder();
        for (int i = 0; i < qps.size(); i++) {
            qpn.append(i == 0 ? "" : ",").append(qps.get(i).qpNum());
            psn.append(i == 0 ? "" : ",").append(psns[i]);
        }
        e.put("verbs.qpn", qpn.toString());
        e.put("verbs.psn", psn.toString());
        return e;
    }

    /** Moves every QP to RTR against the peer's half, then to RTS. */
    void connect(Map<String, String> peer) throws TransferException {
        PeerEndpoint e = PeerEndpoint.of("verbs", peer);
        int[] qpn = e.numbers("verbs.qpn", 0, 0xFF_FFFF);
        int[] psn = e.numbers("verbs.psn", 0, 0xFF_FFFF);
        if (qpn.length != qps.size() || psn.length != qps.size()) {
            throw new TransferException("the peer has " + qpn.length + " QPs, this rank " + qps.size()
                    + " (the two ranks planned the point differently)");
        }
        byte[] peerGid = e.hex("verbs.gid");
        if (peerGid.length != 16) {
            throw new TransferException(
                    "verbs endpoint from the peer has a GID of " + peerGid.length + " bytes, not 16");
        }
        int peerLid = (int) e.number("verbs.lid", 0, 0xFFFF);
        pathMtu = Math.min(pathMtu, (int) e.number("verbs.mtu", 1, 5)); // enum ibv_mtu: 256..4096 bytes
        int peerRd = (int) e.number("verbs.rdAtomic", 1, 255);
        boolean global = port.ethernet() || settings.gidIndex().isPresent();
        for (int i = 0; i < qps.size(); i++) {
            VerbsDevice.QueuePair qp = qps.get(i);
            qp.toRtr(
                    settings.port(),
                    pathMtu,
                    qpn[i],
                    psn[i],
                    peerLid,
                    peerGid,
                    gidIndex,
                    global,
                    Math.min(rdAtomic, peerRd));
            qp.toRts(psns[i], Math.min(rdAtomic, peerRd));
        }
    }

    int inlineGranted() {
        return qps.isEmpty() ? 0 : qps.getFirst().maxInline();
    }

    int sendDepth() {
        return qps.isEmpty() ? 0 : qps.getFirst().maxSendWr();
    }

    String where() {
        return device.name() + " port " + settings.port();
    }

    String describe() {
        return device.name() + " port " + settings.port() + " (max_msg_sz " + port.maxMessageSize() + ")";
    }

    @Override
    public void close() {
        // Reverse order: QPs before the CQ, the CQ before its channel, MR before PD, PD before the device.
        for (int i = owned.size() - 1; i >= 0; i--) {
            try {
                owned.get(i).close();
            } catch (Exception ignored) {
                // releasing what was made; the first failure is what the caller reports
            }
        }
        owned.clear();
    }

    /**
     * Opens the device; a name that the point's settings gave and that libibverbs does not list says
     * where it came from, since that is where the user mistyped it.
     */
    private static VerbsDevice open(String name, VerbsSettings settings) throws TransferException {
        try {
            return VerbsDevice.open(name);
        } catch (VerbsDevice.NoSuchDeviceException e) {
            if (settings.device().isEmpty()) {
                throw e;
            }
            throw new TransferException(
                    e.getMessage() + ", named by the point's " + VerbsSettings.DEVICE
                            + " setting (the engine fills it from linkproof.verbs.device, else the profile's NIC)",
                    e);
        }
    }
}
