package dev.linkproof.transfer.libfabric;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.agent.AgentServer;
import dev.linkproof.transfer.control.RemoteErrorException;
import dev.linkproof.transfer.gpu.FakeGpu;
import dev.linkproof.transfer.gpu.GpuBuffer;
import dev.linkproof.transfer.gpu.select.GpuRuntimes;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.session.Session;
import dev.linkproof.transfer.session.Timeouts;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.TargetContext;
import dev.linkproof.transfer.spi.TargetPoint;
import dev.linkproof.transfer.testing.SavedProperties;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * GPU memory on the libfabric transport, on this machine's Debian libfabric 1.17 (built without CUDA
 * or ROCm) and transfer-core's fake GPU runtime, whose device pointers are no host memory: tcp;ofi_rxm
 * offers no FI_HMEM; shm offers it and refuses {@code fi_mr_regattr} of CUDA and ROCr memory with
 * -FI_ENOSYS, which a point meets as a device that lacks the capability, on either rank. That the
 * registration itself moves bytes is FabricBindingTest's FI_HMEM_SYSTEM case, through the same path.
 */
@Timeout(120)
class LibfabricGpuMemoryTest {
    private final SavedProperties saved = new SavedProperties();

    @BeforeEach
    void libfabric() {
        assumeTrue(Libfabric.unavailableReason() == null, () -> "libfabric absent: " + Libfabric.unavailableReason());
    }

    @AfterEach
    void restore() {
        saved.restore();
    }

    private void set(String key, String value) {
        saved.set(key, value);
    }

    /** This JVM on the fake runtime as {@code api} ("cuda" or "hip"). */
    private void useFake(String api) throws Exception {
        set(GpuRuntimes.RUNTIME, api);
        if (api.equals("cuda")) {
            set(GpuRuntimes.CUDA_LIBRARY, FakeGpu.cuda().toString());
        } else {
            set(GpuRuntimes.HIP_LIBRARY, FakeGpu.hip().toString());
        }
    }

    private static TransferSpec point(String provider, Op op, String initiator, String target) {
        return TransferSpec.builder()
                .transport(LibfabricTransport.ID)
                .op(op)
                .size(op.atomic() ? 8 : 4097)
                .batch(2)
                .iterations(5)
                .warmup(1)
                .pointId("LibfabricGpuMemoryTest-" + op.label() + "-" + initiator + "-" + target)
                .initiatorMemory(MemoryPlacement.parse(initiator))
                .targetMemory(MemoryPlacement.parse(target))
                .settings(Map.of(LibfabricSettings.PROVIDER, provider))
                .build();
    }

    /** The reason a provider refuses a trial registration with -FI_ENOSYS: what a run skips with. */
    private static String refused(String provider, String iface) {
        return "libfabric " + Libfabric.lib().version() + " provider " + provider + " offers FI_HMEM, yet fi_mr_regattr"
                + " of 4096 bytes of " + iface
                + " memory on device 0 failed: Function not implemented (38) (a libfabric"
                + " built without " + iface + " support, or whose support did not initialize, answers so)";
    }

    @Test
    void overTcpTheProviderWithoutFiHmemIsNamed() throws Exception {
        useFake("cuda");
        LibfabricTransport transport = new LibfabricTransport();
        assertThat(transport
                        .supports(point("tcp;ofi_rxm", Op.WRITE, "host", "host"))
                        .available())
                .as("the same point on host memory")
                .isTrue();
        Availability gpu = transport.supports(point("tcp;ofi_rxm", Op.WRITE, "gpu", "host"));
        assertThat(gpu.kind()).isEqualTo(Availability.Kind.DEVICE_LACKS_CAPABILITY);
        assertThat(gpu.reason())
                .isEqualTo("libfabric " + Libfabric.lib().version() + " has no provider tcp;ofi_rxm offering FI_RMA |"
                        + " FI_HMEM on reliable-datagram endpoints (FI_EP_RDM) with the MR modes this binding honours");
    }

    @Test
    void withoutAGpuRuntimeTheRuntimesReasonIsNamed() {
        set(GpuRuntimes.RUNTIME, "none");
        Availability a = new LibfabricTransport().supports(point("shm", Op.READ, "host", "gpu"));
        assertThat(a.kind()).isEqualTo(Availability.Kind.ABSENT);
        assertThat(a.reason())
                .isEqualTo("libfabric GPU memory moves through FI_HMEM, and this host has no GPU runtime: "
                        + "GPU unavailable: linkproof.gpu.runtime=none");
    }

