package dev.linkproof.profiles;

import dev.linkproof.transfer.probe.GpuDevice;
import dev.linkproof.transfer.probe.PciFunction;
import dev.linkproof.transfer.probe.ProbeReport;
import dev.linkproof.transfer.probe.RdmaDevice;
import dev.linkproof.transfer.probe.RdmaPort;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Chooses the profile for a host: the most specific profile whose rules all hold, else the fallback
 * profile. Every profile's result carries its reasons, so a person can see why a host did not get
 * the profile they expected.
 */
public final class ProfileMatcher {
    private ProfileMatcher() {}

    public static MatchReport select(List<HardwareProfile> profiles, ProbeReport probe) {
        List<MatchResult> results = new ArrayList<>();
        for (HardwareProfile p : profiles) {
            results.add(match(p, probe));
        }
        Optional<MatchResult> best = results.stream()
                .filter(r -> r.matched() && !r.fallback())
                .min(Comparator.comparingInt((MatchResult r) -> -r.specificity())
                        .thenComparing(MatchResult::profileId));
        if (best.isEmpty()) {
            best = results.stream().filter(MatchResult::fallback).min(Comparator.comparing(MatchResult::profileId));
        }
        List<MatchResult> out = new ArrayList<>();
        for (MatchResult r : results) {
            if (best.isPresent() && r != best.get() && r.matched()) {
                MatchResult b = best.get();
                r = r.fallback()
                        ? r.withReason("not needed: " + b.profileId() + " matches")
                        : r.withReason("not chosen: " + b.profileId() + " is more specific (" + b.specificity() + " vs "
                                + r.specificity() + ")");
            }
            out.add(r);
        }
        return new MatchReport(best.map(MatchResult::profileId), out);
    }

    public static MatchResult match(HardwareProfile p, ProbeReport probe) {
        MatchRules rules = p.match();
        if (rules.fallback()) {
            return new MatchResult(
                    p.id(),
                    true,
                    true,
                    0,
                    List.of("fallback profile, chosen when no hardware-specific profile matches"));
        }
        if (rules.explicit()) {
            return new MatchResult(
                    p.id(),
                    false,
                    false,
                    0,
                    List.of("chosen only by its id (" + ProfileProperties.PROFILE + "=" + p.id()
                            + "), never by matching"));
        }
        List<String> reasons = new ArrayList<>();
        boolean ok = true;
        if (rules.nic().isPresent()) {
            ok &= nic(rules.nic().get(), probe, reasons);
        }
        if (rules.gpu().isPresent()) {
            ok &= gpu(rules.gpu().get(), probe, reasons);
        }
        return new MatchResult(p.id(), ok, false, rules.specificity(), reasons);
    }

    // ---- NICs ----------------------------------------------------------------------------------

    /** The devices a NIC rule accepts, in probe order. */
    public static List<RdmaDevice> matchingNics(NicRule rule, ProbeReport probe) {
        return probe.rdmaDevices().stream()
                .filter(d -> nicProblems(rule, d).isEmpty())
                .toList();
    }

    private static boolean nic(NicRule rule, ProbeReport probe, List<String> reasons) {
        if (probe.rdmaDevices().isEmpty()) {
            reasons.add("nic: no RDMA devices (/sys/class/infiniband is empty or absent)");
            return false;
        }
        List<RdmaDevice> good = new ArrayList<>();
        List<String> bad = new ArrayList<>();
        for (RdmaDevice d : probe.rdmaDevices()) {
            List<String> problems = nicProblems(rule, d);
            if (problems.isEmpty()) {
                good.add(d);
            } else {
                bad.add(label(d) + ": " + String.join(", ", problems));
            }
        }
        if (good.size() >= rule.minCount()) {
            RdmaDevice d = good.getFirst();
            reasons.add("nic: " + good.stream().map(RdmaDevice::name).collect(Collectors.joining(", ")) + " ("
                    + d.model() + ", " + (d.driver().isEmpty() ? "no driver" : d.driver())
                    + (d.firmware().isEmpty() ? "" : ", fw " + d.firmware())
                    + d.activeRateGbps().stream()
                            .mapToObj(r -> ", " + BandwidthFloor.gbits(r) + " ACTIVE")
                            .findFirst()
                            .orElse("")
                    + ")" + (rule.minCount() > 1 ? ", " + good.size() + " ≥ " + rule.minCount() + " needed" : ""));
            return true;
        }
        String need = rule.minCount() > 1
                ? "needs " + rule.minCount() + " matching RDMA devices, " + good.size() + " match"
                : "no RDMA device matches";
        reasons.add("nic: " + need);
        bad.forEach(b -> reasons.add("  " + b));
        return false;
    }

