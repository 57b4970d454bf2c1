package dev.linkproof.transfer.verbs;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.gpu.GpuDeviceInfo;
import dev.linkproof.transfer.gpu.select.GpuRuntimes;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.spi.InitiatorPoint;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.TargetContext;
import dev.linkproof.transfer.spi.TargetPoint;
import dev.linkproof.transfer.spi.Transport;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * RDMA verbs over RC queue pairs, straight on libibverbs through FFM: WRITE, READ, SEND/RECV and
 * WRITE_WITH_IMM, N QPs per point, with perftest's and MORI-IO's knobs ({@link VerbsSettings}).
 * The connection is two-phase: the target publishes its QPs, region address and rkey in PREPARED,
 * the initiator answers with its QPs in CONNECT, both go INIT → RTR → RTS.
 *
 * <p>{@link #availability()} looks at sysfs first and loads nothing when there is no RDMA device
 * ("no RDMA device: ..."); only then does it load libibverbs, whose absence is a reason too.
 */
public final class VerbsTransport implements Transport {
    public static final String ID = "verbs";
    private volatile Availability cached;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String connectionNoun() {
        return "QP";
    }

    @Override
    public Availability availability() {
        Availability a = cached;
        if (a == null) {
            a = probe();
            cached = a;
        }
        return a;
    }

    private static Availability probe() {
        return probe(DeviceChooser.system(), LibIbverbs::unavailable);
    }

    /**
     * Availability from {@code sysfs}, then the library ({@code library}: why it cannot be loaded).
     * The reason is the cause alone: whoever reports it says which transport is unavailable
     * ("verbs unavailable: libibverbs.so.1 cannot be loaded: ...", once).
     */
    static Availability probe(DeviceChooser sysfs, java.util.function.Supplier<java.util.Optional<String>> library) {
        try {
            String none = sysfs.noDeviceReason();
            if (none != null) {
                return Availability.no(none);
            }
            var why = library.get();
            if (why.isPresent()) {
                return Availability.no(why.get());
            }
            List<String> listed = VerbsDevice.deviceNames();
            if (listed.isEmpty()) {
                return Availability.no("no RDMA device: libibverbs lists none although sysfs has " + sysfs.devices()
                        + " (is the provider package ibverbs-providers installed?)");
            }
            return Availability.yes("libibverbs: " + String.join(", ", listed));
        } catch (TransferException | RuntimeException | LinkageError e) {
            return Availability.no(e.getMessage() != null ? e.getMessage() : e.toString());
        }
    }

    @Override
    public Availability supports(TransferSpec spec) {
        Availability a = availability();
        if (!a.available()) {
            return a;
        }
        if (spec.op().atomic()) {
            Availability memory = atomicMemory(spec);
            return memory.available() ? atomicCapability(spec) : memory;
        }
        if (spec.initiatorMemory().kind() == MemoryKind.GPU) {
            // The target's GPU is checked on the target, where its memory is registered.
            Availability gpu = dmabufCapable(spec.initiatorMemory().device());
            if (!gpu.available()) {
                return gpu;
            }
        }
        return a;
    }

    /**
     * Whether an atomic point's memory is what verbs atomics run on here: host memory. An atomic on GPU
     * memory (through a dma-buf MR) is not covered, whatever the NIC: {@link Availability.Kind#NOT_SUPPORTED},
     * so a profile that requires verbs skips it rather than blaming the device for what linkproof does
     * not test. Public, as {@link #atomics}, for a test's fake device to answer as verbs does.
     */
    public static Availability atomicMemory(TransferSpec spec) {
        if (spec.initiatorMemory().kind() == MemoryKind.GPU
                || spec.targetMemory().kind() == MemoryKind.GPU) {
            return Availability.notSupported(
                    "verbs atomics run on host memory here (an atomic on GPU memory through a dma-buf "
                            + "MR depends on the NIC and PCIe atomics; not covered)");
        }
        return Availability.yes("host memory");
    }

    /**
     * An atomic point on device {@code name} with these attributes: available, or not, saying why. A
     * device without atomics is {@link Availability.Kind#DEVICE_LACKS_CAPABILITY}: the hardware falls
     * short, and a profile that requires verbs fails the point. Public for a test's fake device with
     * the attributes of one that does no atomics (no real device here lacks them: rxe does them).
     */
    public static Availability atomics(String name, VerbsDevice.Attributes attributes) {
        return attributes.atomics()
                ? Availability.yes(name + ": atomic_cap " + attributes.atomicCap())
                : Availability.deviceLacks(noAtomics(name));
    }

    /** What a device without atomics makes a point say, skipped on either rank. */
    static String noAtomics(String device) {
        return device
                + " reports atomic_cap IBV_ATOMIC_NONE: it does no RDMA atomics (fetch-and-add, compare-and-swap)";
    }

    /**
     * The point's device's {@code atomic_cap}: a device that does no atomics makes an atomic point
     * unavailable (skipped, or failed as REQUIRED_CAPABILITY_UNAVAILABLE where a profile requires verbs), with the reason. Opens the
     * device for a query, once per atomic point and rank, outside anything timed.
     */
    private static Availability atomicCapability(TransferSpec spec) {
        try {
            VerbsSettings settings = VerbsSettings.of(spec);
            String name = DeviceChooser.system().choose(settings);
            try (VerbsDevice d = VerbsDevice.open(name)) {
                return atomics(name, d.attributes());
            }
        } catch (TransferException | IllegalArgumentException e) {
            // The point's own provisioning names what is wrong (a device, a setting) where it happens.
            return Availability.yes("atomic_cap not read: " + e.getMessage());
        }
    }

    /** Whether GPU {@code device}'s memory can be exported as a dma-buf for ibv_reg_dmabuf_mr. */
    static Availability dmabufCapable(int device) {
        Availability gpu = GpuRuntimes.availability(device);
        if (!gpu.available()) {
            return gpu;
        }
        GpuDeviceInfo info = GpuRuntimes.find().orElseThrow().devices().get(device);
        return info.dmabufSupported()
                ? gpu
                : Availability.no("GPU " + device + " (" + info.name()
                        + ") cannot export its memory as a dma-buf, which RDMA to GPU memory needs here (CUDA: driver"
                        + " 515+ with the open kernel module; ROCm 6.2+)");
    }

    /** The point's verbs settings; a bad one fails the point naming the key. */
    static VerbsSettings settings(TransferSpec spec) throws TransferException {
        try {
            return VerbsSettings.of(spec);
        } catch (IllegalArgumentException e) {
            throw new TransferException("bad verbs setting: " + e.getMessage(), e);
        }
    }

    @Override
    public TargetPoint serve(TransferSpec spec, Buffer region, TargetContext context) throws TransferException {
        return VerbsTargetPoint.open(spec, region, context);
    }

    @Override
    public InitiatorPoint open(TransferSpec spec, Buffer local, Map<String, String> endpoint, IoSettings io)
            throws TransferException {
        return open(spec, local, endpoint, io, Immediates.forPoint(spec));
    }

    /**
     * As {@link #open(TransferSpec, Buffer, Map, IoSettings)}, with the immediates the initiator sends
     * for WRITE_WITH_IMM computed by {@code immediates} instead of {@link Immediates#forPoint}: the seam
     * through which a test corrupts one and proves the target's check catches it.
     */
    public InitiatorPoint open(
            TransferSpec spec, Buffer local, Map<String, String> endpoint, IoSettings io, Immediates immediates)
            throws TransferException {
        return VerbsInitiatorPoint.open(spec, local, endpoint, io, immediates);
    }

    @Override
    public Map<String, String> describe() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("verbs.library", LibIbverbs.LIBRARY);
        d.put("verbs.availability", availability().reason());
        return d;
    }
}