    @Test
    void atomicsOnGpuMemoryAreNotSupportedWhateverTheProvider() throws Exception {
        useFake("cuda");
        Availability a = new LibfabricTransport().supports(point("shm", Op.FETCH_ADD, "host", "gpu"));
        assertThat(a.kind()).isEqualTo(Availability.Kind.NOT_SUPPORTED);
        assertThat(a.reason()).startsWith("libfabric atomics run on host memory here");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"cuda, FI_HMEM_CUDA", "hip, FI_HMEM_ROCR"})
    void shmOffersFiHmemAndRefusesTheRuntimesMemory(String api, String iface) throws Exception {
        useFake(api);
        Availability a = new LibfabricTransport().supports(point("shm", Op.WRITE, "host", "gpu"));
        assertThat(a.kind()).isEqualTo(Availability.Kind.DEVICE_LACKS_CAPABILITY);
        assertThat(a.reason()).isEqualTo(refused("shm", iface));
    }

    /** The target registers its GPU region's device pointer with fi_mr_regattr, and fails naming it when refused. */
    @Test
    void theTargetRegistersItsGpuRegionWithRegattr() throws Exception {
        useFake("cuda");
        TransferSpec spec = point("shm", Op.WRITE, "host", "gpu");
        LibfabricTransport transport = new LibfabricTransport();
        long bytes = spec.slots().regionBytes();
        try (Buffer region = transport.allocate(spec, spec.targetMemory(), bytes)) {
            assertThat(region).isInstanceOf(GpuBuffer.class);
            assertThatThrownBy(() -> transport.serve(spec, region, new TargetContext("127.0.0.1", IoSettings.DEFAULT)))
                    .isInstanceOf(FabricMemory.Refused.class)
                    .hasMessage("fi_mr_regattr of " + bytes + " bytes of FI_HMEM_CUDA memory on device 0 failed on"
                            + " libfabric " + Libfabric.lib().version()
                            + " provider shm: Function not implemented (38)");
        }
    }

    /** The initiator's GPU buffer goes the same way, on a domain opened with FI_HMEM beside a host target. */
    @Test
    void theInitiatorRegistersItsGpuBufferWithRegattr() throws Exception {
        useFake("cuda");
        TransferSpec spec = point("shm", Op.READ, "gpu", "host");
        LibfabricTransport transport = new LibfabricTransport();
        long bytes = spec.slots().regionBytes();
        try (Buffer region = transport.allocate(spec, spec.targetMemory(), bytes);
                TargetPoint target = transport.serve(spec, region, new TargetContext("127.0.0.1", IoSettings.DEFAULT));
                Buffer local = transport.allocate(spec, spec.initiatorMemory(), bytes)) {
            assertThat(target.endpoint()).containsEntry("libfabric.provider", "shm");
            assertThatThrownBy(() -> transport.connect(spec, local, target.endpoint(), IoSettings.DEFAULT))
                    .isInstanceOf(FabricMemory.Refused.class)
                    .hasMessageStartingWith("fi_mr_regattr of " + bytes + " bytes of FI_HMEM_CUDA memory on device 0");
        }
    }

    /** Run anyway, the point is refused by the target's agent as a device's shortfall, by its code. */
    @Test
    void theTargetAgentRefusesThePointAsADeviceThatLacksTheCapability() throws Exception {
        useFake("cuda");
        String token = "0123456789abcdef-libfabric-gpu-token";
        try (AgentServer agent = AgentServer.start("127.0.0.1", 0, token, IoSettings.DEFAULT);
                Session session = Session.open(
                        "127.0.0.1",
                        agent.port(),
                        token,
                        new Timeouts(Duration.ofSeconds(10), Duration.ofSeconds(10), IoSettings.DEFAULT))) {
            TransferSpec spec = point("shm", Op.WRITE, "host", "gpu");
            Availability a = session.supports(spec);
            assertThat(a.kind()).isEqualTo(Availability.Kind.DEVICE_LACKS_CAPABILITY);
            assertThat(a.reason()).endsWith(refused("shm", "FI_HMEM_CUDA"));
            assertThatThrownBy(() -> session.run(spec))
                    .isInstanceOfSatisfying(
                            RemoteErrorException.class,
                            e -> assertThat(e.deviceLacksCapability()).isTrue())
                    .hasMessageContaining(refused("shm", "FI_HMEM_CUDA"));
        }
    }

    /** What fi_mr_regattr is given: the runtime's interface, the device ordinal in the union, the iovec, access and key. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"cuda, 1", "hip, 2"})
    void theAttributesNameTheRuntimesInterfaceAndDevice(String api, int iface) throws Exception {
        useFake(api);
        try (GpuBuffer gpu = GpuBuffer.allocate(GpuRuntimes.require(), 0, 12_345);
                Arena arena = Arena.ofConfined()) {
            FabricRegion region = FabricRegion.of(gpu);
            assertThat(region.address())
                    .as("the device pointer, not the host copy")
                    .isEqualTo(gpu.devicePointer())
                    .isNotEqualTo(gpu.segment().address());
            assertThat(region.hmem()).isTrue();
            assertThat(region.iface()).isEqualTo(iface);
            // As on GPU 3: the ordinal goes into the union, whole.
            FabricRegion onThree = FabricRegion.device(region.address(), region.length(), region.iface(), 3);
            MemorySegment attr = FabricMemory.attr(arena, onThree, 77);
            StructLayout l = LibfabricAbi.FI_MR_ATTR;
            assertThat(attr.get(JAVA_INT, LibfabricAbi.offset(l, "iface"))).isEqualTo(iface);
            assertThat(attr.get(JAVA_INT, LibfabricAbi.offset(l, "device", "cuda")))
                    .isEqualTo(3);
            assertThat(attr.get(JAVA_LONG, LibfabricAbi.offset(l, "device", "reserved")))
                    .isEqualTo(3);
            assertThat(attr.get(JAVA_LONG, LibfabricAbi.offset(l, "access"))).isEqualTo(FabricMemory.ACCESS);
            assertThat(attr.get(JAVA_LONG, LibfabricAbi.offset(l, "offset"))).isZero();
            assertThat(attr.get(JAVA_LONG, LibfabricAbi.offset(l, "requested_key")))
                    .isEqualTo(77);
            assertThat(attr.get(JAVA_LONG, LibfabricAbi.offset(l, "iov_count"))).isEqualTo(1);
            MemorySegment iov =
                    attr.get(ADDRESS, LibfabricAbi.offset(l, "mr_iov")).reinterpret(LibfabricAbi.IOVEC.byteSize());
            assertThat(iov.get(JAVA_LONG, LibfabricAbi.offset(LibfabricAbi.IOVEC, "iov_base")))
                    .isEqualTo(gpu.devicePointer());
            assertThat(iov.get(JAVA_LONG, LibfabricAbi.offset(LibfabricAbi.IOVEC, "iov_len")))
                    .isEqualTo(12_345);
        }
    }
}
