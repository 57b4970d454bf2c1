package dev.linkproof.transfer.libfabric;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.gpu.select.GpuRuntimes;
import dev.linkproof.transfer.memory.Buffer;
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
 * (its fi_getinfo has no entry with the capability) is skipped naming the capability.
 */
public final class LibfabricTransport implements Transport {
    public static final String ID = "libfabric";

    /** What fi_getinfo answered per (provider, domain, caps): a question costs the provider's discovery. */
    private final Map<String, Availability> offers = new ConcurrentHashMap<>();

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
        if (spec.initiatorMemory().kind() == MemoryKind.GPU
                || spec.targetMemory().kind() == MemoryKind.GPU) {
            Availability gpu = GpuRuntimes.availability();
            if (!gpu.available()) {
                return Availability.no("libfabric GPU memory moves through FI_HMEM, and this host has no GPU runtime: "
                        + gpu.reason());
            }
            Availability hmem = offer(settings, LibfabricSettings.caps(op) | LibfabricAbi.FI_HMEM);
            if (!hmem.available()) {
                return hmem;
            }
            return Availability.notSupported(
                    "libfabric GPU memory (FI_HMEM registration with fi_mr_regattr) is not implemented "
                            + "yet: the provider offers FI_HMEM, the transport does not use it");
        }
        return offer(settings, LibfabricSettings.caps(op));
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
