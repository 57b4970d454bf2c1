package dev.linkproof.transfer.cli;

import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.Units;
import dev.linkproof.transfer.session.Rails;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * {@link TransferCli}'s points: the cross product of its list options as specs, in the order they run
 * (size outermost), with {@code --depth auto} resolved per point. A point the options cannot make (a
 * bad depth, a combination {@link TransferSpec} refuses) is a usage error of {@code commandLine}.
 */
final class TransferPoints {
    /**
     * What {@code --depth auto} keeps in flight. A fixed depth that suits 1 MiB (16 × 1 MiB) leaves a
     * 64 KiB point with 1 MiB outstanding, too little to cover the round trip of a loaded host; iperf3
     * keeps its socket buffer (several MiB) full whatever the write size.
     */
    static final long AUTO_DEPTH_BYTES = 4L << 20;

    private TransferPoints() {}

    static int depthFor(String depth, long bytesPerIteration, Mode mode) {
        if ("auto".equalsIgnoreCase(depth.trim())) {
            if (mode == Mode.LATENCY) {
                return 1;
            }
            return Math.clamp(AUTO_DEPTH_BYTES / bytesPerIteration, 1, TransferSpec.MAX_PIPELINE);
        }
        try {
            return Integer.parseInt(depth.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--depth takes a number or 'auto', not '" + depth + "'");
        }
    }

    /** Every point of {@code cli}'s cross product on {@code memory}, in the order they run (size outermost). */
    static List<TransferSpec> of(TransferCli cli, Rails.Placement memory, CommandLine commandLine) {
        List<TransferSpec> points = new ArrayList<>();
        for (long size : cli.sizes) {
            for (int batch : cli.batches) {
                for (int qps : cli.connections) {
                    for (String depthText : cli.depths) {
                        int depth;
                        try {
                            depth = depthFor(depthText, size * batch, cli.mode);
                        } catch (IllegalArgumentException e) {
                            throw new ParameterException(commandLine, e.getMessage(), e);
                        }
                        String id = String.format(
                                Locale.ROOT,
                                "cli/%s/%s/size=%d,batch=%d,qps=%d,depth=%d%s",
                                cli.transport,
                                cli.op.label(),
                                size,
                                batch,
                                qps,
                                depth,
                                cli.railNames == null ? "" : ",rails=" + cli.railNames.size());
                        try {
                            points.add(new TransferSpec(
                                    id,
                                    cli.transport,
                                    cli.op,
                                    cli.mode,
                                    size,
                                    batch,
                                    qps,
                                    depth,
                                    cli.iterations,
                                    cli.warmup,
                                    cli.layout,
                                    cli.offset,
                                    memory.initiator(),
                                    memory.target(),
                                    cli.settings));
                        } catch (IllegalArgumentException e) {
                            throw new ParameterException(
                                    commandLine,
                                    "invalid point (size "
                                            + Units.formatSize(size) + ", batch " + batch + ", qps " + qps + ", depth "
                                            + depth
                                            + "): " + e.getMessage(),
                                    e);
                        }
                    }
                }
            }
        }
        return points;
    }
}
