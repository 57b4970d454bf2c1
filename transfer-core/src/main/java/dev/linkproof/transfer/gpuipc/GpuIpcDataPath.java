package dev.linkproof.transfer.gpuipc;

import dev.linkproof.transfer.Deadline;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.SlotLayout;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.gpu.GpuBuffer;
import dev.linkproof.transfer.gpu.GpuException;
import dev.linkproof.transfer.gpu.GpuRuntime;
import dev.linkproof.transfer.gpu.GpuStream;
import dev.linkproof.transfer.spi.DataPath;
import dev.linkproof.transfer.spi.IoSettings;

/**
 * The initiator's copies of one gpu-ipc point. A batch is one device-to-device copy per slot,
 * spread round-robin over the streams, then a marker on every stream used; waiting for a batch
 * polls those markers. Source and destination addresses are computed once, so the loop does
 * nothing but the runtime calls.
 */
final class GpuIpcDataPath implements DataPath {
    private final TransferSpec spec;
    private final GpuRuntime runtime;
    private final int device;
    private final long remoteBase;
    private final GpuStream[] streams;
    private final long[] sources;
    private final long[] destinations;
    private final int usedStreams;
    private final int depth;
    private final long timeoutNanos;
    private long posted;
    private long completed;

    private GpuIpcDataPath(
            TransferSpec spec,
            GpuRuntime runtime,
            int device,
            long remoteBase,
            GpuStream[] streams,
            long[] sources,
            long[] destinations,
            IoSettings io) {
        this.spec = spec;
        this.runtime = runtime;
        this.device = device;
        this.remoteBase = remoteBase;
        this.streams = streams;
        this.sources = sources;
        this.destinations = destinations;
        this.usedStreams = Math.min(streams.length, spec.batch());
        this.depth = spec.pipelineDepth();
        this.timeoutNanos = io.progressTimeout().toNanos();
    }

    static GpuIpcDataPath open(TransferSpec spec, GpuBuffer local, byte[] handle, IoSettings io)
            throws TransferException {
        GpuRuntime runtime = local.runtime();
        int device = local.device();
        long remote = runtime.openIpc(device, handle);
        GpuStream[] streams = new GpuStream[Math.min(spec.connections(), spec.batch())];
        int opened = 0;
        try {
            for (; opened < streams.length; opened++) {
                streams[opened] = runtime.openStream(device, spec.pipelineDepth());
            }
        } catch (GpuException | RuntimeException e) {
            for (int i = 0; i < opened; i++) {
                streams[i].close();
            }
            runtime.closeIpc(device, remote);
            throw e;
        }
        SlotLayout slots = spec.slots();
        long[] sources = new long[spec.batch()];
        long[] destinations = new long[spec.batch()];
        boolean write = spec.op() == Op.WRITE;
        for (int slot = 0; slot < spec.batch(); slot++) {
            long offset = slots.slotOffset(slot);
            long mine = local.devicePointer() + offset;
            long theirs = remote + offset;
            sources[slot] = write ? mine : theirs;
            destinations[slot] = write ? theirs : mine;
        }
        return new GpuIpcDataPath(spec, runtime, device, remote, streams, sources, destinations, io);
    }

    @Override
    public void post() throws TransferException {
        int marker = (int) (posted % depth);
        long size = spec.size();
        for (int slot = 0; slot < sources.length; slot++) {
            streams[slot % usedStreams].copyDeviceToDevice(destinations[slot], sources[slot], size);
        }
        for (int s = 0; s < usedStreams; s++) {
            streams[s].mark(marker);
        }
        posted++;
    }

    @Override
    public void awaitOldest() throws TransferException {
        if (completed >= posted) {
            throw new IllegalStateException("awaitOldest() with no batch in flight");
        }
        int marker = (int) (completed % depth);
        for (int s = 0; s < usedStreams; s++) {
            try {
                streams[s].await(marker, timeoutNanos);
            } catch (GpuException e) {
                if (e.code() == 0) {
                    // No runtime error: the stream missed the progress deadline.
                    throw new PeerFailureException(
                                    "batch " + (completed + 1) + " of point " + spec.pointId() + ": " + e.getMessage(),
                                    e)
                            .expired(Deadline.PROGRESS);
                }
                throw e;
            }
        }
        completed++;
    }

    @Override
    public void close() {
        for (GpuStream s : streams) {
            s.close();
        }
        runtime.closeIpc(device, remoteBase);
    }
}
