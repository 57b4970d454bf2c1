package dev.linkproof.transfer.probe;

import dev.linkproof.transfer.gpu.GpuDeviceInfo;
import dev.linkproof.transfer.gpu.GpuRuntime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Joins the GPUs sysfs shows with those a loaded GPU runtime enumerates. Where a runtime is there,
 * its list is the one that counts — its ordinals are what a placed {@code gpu:N} names, and it hides what
 * {@code CUDA_VISIBLE_DEVICES} or {@code ROCR_VISIBLE_DEVICES} hide — and each device keeps what
 * sysfs knows of it (NUMA node, driver, DRM card, the model name profiles match), found by PCI
 * address. A runtime device sysfs does not show keeps the runtime's name and address alone.
 */
final class GpuInventory {
    private GpuInventory() {}

    static List<GpuDevice> merge(List<GpuDevice> fromSysfs, Optional<GpuRuntime> runtime) {
        if (runtime.isEmpty()) {
            return fromSysfs;
        }
        GpuRuntime rt = runtime.get();
        List<GpuDevice> out = new ArrayList<>();
        for (GpuDeviceInfo d : rt.devices()) {
            GpuDevice.RuntimeView view =
                    new GpuDevice.RuntimeView(rt.describe(), d.name(), d.totalBytes(), d.dmabufSupported());
            Optional<GpuDevice> bus = fromSysfs.stream()
                    .filter(g -> g.pci().address().toLowerCase(Locale.ROOT).equals(d.pciBusId()))
                    .findFirst();
            if (bus.isPresent()) {
                GpuDevice g = bus.get();
                String model = g.model().equals("unknown") ? d.name() : g.model();
                out.add(new GpuDevice(d.index(), g.vendor(), model, g.pci(), g.drmCard(), Optional.of(view)));
            } else {
                PciFunction pci = new PciFunction(d.pciBusId(), -1, -1, -1, -1, -1, rt.api(), -1, "", d.name());
                out.add(new GpuDevice(d.index(), rt.vendor(), d.name(), pci, Optional.empty(), Optional.of(view)));
            }
        }
        return out;
    }
}
