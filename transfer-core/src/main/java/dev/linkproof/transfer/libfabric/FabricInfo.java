package dev.linkproof.transfer.libfabric;

import static dev.linkproof.transfer.libfabric.LibfabricAbi.FI_DOMAIN_ATTR;
import static dev.linkproof.transfer.libfabric.LibfabricAbi.FI_EP_ATTR;
import static dev.linkproof.transfer.libfabric.LibfabricAbi.FI_FABRIC_ATTR;
import static dev.linkproof.transfer.libfabric.LibfabricAbi.FI_INFO;
import static dev.linkproof.transfer.libfabric.LibfabricAbi.offset;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.nativeaccess.Downcalls;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code fi_getinfo} answered for a provider and the capabilities a point needs: a list of
 * {@code struct fi_info} owned by this object (freed by {@link #close}), the first entry chosen. The
 * hints say what this binding can do: reliable-datagram endpoints ({@code FI_EP_RDM}), operation
 * contexts of its own ({@code FI_CONTEXT}, {@code FI_CONTEXT2}), and every memory-registration mode
 * {@link FabricMemory} honours; the provider answers with the subset it requires.
 */
final class FabricInfo implements AutoCloseable {
    /** The MR modes this binding honours (FI_MR_HMEM only where FI_HMEM is asked for). */
    static final int MR_MODES = LibfabricAbi.FI_MR_LOCAL
            | LibfabricAbi.FI_MR_VIRT_ADDR
            | LibfabricAbi.FI_MR_ALLOCATED
            | LibfabricAbi.FI_MR_PROV_KEY
            | LibfabricAbi.FI_MR_ENDPOINT;

    private static final MethodHandle STRDUP = Linker.nativeLinker()
            .downcallHandle(
                    Linker.nativeLinker().defaultLookup().find("strdup").orElseThrow(),
                    FunctionDescriptor.of(ADDRESS, ADDRESS));

    private final MemorySegment list;
    final MemorySegment info;
    /** Whether this object frees the list (a {@link #view} does not). */
    private final boolean owner;

    private boolean freed;

    private FabricInfo(MemorySegment list, MemorySegment entry, boolean owner) {
        this.list = list;
        this.info = entry.reinterpret(FI_INFO.byteSize());
        this.owner = owner;
    }

    /** Thrown when no provider entry matches: the point is skipped, naming what was asked. */
    static final class NoMatch extends TransferException {
        NoMatch(String message) {
            super(message);
        }
    }

    /**
     * fi_getinfo for {@code provider} (a name as fi_info -l lists it, "tcp;ofi_rxm" for a layered one;
     * null for any), {@code caps}, and {@code domain} (a NIC's domain name; null for any).
     */
    static FabricInfo query(String provider, long caps, String domain) throws TransferException {
        Libfabric lib = Libfabric.lib();
        return Downcalls.inArena("fi_getinfo downcall", a -> {
            MemorySegment hints =
                    ((MemorySegment) lib.dupinfo.invokeExact(MemorySegment.NULL)).reinterpret(FI_INFO.byteSize());
            if (hints.equals(MemorySegment.NULL)) {
                throw new TransferException("fi_allocinfo (fi_dupinfo(NULL)) returned NULL");
            }
            try {
                hints.set(JAVA_LONG, offset(FI_INFO, "caps"), caps);
                hints.set(JAVA_LONG, offset(FI_INFO, "mode"), LibfabricAbi.FI_CONTEXT | LibfabricAbi.FI_CONTEXT2);
                if ((caps & LibfabricAbi.FI_MSG) != 0) {
                    // Sends land in their receives in the order sent: where the plan puts them (LibfabricReceiver).
                    attr(hints, "tx_attr", LibfabricAbi.FI_TX_ATTR.byteSize())
                            .set(JAVA_LONG, offset(LibfabricAbi.FI_TX_ATTR, "msg_order"), LibfabricAbi.FI_ORDER_SAS);
                    attr(hints, "rx_attr", LibfabricAbi.FI_RX_ATTR.byteSize())
                            .set(JAVA_LONG, offset(LibfabricAbi.FI_RX_ATTR, "msg_order"), LibfabricAbi.FI_ORDER_SAS);
                }
                MemorySegment ep = attr(hints, "ep_attr", FI_EP_ATTR.byteSize());
                ep.set(JAVA_INT, offset(FI_EP_ATTR, "type"), LibfabricAbi.FI_EP_RDM);
                MemorySegment dom = attr(hints, "domain_attr", FI_DOMAIN_ATTR.byteSize());
                int modes = MR_MODES | ((caps & LibfabricAbi.FI_HMEM) != 0 ? LibfabricAbi.FI_MR_HMEM : 0);
                dom.set(JAVA_INT, offset(FI_DOMAIN_ATTR, "mr_mode"), modes);
                // Strings in the hints are freed by fi_freeinfo: they must come from malloc. The domain is
                // chosen from the answer instead (inDomain): a NIC's name is not always its domain's.
                if (provider != null) {
                    MemorySegment fab = attr(hints, "fabric_attr", FI_FABRIC_ATTR.byteSize());
                    fab.set(ADDRESS, offset(FI_FABRIC_ATTR, "prov_name"), (MemorySegment)
                            STRDUP.invokeExact(a.allocateFrom(provider)));
                }
                MemorySegment out = a.allocate(ADDRESS);
                int rc = (int) lib.getinfo.invokeExact(
                        LibfabricAbi.API_VERSION, MemorySegment.NULL, MemorySegment.NULL, 0L, hints, out);
                if (rc == -LibfabricAbi.FI_ENODATA) {
                    throw new NoMatch("libfabric " + lib.version() + " has no "
                            + (provider == null ? "provider" : "provider " + provider)
                            + (domain == null ? "" : " on domain " + domain) + " offering " + capsText(caps)
                            + ((caps & LibfabricAbi.FI_MSG) != 0 ? " in send-after-send order (FI_ORDER_SAS)" : "")
                            + " on reliable-datagram endpoints (FI_EP_RDM) with the MR modes this binding honours");
                }
                check(rc, "fi_getinfo");
                MemorySegment first = out.get(ADDRESS, 0);
                FabricInfo all = new FabricInfo(first, first, true);
                return domain == null ? all : all.inDomain(domain, provider, caps);
            } finally {
                lib.freeinfo.invokeExact(hints);
            }
        });
    }

    /**
     * This answer narrowed to the first entry on {@code domain}: a domain of that name, or one named
     * after the device it runs on ({@code efa}'s reliable-datagram domain of device rdmap16s27 is
     * {@code rdmap16s27-rdm}), so a profile's NIC names a rail's domain for every provider. None: this
     * answer is freed and the failure lists the domains there are.
     */
    private FabricInfo inDomain(String domain, String provider, long caps) throws TransferException {
        java.util.Set<String> seen = new java.util.LinkedHashSet<>();
        for (MemorySegment e : entries()) {
            String name = view(e).domainName();
            if (name.equals(domain) || name.startsWith(domain + "-")) {
                return new FabricInfo(list, e, true);
            }
            seen.add(name);
        }
        close();
        throw new NoMatch("libfabric " + Libfabric.lib().version() + " has no domain " + domain + " of "
                + (provider == null ? "any provider" : "provider " + provider) + " offering " + capsText(caps)
                + " (its domains: " + String.join(", ", seen) + ")");
    }

    private static MemorySegment attr(MemorySegment info, String name, long size) {
        return info.get(ADDRESS, offset(FI_INFO, name)).reinterpret(size);
    }

    /** Fails with fi_strerror's words when {@code rc} is negative. */
    static void check(long rc, String call) throws TransferException {
        if (rc < 0) {
            throw new TransferException(call + " failed: " + Libfabric.lib().strerror((int) -rc) + " (" + -rc + ")");
        }
    }

    static String capsText(long caps) {
        List<String> names = new ArrayList<>();
        if ((caps & LibfabricAbi.FI_MSG) != 0) {
            names.add("FI_MSG");
        }
        if ((caps & LibfabricAbi.FI_RMA) != 0) {
            names.add("FI_RMA");
        }
        if ((caps & LibfabricAbi.FI_ATOMIC) != 0) {
            names.add("FI_ATOMIC");
        }
        if ((caps & LibfabricAbi.FI_HMEM) != 0) {
            names.add("FI_HMEM");
        }
        return String.join(" | ", names);
    }

    static String mrModeText(int mode) {
        String[] names = {
            "FI_MR_BASIC",
            "FI_MR_SCALABLE",
            "FI_MR_LOCAL",
            "FI_MR_RAW",
            "FI_MR_VIRT_ADDR",
            "FI_MR_ALLOCATED",
            "FI_MR_PROV_KEY",
            "FI_MR_MMU_NOTIFY",
            "FI_MR_RMA_EVENT",
            "FI_MR_ENDPOINT",
            "FI_MR_HMEM",
            "FI_MR_COLLECTIVE"
        };
        List<String> on = new ArrayList<>();
        for (int b = 0; b < names.length; b++) {
            if ((mode & (1 << b)) != 0) {
                on.add(names[b]);
            }
        }
        return on.isEmpty() ? "none" : String.join(" | ", on);
    }

    long caps() {
        return info.get(JAVA_LONG, offset(FI_INFO, "caps"));
    }

    long mode() {
        return info.get(JAVA_LONG, offset(FI_INFO, "mode"));
    }

    int mrMode() {
        return attr(info, "domain_attr", FI_DOMAIN_ATTR.byteSize()).get(JAVA_INT, offset(FI_DOMAIN_ATTR, "mr_mode"));
    }

    long maxMessageSize() {
        return attr(info, "ep_attr", FI_EP_ATTR.byteSize()).get(JAVA_LONG, offset(FI_EP_ATTR, "max_msg_size"));
    }

    String provider() {
        return string(
                attr(info, "fabric_attr", FI_FABRIC_ATTR.byteSize()).get(ADDRESS, offset(FI_FABRIC_ATTR, "prov_name")));
    }

    String fabricName() {
        return string(
                attr(info, "fabric_attr", FI_FABRIC_ATTR.byteSize()).get(ADDRESS, offset(FI_FABRIC_ATTR, "name")));
    }

    String domainName() {
        return string(
                attr(info, "domain_attr", FI_DOMAIN_ATTR.byteSize()).get(ADDRESS, offset(FI_DOMAIN_ATTR, "name")));
    }

    private static String string(MemorySegment s) {
        return s.equals(MemorySegment.NULL) ? "" : s.reinterpret(4096).getString(0);
    }

    /** Every entry of the answer (the probe lists them), as views of this object's list. */
    List<MemorySegment> entries() {
        List<MemorySegment> all = new ArrayList<>();
        for (MemorySegment e = info;
                !e.equals(MemorySegment.NULL);
                e = e.get(ADDRESS, offset(FI_INFO, "next")).reinterpret(FI_INFO.byteSize())) {
            all.add(e);
        }
        return all;
    }

    /** The same questions of another entry of this list; closing it frees nothing. */
    FabricInfo view(MemorySegment entry) {
        return new FabricInfo(list, entry, false);
    }

    @Override
    public synchronized void close() {
        if (freed || !owner) {
            return;
        }
        freed = true;
        try {
            Libfabric.lib().freeinfo.invokeExact(list);
        } catch (Throwable t) {
            throw new IllegalStateException("fi_freeinfo failed: " + t, t);
        }
    }
}
