package dev.linkproof.reports.results;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * A {@link PointRecord} as its results line, written field by field through Jackson's generator: the
 * same text {@code ObjectMapper.writeValueAsString} makes of it (the same generator escapes the strings
 * and prints the numbers; the fields in the record's order, absent when null, {@code rails} when
 * empty), without the reflection that databind spends on a record of 41 components. Measured
 * (bench/engine-overhead.sh, JFR): databind's serializer was 5 % of the points' thread when warm and
 * more when cold, where it runs interpreted through {@code Method.invoke} for every component.
 * PointRecordJsonTest holds the two to the same text for records with every component set, and none.
 */
final class PointRecordJson {
    private PointRecordJson() {}

    static String line(ObjectMapper json, PointRecord r) {
        StringWriter out = new StringWriter(1024);
        try (JsonGenerator g = json.createGenerator(out)) {
            g.writeStartObject();
            string(g, "schema", r.schema());
            string(g, "uniqueId", r.uniqueId());
            string(g, "sweep", r.sweep());
            string(g, "testClass", r.testClass());
            string(g, "method", r.method());
            string(g, "name", r.name());
            string(g, "op", r.op());
            g.writeNumberField("size", r.size());
            g.writeNumberField("batch", r.batch());
            g.writeNumberField("qps", r.qps());
            g.writeNumberField("pipeline", r.pipeline());
            string(g, "transport", r.transport());
            string(g, "device", r.device());
            string(g, "memory", r.memory());
            string(g, "layout", r.layout());
            if (r.offset() != null) {
                g.writeNumberField("offset", r.offset().longValue());
            }
            string(g, "mode", r.mode());
            g.writeNumberField("iterations", r.iterations());
            g.writeNumberField("warmup", r.warmup());
            string(g, "status", r.status());
            string(g, "message", r.message());
            string(g, "failureKind", r.failureKind());
            number(g, "bandwidthGBps", r.bandwidthGBps());
            number(g, "opsPerSecond", r.opsPerSecond());
            number(g, "avgLatencyUs", r.avgLatencyUs());
            number(g, "p50Us", r.p50Us());
            number(g, "p99Us", r.p99Us());
            number(g, "p999Us", r.p999Us());
            number(g, "maxUs", r.maxUs());
            string(g, "validation", r.validation());
            strings(g, "verdicts", r.verdicts());
            strings(g, "criteria", r.criteria());
            number(g, "criterionGBps", r.criterionGBps());
            number(g, "linkGBps", r.linkGBps());
            number(g, "hostOtherCpus", r.hostOtherCpus());
            number(g, "hostCpus", r.hostCpus());
            number(g, "targetOtherCpus", r.targetOtherCpus());
            number(g, "targetCpus", r.targetCpus());
            number(g, "attempts", r.attempts());
            if (!r.rails().isEmpty()) {
                g.writeArrayFieldStart("rails");
                for (PointRecord.Rail rail : r.rails()) {
                    rail(g, rail);
                }
                g.writeEndArray();
            }
            string(g, "timestamp", r.timestamp());
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.toString();
    }

    private static void rail(JsonGenerator g, PointRecord.Rail r) throws IOException {
        g.writeStartObject();
        g.writeNumberField("index", r.index());
        string(g, "label", r.label());
        g.writeNumberField("bandwidthGBps", r.bandwidthGBps());
        g.writeNumberField("avgLatencyUs", r.avgLatencyUs());
        g.writeNumberField("bytes", r.bytes());
        g.writeNumberField("startMs", r.startMs());
        g.writeNumberField("durationMs", r.durationMs());
        string(g, "validation", r.validation());
        string(g, "memory", r.memory());
        string(g, "device", r.device());
        g.writeEndObject();
    }

    private static void string(JsonGenerator g, String name, String value) throws IOException {
        if (value != null) {
            g.writeStringField(name, value);
        }
    }

    private static void number(JsonGenerator g, String name, Double value) throws IOException {
        if (value != null) {
            g.writeNumberField(name, value.doubleValue());
        }
    }

    private static void number(JsonGenerator g, String name, Integer value) throws IOException {
        if (value != null) {
            g.writeNumberField(name, value.intValue());
        }
    }

    private static void strings(JsonGenerator g, String name, List<String> values) throws IOException {
        if (values == null) {
            return;
        }
        g.writeArrayFieldStart(name);
        for (String v : values) {
            if (v == null) {
                g.writeNull();
            } else {
                g.writeString(v);
            }
        }
        g.writeEndArray();
    }
}