    /** Why a device fails a NIC rule; empty when it passes. */
    static List<String> nicProblems(NicRule rule, RdmaDevice d) {
        List<String> out = identityProblems(rule, d);
        out.addAll(stateProblems(Optional.of(rule), d));
        return out;
    }

    /**
     * Whether {@code d} is the kind of NIC {@code rule} is for (its PCI ids and driver), whatever its
     * state: false for any device when the rule names no kind ({@link NicRule#namesAKind}).
     */
    public static boolean ofTheKind(NicRule rule, RdmaDevice d) {
        return rule.namesAKind() && identityProblems(rule, d).isEmpty();
    }

    /** Why a device is not the kind of NIC the rule is for (PCI vendor and device, driver), whatever its state; empty when it is. */
    static List<String> identityProblems(NicRule rule, RdmaDevice d) {
        List<String> out = new ArrayList<>();
        int vendor = d.pci().map(PciFunction::vendorId).orElse(-1);
        int device = d.pci().map(PciFunction::deviceId).orElse(-1);
        if (rule.pciVendor().isPresent() && vendor != rule.pciVendor().getAsInt()) {
            out.add(
                    vendor < 0
                            ? "no PCI function (a software device)"
                            : "PCI vendor " + PciFunction.hex(vendor) + ", not "
                                    + PciFunction.hex(rule.pciVendor().getAsInt()));
        }
        if (!rule.pciDevices().isEmpty()
                && !rule.pciDevices().contains(device)
                && (rule.pciVendor().isEmpty() || vendor == rule.pciVendor().getAsInt())) {
            out.add("PCI device " + PciFunction.hex(device) + ", not "
                    + oneOf(rule.pciDevices().stream().map(PciFunction::hex).toList()));
        }
        if (!rule.drivers().isEmpty() && !rule.drivers().contains(d.driver())) {
            out.add("driver " + (d.driver().isEmpty() ? "none" : d.driver()) + ", not " + oneOf(rule.drivers()));
        }
        return out;
    }

