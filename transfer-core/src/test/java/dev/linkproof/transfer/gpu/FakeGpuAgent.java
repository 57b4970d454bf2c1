package dev.linkproof.transfer.gpu;

import dev.linkproof.transfer.gpu.select.GpuRuntimes;
import dev.linkproof.transfer.session.LocalAgent;
import dev.linkproof.transfer.testing.SavedProperties;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Both ranks on the fake GPU runtime ({@link FakeGpu}) as {@code api} ("cuda" or "hip"): this JVM,
 * the initiator, through system properties it restores on {@link #close()}, and a target agent in
 * a child JVM. The target must be another process for gpu-ipc: an IPC handle cannot be opened by
 * the process that exported it (the real runtimes refuse that, so do the fake and GpuIpcTransport).
 */
public final class FakeGpuAgent implements AutoCloseable {
    private final SavedProperties saved;
    private final LocalAgent agent;

    private FakeGpuAgent(SavedProperties saved, LocalAgent agent) {
        this.saved = saved;
        this.agent = agent;
    }

    public static FakeGpuAgent start(String api, Path log) throws Exception {
        Path lib = api.equals("cuda") ? FakeGpu.cuda() : FakeGpu.hip();
        String libKey = api.equals("cuda") ? GpuRuntimes.CUDA_LIBRARY : GpuRuntimes.HIP_LIBRARY;
        SavedProperties saved = new SavedProperties();
        saved.set(GpuRuntimes.RUNTIME, api);
        saved.set(libKey, lib.toString());
        try {
            // LocalAgent hands the agent this JVM's GPU properties, so it loads the same fake.
            return new FakeGpuAgent(saved, LocalAgent.start(List.of("-Xmx128m"), log, Duration.ofSeconds(30)));
        } catch (Exception | Error e) {
            saved.restore();
            throw e;
        }
    }

    public String host() {
        return agent.host();
    }

    public int port() {
        return agent.port();
    }

    public String token() {
        return agent.token();
    }

    /** Whether the agent process still runs: a fuzz case must never kill it. */
    public boolean alive() {
        return agent.alive();
    }

    public Path log() {
        return agent.log();
    }

    @Override
    public void close() {
        agent.close();
        saved.restore();
    }
}
