package dev.linkproof.transfer.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import org.junit.jupiter.api.Test;

/**
 * A device's {@code atomic_cap} decides whether an atomic point runs on it: IBV_ATOMIC_NONE makes the
 * point unavailable with the reason, of the kind a requiring profile fails (rxe, which every verbs test
 * here runs on, does atomics, so the decision is checked on the attributes ibv_query_device would
 * give). Atomics on GPU memory are not covered, whatever the device: a kind no profile fails.
 */
class VerbsAtomicCapabilityTest {
    private static VerbsDevice.Attributes withAtomicCap(int cap) {
        return new VerbsDevice.Attributes("28.39.1002", 1L << 40, 4129, 131072, 32768, 30, 4194303, 16, 16, 1, cap);
    }

    @Test
    void aDeviceWithoutAtomicsMakesAnAtomicPointUnavailableSayingWhy() {
        Availability a = VerbsTransport.atomics("mlx5_3", withAtomicCap((int) VerbsAbi.ATOMIC_NONE));
        assertThat(a.available()).isFalse();
        assertThat(a.kind()).isEqualTo(Availability.Kind.DEVICE_LACKS_CAPABILITY);
        assertThat(a.reason())
                .isEqualTo("mlx5_3 reports atomic_cap IBV_ATOMIC_NONE: it does no RDMA atomics "
                        + "(fetch-and-add, compare-and-swap)");
    }

    @Test
    void aDeviceWithAtomicsRunsThem() {
        for (int cap : new int[] {1, 2}) { // IBV_ATOMIC_HCA, IBV_ATOMIC_GLOB
            Availability a = VerbsTransport.atomics("rxe0", withAtomicCap(cap));
            assertThat(a.available()).as("atomic_cap %d", cap).isTrue();
            assertThat(a.kind()).isEqualTo(Availability.Kind.AVAILABLE);
            assertThat(a.reason()).isEqualTo("rxe0: atomic_cap " + cap);
        }
    }

    /** On either rank's GPU memory: not covered (NOT_SUPPORTED), so a profile requiring verbs skips it too. */
    @Test
    void atomicsOnGpuMemoryAreNotSupportedWhateverTheDevice() {
        MemoryPlacement gpu = new MemoryPlacement(MemoryKind.GPU, 0);
        for (TransferSpec.Builder b : new TransferSpec.Builder[] {
            TransferSpec.builder().initiatorMemory(gpu), TransferSpec.builder().targetMemory(gpu)
        }) {
            Availability a = VerbsTransport.atomicMemory(
                    b.transport(VerbsTransport.ID).op(Op.FETCH_ADD).size(8).build());
            assertThat(a.kind()).isEqualTo(Availability.Kind.NOT_SUPPORTED);
            assertThat(a.reason()).startsWith("verbs atomics run on host memory here");
        }
        assertThat(VerbsTransport.atomicMemory(TransferSpec.builder()
                                .transport(VerbsTransport.ID)
                                .op(Op.COMPARE_SWAP)
                                .size(8)
                                .build())
                        .available())
                .isTrue();
    }
}
