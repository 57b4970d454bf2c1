package dev.linkproof.engine.discovery;

import dev.linkproof.transfer.Layout;
import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.Units;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A point's two names: its unique id segment ({@code op=write,size=4096,batch=8,…}), stable across
 * runs and what baselines and reports key on, and its display name ({@code write 4 KiB ×8 · 4 conn · tcp}),
 * with the non-default dimensions appended.
 *
 * @param connectionNoun  what a transport calls a queue pair ("conn", "QP", "ep")
 * @param stagesGpuMemory which transports move GPU memory through a host copy ("staged via host")
 */
record PointNames(Function<String, String> connectionNoun, Predicate<String> stagesGpuMemory) {
    static String segment(
            Op op,
            long size,
            int batch,
            int qps,
            int depth,
            Placement mem,
            String transport,
            long offset,
            Layout layout,
            Mode mode) {
        StringBuilder sb = new StringBuilder()
                .append("op=")
                .append(op.label())
                .append(",size=")
                .append(size)
                .append(",batch=")
                .append(batch)
                .append(",qps=")
                .append(qps)
                .append(",depth=")
                .append(depth)
                .append(",mem=")
                .append(mem)
                .append(",transport=")
                .append(transport);
        if (offset != 0) {
            sb.append(",offset=").append(offset);
        }
        if (layout != Layout.CONTIGUOUS) {
            sb.append(",layout=").append(layout.name().toLowerCase(Locale.ROOT));
        }
        if (mode != Mode.BANDWIDTH) {
            sb.append(",mode=").append(mode.name().toLowerCase(Locale.ROOT));
        }
        return sb.toString();
    }

    String displayName(TransferSpec s) {
        StringBuilder sb = new StringBuilder()
                .append(s.op().label())
                .append(' ')
                .append(Units.formatSize(s.size()))
                .append(" ×")
                .append(s.batch())
                .append(" · ")
                .append(s.connections())
                .append(' ')
                .append(connectionNoun.apply(s.transport()))
                .append(" · ")
                .append(s.transport());
        if (s.pipelineDepth() > 1) {
            sb.append(" · depth ").append(s.pipelineDepth());
        }
        if (s.offset() != 0) {
            sb.append(" · +").append(s.offset()).append(" B offset");
        }
        if (s.layout() != Layout.CONTIGUOUS) {
            sb.append(" · strided");
        }
        if (s.mode() == Mode.LATENCY) {
            sb.append(" · latency");
        }
        if (!s.initiatorMemory().equals(MemoryPlacement.HOST)
                || !s.targetMemory().equals(MemoryPlacement.HOST)) {
            sb.append(" · ").append(s.initiatorMemory()).append('→').append(s.targetMemory());
            if (new Placement(s.initiatorMemory(), s.targetMemory()).onGpu() && stagesGpuMemory.test(s.transport())) {
                sb.append(" (staged via host)");
            }
        }
        return sb.toString();
    }
}
