package dev.linkproof.transfer.libfabric;

import dev.linkproof.transfer.TransferException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One provider and domain that libfabric offers reliable-datagram endpoints on, as the probe reports
 * it: which of the capabilities the transport uses it has, and the memory-registration modes it asks
 * for.
 *
 * @param provider as {@code fi_info -l} and {@code libfabric.provider} name it ({@code tcp;ofi_rxm})
 * @param domain   as {@code libfabric.domain} names it (a NIC, an interface, {@code shm})
 * @param caps     those of FI_MSG, FI_RMA, FI_ATOMIC, FI_HMEM it has, e.g. "FI_MSG | FI_RMA"
 * @param mrModes  the MR modes it asks for, e.g. "FI_MR_LOCAL | FI_MR_VIRT_ADDR", or "none"
 */
public record FabricProvider(String provider, String domain, String caps, String mrModes) {
    /**
     * Every (provider, domain) fi_getinfo lists for RDM endpoints with the MR modes this binding
     * honours, in libfabric's order; empty where libfabric is absent. Never throws: the probe reports
     * what it can.
     */
    public static List<FabricProvider> discover() {
        if (Libfabric.unavailableReason() != null) {
            return List.of();
        }
        Map<String, FabricProvider> found = new LinkedHashMap<>();
        try (FabricInfo all = FabricInfo.query(null, 0, null)) {
            for (var entry : all.entries()) {
                FabricInfo e = all.view(entry);
                long known = LibfabricAbi.FI_MSG | LibfabricAbi.FI_RMA | LibfabricAbi.FI_ATOMIC | LibfabricAbi.FI_HMEM;
                String caps = FabricInfo.capsText(e.caps() & known);
                found.putIfAbsent(e.provider() + "|" + e.domainName(), new FabricProvider(e.provider(), e.domainName(),
                        caps.isEmpty() ? "none" : caps, FabricInfo.mrModeText(e.mrMode())));
            }
        } catch (TransferException | RuntimeException e) {
            return List.of();
        }
        return new ArrayList<>(found.values());
    }

    /** The libfabric library's version, when it loads. */
    public static java.util.Optional<String> libraryVersion() {
        return Libfabric.unavailableReason() == null ? java.util.Optional.of(Libfabric.lib().version() + " (" + Libfabric.LIBRARY + ")")
                : java.util.Optional.empty();
    }
}
