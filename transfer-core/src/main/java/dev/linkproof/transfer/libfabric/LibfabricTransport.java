package dev.linkproof.transfer.libfabric;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.gpu.GpuException;
import dev.linkproof.transfer.gpu.GpuRuntime;
import dev.linkproof.transfer.gpu.select.GpuRuntimes;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.memory.HostMemory;
import dev.linkproof.transfer.spi.DataPath;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.TargetContext;
import dev.linkproof.transfer.spi.TargetPoint;
import dev.linkproof.transfer.spi.Transport;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * libfabric through FFM, on reliable-datagram endpoints of whichever provider the point names (shm,
 * tcp;ofi_rxm, verbs;ofi_rxm, efa, an Ultra Ethernet NIC's): WRITE = {@code fi_writemsg}, READ =
 * {@code fi_read}, SEND = {@code fi_send} into the target's {@code fi_recv}, FETCH_ADD = {@code fi_fetch_atomic} (FI_SUM), COMPARE_SWAP =
 * {@code fi_compare_atomic} (FI_CSWAP), one endpoint per connection. What the provider does not offer
 * (its fi_getinfo has no entry with the capability) is skipped naming the capability. GPU memory goes
 * through FI_HMEM: its device pointer registered with {@code fi_mr_regattr} as the runtime's interface.
 */
public final class LibfabricTransport implements Transport {
    public static final String ID = "libfabric";

    /** What fi_getinfo answered per (provider, domain, caps): a question costs the provider's discovery. */
    private final Map<String, Availability> offers = new ConcurrentHashMap<>();
    /** What a trial registration of GPU memory answered per (provider, domain, caps, runtime). */
    private final Map<String, Availability> registrations = new ConcurrentHashMap<>();

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String connectionNoun() {
        return "ep";
    }

    @Override
    public Availability availability() {
        String why = Libfabric.unavailableReason();
        return why == null
                ? Availability.yes("libfabric " + Libfabric.lib().version() + " (" + Libfabric.LIBRARY + ")")
                : Availability.no(why);
    }

    @Override
    public Availability supports(TransferSpec spec) {
        Availability a = availability();
        if (!a.available()) {
            return a;
        }
        Op op = spec.op();
        if (op != Op.WRITE && op != Op.READ && op != Op.SEND && !op.atomic()) {
            return Availability.notSupported(
                    "libfabric supports write (fi_writemsg), read (fi_read), send (fi_send), fetch-add "
                            + "(fi_fetch_atomic) and compare-swap (fi_compare_atomic) here, not " + op.label());
        }
        LibfabricSettings settings;
        try {
            settings = LibfabricSettings.of(spec);
        } catch (IllegalArgumentException e) {
            return Availability.notSupported(e.getMessage());
        }
        if (LibfabricSettings.gpuMemory(spec)) {
            return gpuSupport(op, settings);
        }
        return offer(settings, LibfabricSettings.caps(op));
    }

    /**
     * A point of GPU memory: a GPU runtime here, a provider offering FI_HMEM, and one that registers
     * this runtime's memory ({@link #hmemRegistration}). Atomics stay on host memory: the initiator's
     * CPU writes each op's operand words into its own buffer before posting it.
     */
    private Availability gpuSupport(Op op, LibfabricSettings settings) {
        if (op.atomic()) {
            return Availability.notSupported("libfabric atomics run on host memory here: the initiator's CPU "
                    + "writes each op's operand words into its buffer, which GPU memory is not");
        }
        Availability gpu = GpuRuntimes.availability();
        if (!gpu.available()) {
            return Availability.no(
                    "libfabric GPU memory moves through FI_HMEM, and this host has no GPU runtime: " + gpu.reason());
        }
        long caps = LibfabricSettings.caps(op) | LibfabricAbi.FI_HMEM;
        Availability hmem = offer(settings, caps);
        if (!hmem.available()) {
            return hmem;
        }
        GpuRuntime runtime = GpuRuntimes.find().orElseThrow();
        String provider = settings.provider().orElse(null);
        String domain = settings.domain().orElse(null);
        return registrations.computeIfAbsent(
                provider + "|" + domain + "|" + caps + "|" + runtime.describe(),
                k -> hmemRegistration(provider, domain, caps, runtime));
    }

    /**
     * Whether the provider registers {@code runtime}'s memory: one that offers FI_HMEM may still refuse
     * an interface (a libfabric built without CUDA answers {@code -FI_ENOSYS} for FI_HMEM_CUDA), which
     * only a registration tells. A page of GPU 0 goes through the points' own path, on a domain and an
     * endpoint of its own. Refused: the provider falls short ({@link Availability.Kind#DEVICE_LACKS_CAPABILITY}),
     * so a profile that requires libfabric fails the point and any other run skips it, naming why.
     */
    static Availability hmemRegistration(String provider, String domain, long caps, GpuRuntime runtime) {
        int iface = FabricRegion.iface(runtime);
        long pointer;
        try {
            pointer = runtime.allocate(0, HostMemory.PAGE);
        } catch (GpuException e) {
            return Availability.no("libfabric cannot try an FI_HMEM registration: " + e.getMessage());
        }
        try (FabricDomain d =
                FabricDomain.open(FabricInfo.query(provider, caps, domain), LibfabricAbi.FI_CQ_FORMAT_CONTEXT, 16, 1)) {
            d.register(FabricRegion.device(pointer, HostMemory.PAGE, iface, 0), 1, d.endpoint());
            return Availability.yes("libfabric provider " + d.info.provider() + " registers "
                    + FabricRegion.ifaceName(iface) + " memory (fi_mr_regattr)");
        } catch (FabricMemory.Refused e) {
            return Availability.deviceLacks("libfabric " + Libfabric.lib().version() + " provider " + e.provider
                    + " offers FI_HMEM, yet " + e.call + " failed: " + FabricMemory.Refused.words(e.errno)
                    + (e.errno == LibfabricAbi.FI_ENOSYS
                            ? " (a libfabric built without " + FabricRegion.ifaceName(iface)
                                    + " support, or whose support did not initialize, answers so)"
                            : ""));
        } catch (TransferException | RuntimeException e) {
            return Availability.no("libfabric cannot try an FI_HMEM registration: " + e.getMessage());
        } finally {
            runtime.free(0, pointer);
        }
    }

    private Availability offer(LibfabricSettings settings, long caps) {
        String provider = settings.provider().orElse(null);
        String domain = settings.domain().orElse(null);
        return offers.computeIfAbsent(provider + "|" + domain + "|" + caps, k -> {
            try (FabricInfo info = FabricInfo.query(provider, caps, domain)) {
                return Availability.yes(
                        "libfabric " + Libfabric.lib().version() + " provider " + info.provider() + " on "
                                + info.domainName() + " offers " + FabricInfo.capsText(caps) + " (MR modes "
                                + FabricInfo.mrModeText(info.mrMode()) + ")");
            } catch (FabricInfo.NoMatch e) {
                return Availability.deviceLacks(e.getMessage());
            } catch (TransferException | RuntimeException e) {
                return Availability.no("libfabric cannot tell what its providers offer: " + e.getMessage());
            }
        });
    }

    @Override
    public TargetPoint serve(TransferSpec spec, Buffer region, TargetContext context) throws TransferException {
        return LibfabricTargetPoint.open(spec, region, context);
    }

    @Override
    public DataPath connect(TransferSpec spec, Buffer local, Map<String, String> endpoint, IoSettings io)
            throws TransferException {
        return LibfabricDataPath.connect(spec, local, endpoint, io);
    }

    @Override
    public Map<String, String> describe() {
        if (Libfabric.unavailableReason() != null) {
            return Map.of();
        }
        return Map.of("libfabric.version", Libfabric.lib().version());
    }
}