    /**
     * Why a device of the rule's kind is not fit for it: firmware, no ACTIVE port, link rate, link
     * layer — what a pulled cable, a renegotiated link or a stale flash look like. Without a rule,
     * only the ACTIVE port counts.
     */
    static List<String> stateProblems(Optional<NicRule> optionalRule, RdmaDevice d) {
        List<String> out = new ArrayList<>();
        NicRule rule = optionalRule.orElse(null);
        if (rule != null && rule.minFirmware().isPresent()) {
            String min = rule.minFirmware().get();
            if (d.firmware().isEmpty()) {
                out.add("no firmware version (fw_ver), needs ≥ " + min);
            } else if (ProfileUnits.compareVersions(d.firmware(), min) < 0) {
                out.add("firmware " + d.firmware() + " older than " + min);
            }
        }
        List<RdmaPort> active = d.ports().stream().filter(RdmaPort::active).toList();
        if (active.isEmpty()) {
            out.add(
                    d.ports().isEmpty()
                            ? "no ports"
                            : "no ACTIVE port ("
                                    + d.ports().stream()
                                            .map(p -> "port " + p.number() + " "
                                                    + (p.state().isEmpty() ? "state unknown" : p.state()))
                                            .collect(Collectors.joining(", "))
                                    + ")");
        } else if (rule != null) {
            if (rule.linkRateGbps().isPresent()) {
                double want = rule.linkRateGbps().getAsDouble();
                if (active.stream().noneMatch(p -> Math.abs(p.rateGbps() - want) < 0.5)) {
                    out.add("link "
                            + active.stream()
                                    .map(p -> p.rateGbps() > 0 ? BandwidthFloor.gbits(p.rateGbps()) : "rate unknown")
                                    .distinct()
                                    .collect(Collectors.joining("/"))
                            + ", not " + BandwidthFloor.gbits(want));
                }
            }
            if (rule.linkLayer().isPresent()
                    && active.stream()
                            .noneMatch(p -> p.linkLayer()
                                    .equalsIgnoreCase(rule.linkLayer().get()))) {
                out.add("link layer " + active.getFirst().linkLayer() + ", not "
                        + rule.linkLayer().get());
            }
        }
        return out;
    }

    private static String label(RdmaDevice d) {
        return d.name() + " (" + d.model() + d.pci().map(p -> " " + p.ids()).orElse("") + ")";
    }

    // ---- GPUs ----------------------------------------------------------------------------------

    public static List<GpuDevice> matchingGpus(GpuRule rule, ProbeReport probe) {
        return probe.gpus().stream().filter(g -> gpuProblems(rule, g).isEmpty()).toList();
    }

    private static boolean gpu(GpuRule rule, ProbeReport probe, List<String> reasons) {
        List<GpuDevice> good = matchingGpus(rule, probe);
        String wanted = rule.vendor().orElse("any-vendor") + " GPU"
                + (rule.models().isEmpty() ? "" : " (model " + String.join(" or ", rule.models()) + ")");
        if (good.size() >= rule.minCount()) {
            reasons.add("gpu: " + good.size() + " × " + good.getFirst().vendor() + " "
                    + good.getFirst().model() + (rule.minCount() > 1 ? " (≥ " + rule.minCount() + " needed)" : ""));
            return true;
        }
        String found;
        if (probe.gpus().isEmpty()) {
            found = "found no GPU";
        } else {
            found = "found "
                    + probe.gpus().stream()
                            .map(g -> g.vendor() + " " + g.model()
                                    + (gpuProblems(rule, g).isEmpty()
                                            ? ""
                                            : " (" + String.join(", ", gpuProblems(rule, g)) + ")"))
                            .distinct()
                            .collect(Collectors.joining("; "));
        }
        reasons.add("gpu: needs " + rule.minCount() + " × " + wanted + ", "
                + (good.isEmpty() ? "" : good.size() + " match; ") + found);
        return false;
    }

    static List<String> gpuProblems(GpuRule rule, GpuDevice g) {
        List<String> out = new ArrayList<>();
        if (rule.vendor().isPresent() && !rule.vendor().get().equals(g.vendor())) {
            out.add("vendor " + g.vendor() + ", not " + rule.vendor().get());
        }
        String model = g.model().toLowerCase(Locale.ROOT);
        if (!rule.models().isEmpty()
                && rule.models().stream().noneMatch(m -> model.contains(m.toLowerCase(Locale.ROOT)))) {
            out.add("model " + g.model() + ", not " + oneOf(rule.models()));
        }
        if (!rule.pciDevices().isEmpty() && !rule.pciDevices().contains(g.pci().deviceId())) {
            out.add("PCI device " + PciFunction.hex(g.pci().deviceId()) + ", not "
                    + oneOf(rule.pciDevices().stream().map(PciFunction::hex).toList()));
        }
        return out;
    }

    private static String oneOf(List<String> values) {
        return values.size() == 1 ? values.getFirst() : "one of " + String.join(", ", values);
    }
}
