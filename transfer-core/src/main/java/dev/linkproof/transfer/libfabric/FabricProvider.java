package dev.linkproof.transfer.libfabric;

import dev.linkproof.transfer.TransferException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One provider and domain offering reliable-datagram endpoints, as the probe reports it.
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
        // Asked per capability: a provider lists only its default caps to a question without any (ofi_rxm
        // offers FI_ATOMIC when asked, and omits it otherwise).
        Map<String, long[]> caps = new LinkedHashMap<>();
        Map<String, String> modes = new LinkedHashMap<>();
        for (long cap :
                new long[] {LibfabricAbi.FI_MSG, LibfabricAbi.FI_RMA, LibfabricAbi.FI_ATOMIC, LibfabricAbi.FI_HMEM}) {
            try (FabricInfo all = FabricInfo.query(null, cap, null)) {
                for (var entry : all.entries()) {
                    FabricInfo e = all.view(entry);
                    String key = e.provider() + "|" + e.domainName();
                    caps.computeIfAbsent(key, k -> new long[1])[0] |= e.caps() & cap;
                    modes.putIfAbsent(key, FabricInfo.mrModeText(e.mrMode()));
                }
            } catch (FabricInfo.NoMatch e) {
                // no provider has it
            } catch (TransferException | RuntimeException e) {
                return List.of();
            }
        }
        List<FabricProvider> found = new ArrayList<>();
        caps.forEach((key, c) -> {
            int bar = key.indexOf('|');
            String text = FabricInfo.capsText(c[0]);
            found.add(new FabricProvider(
                    key.substring(0, bar), key.substring(bar + 1), text.isEmpty() ? "none" : text, modes.get(key)));
        });
        return found;
    }

    /** The libfabric library's version, when it loads. */
    public static java.util.Optional<String> libraryVersion() {
        return Libfabric.unavailableReason() == null
                ? java.util.Optional.of(Libfabric.lib().version() + " (" + Libfabric.LIBRARY + ")")
                : java.util.Optional.empty();
    }
}
