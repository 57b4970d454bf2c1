package dev.linkproof.reports.prometheus;

import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.function.Consumer;

/**
 * Metric families built with client_java's {@link Gauge} in a registry of their own (never the
 * process-wide default one: a run's metrics are a document written once, not a live process's),
 * and their text: the Prometheus text format 0.0.4, as client_java's {@link PrometheusTextFormatWriter}
 * writes it (families sorted by name, labels by name, values escaped, HELP and TYPE before the samples).
 */
public final class Exposition {
    /** The text format's content type, which a Pushgateway is sent. */
    public static final String CONTENT_TYPE = PrometheusTextFormatWriter.CONTENT_TYPE;

    private final PrometheusRegistry registry = new PrometheusRegistry();

    /**
     * A gauge family in this exposition. Without exemplars: they need a trace context, and a
     * gauge set once has none to sample.
     */
    public Gauge gauge(String name, String help, String... labelNames) {
        return Gauge.builder()
                .name(name)
                .help(help)
                .labelNames(labelNames)
                .withoutExemplars()
                .register(registry);
    }

    public MetricSnapshots snapshots() {
        return registry.scrape();
    }

    /** The families of each of {@code parts}, in one exposition; a family must be in one part only. */
    public static MetricSnapshots merge(MetricSnapshots... parts) {
        MetricSnapshots.Builder b = MetricSnapshots.builder();
        for (MetricSnapshots p : parts) {
            for (MetricSnapshot s : p) {
                b.metricSnapshot(s);
            }
        }
        return b.build();
    }

    /** The text exposition of {@code metrics}. */
    public static String text(MetricSnapshots metrics) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            PrometheusTextFormatWriter.create().write(out, metrics);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /**
     * Writes {@code metrics} to {@code file} atomically, as node_exporter's textfile collector asks:
     * a temporary file in the same directory, named so that the collector never reads it
     * ({@code .linkproof.prom.<random>.tmp}: it reads {@code *.prom} only), renamed over {@code file}
     * once complete, readable by all (node_exporter runs as a user of its own). A reader sees the
     * previous file or this one, never half of either.
     */
    public static Path writeAtomically(Path file, MetricSnapshots metrics) {
        return writeAtomically(file, text(metrics), tmp -> {});
    }

    /** {@link #writeAtomically(Path, MetricSnapshots)} of a text; {@code beforeMove} sees the complete temporary file. */
    static Path writeAtomically(Path file, String text, Consumer<Path> beforeMove) {
        Path tmp = null;
        try {
            Path folder = file.toAbsolutePath().getParent();
            Files.createDirectories(folder);
            tmp = Files.createTempFile(folder, "." + file.getFileName() + ".", ".tmp");
            // A temporary file is the owner's alone (0600); node_exporter runs as another user and must read it.
            if (Files.getFileStore(tmp)
                    .supportsFileAttributeView(java.nio.file.attribute.PosixFileAttributeView.class)) {
                Files.setPosixFilePermissions(
                        tmp, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
            }
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            beforeMove.accept(tmp);
            Path written = Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            tmp = null;
            return written;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // the write's own error is the one to report
                }
            }
        }
    }
}
