package dev.linkproof.transfer.gpuipc;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.gpu.FakeGpu;
import dev.linkproof.transfer.gpu.GpuBuffer;
import dev.linkproof.transfer.gpu.GpuRuntime;
import dev.linkproof.transfer.gpu.cuda.CudaRuntime;
import dev.linkproof.transfer.spi.IoSettings;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The initiator's reading of a gpu-ipc endpoint (what ReplyFuzzTest found): every entry is the
 * target's word, so a missing or malformed one is refused by name before any handle is opened.
 */
class GpuIpcEndpointTest {
    private static final MemoryPlacement GPU = MemoryPlacement.parse("gpu");
    private static final TransferSpec SPEC = TransferSpec.builder()
            .pointId("GpuIpcEndpointTest")
            .transport(GpuIpcTransport.ID)
            .initiatorMemory(GPU)
            .targetMemory(GPU)
            .size(4096)
            .build();
    private static GpuBuffer local;

    @BeforeAll
    static void allocate() throws Exception {
        GpuRuntime rt = CudaRuntime.load(FakeGpu.cuda().toString());
        local = GpuBuffer.allocate(rt, 0, 4096);
    }

    @AfterAll
    static void free() {
        local.close();
    }

    private static Map<String, String> endpoint(String key, String value) {
        Map<String, String> e = new HashMap<>(
                Map.of(GpuIpcTransport.HANDLE, "00".repeat(64), GpuIpcTransport.API, "cuda", GpuIpcTransport.PID, "1"));
        if (value == null) {
            e.remove(key);
        } else {
            e.put(key, value);
        }
        return e;
    }

    private static void connect(Map<String, String> endpoint) throws TransferException {
        new GpuIpcTransport().connect(SPEC, local, endpoint, IoSettings.DEFAULT).close();
    }

    @Test
    void aMissingApiIsNamedNotReportedAsANullRuntime() {
        assertThatThrownBy(() -> connect(endpoint(GpuIpcTransport.API, null)))
                .isInstanceOf(TransferException.class)
                .hasMessageStartingWith("gpu-ipc endpoint from the peer lacks 'gpu.ipc.api'");
        assertThatThrownBy(() -> connect(endpoint(GpuIpcTransport.API, "hip")))
                .hasMessageStartingWith("the target exported a hip IPC handle; this initiator runs cuda");
    }

    @Test
    void aPidThatIsNoPidIsNamedNotTakenForAnotherProcess() {
        for (String pid : new String[] {"", "x", "true", "0", "-1", "2147483648", "1.0E300"}) {
            assertThatThrownBy(() -> connect(endpoint(GpuIpcTransport.PID, pid)))
                    .as(pid)
                    .isInstanceOf(TransferException.class)
                    .hasMessage("gpu-ipc endpoint from the peer has gpu.ipc.pid='" + pid
                            + "': expected a whole number in 1..2147483647");
        }
        assertThatThrownBy(() -> connect(endpoint(
                        GpuIpcTransport.PID,
                        Long.toString(ProcessHandle.current().pid()))))
                .hasMessageStartingWith("gpu-ipc needs the target in another process");
    }

    @Test
    void aHandleOfTheWrongShapeIsRefusedBeforeTheRuntimeOpensIt() {
        assertThatThrownBy(() -> connect(endpoint(GpuIpcTransport.HANDLE, "2147483648")))
                .hasMessageContaining("a cuda IPC handle has 64 bytes, this one 5");
        assertThatThrownBy(() -> connect(endpoint(GpuIpcTransport.HANDLE, "x")))
                .hasMessage(
                        "gpu-ipc endpoint from the peer has gpu.ipc.handle='x': expected hexadecimal bytes, at least"
                                + " one");
    }
}
