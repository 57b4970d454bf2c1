package dev.linkproof.reports.results;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The results line PointRecordJson writes is the text databind writes of the same record: every
 * component set (a component added to PointRecord and not to the writer fails here), none set, and
 * the strings and numbers that need escaping or special printing.
 */
class PointRecordJsonTest {
    /** Strings a JSON writer must escape, or must not: quotes, backslashes, control characters, non-ASCII. */
    private static final List<String> TRICKY = List.of(
            "plain",
            "with \"quotes\" and \\ backslash",
            "tab\tnew\nline\r\u0001\u001f",
            "write 4 KiB ×8 · 4 conn · tcp → gpu:1",
            "emoji \uD83D\uDE80 and \u2028 separator",
            "</script>",
            "");

    private static final double[] NUMBERS = {
        3.769264191006408E-8,
        26530.377,
        0.0,
        -0.0,
        1e300,
        Double.NaN,
        Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY,
        12.5,
        1.0E-5
    };

    @Test
    void everyComponentSetIsWrittenAsDatabindWritesIt() throws Exception {
        for (int variant = 0; variant < NUMBERS.length; variant++) {
            PointRecord r = record(variant, false);
            assertThat(PointRecordJson.line(ResultsFile.JSON, r))
                    .as("variant %d", variant)
                    .isEqualTo(ResultsFile.JSON.writeValueAsString(r));
        }
    }

    @Test
    void noComponentSetIsWrittenAsDatabindWritesIt() throws Exception {
        PointRecord r = record(0, true);
        assertThat(PointRecordJson.line(ResultsFile.JSON, r))
                .isEqualTo(ResultsFile.JSON.writeValueAsString(r))
                .doesNotContain("rails")
                .doesNotContain("message");
    }

    @Test
    void aLineReadsBackAsTheRecord() throws Exception {
        PointRecord r = record(4, false);
        assertThat(ResultsFile.JSON.readValue(PointRecordJson.line(ResultsFile.JSON, r), PointRecord.class))
                .isEqualTo(r);
    }

    /** A record whose every component is set (or, {@code empty}, every nullable one null), values chosen by {@code variant}. */
    private static PointRecord record(int variant, boolean empty) throws Exception {
        RecordComponent[] components = PointRecord.class.getRecordComponents();
        Object[] values = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            types[i] = components[i].getType();
            values[i] = value(components[i], variant + i, empty);
        }
        return PointRecord.class.getDeclaredConstructor(types).newInstance(values);
    }

    private static Object value(RecordComponent c, int k, boolean empty) {
        Class<?> t = c.getType();
        if (t == long.class) {
            return 1_000_003L * k;
        }
        if (t == int.class) {
            return k;
        }
        if (t == double.class) {
            return NUMBERS[k % NUMBERS.length];
        }
        if (empty) {
            return null;
        }
        if (t == String.class) {
            return TRICKY.get(k % TRICKY.size());
        }
        if (t == Long.class) {
            return (long) k * 4096;
        }
        if (t == Integer.class) {
            return k + 1;
        }
        if (t == Double.class) {
            return NUMBERS[k % NUMBERS.length];
        }
        if (t == List.class) {
            Class<?> element = (Class<?>) ((ParameterizedType) c.getGenericType()).getActualTypeArguments()[0];
            if (element == String.class) {
                return List.copyOf(TRICKY.subList(k % 3, TRICKY.size()));
            }
            if (element == PointRecord.Rail.class) {
                List<PointRecord.Rail> rails = new ArrayList<>();
                rails.add(new PointRecord.Rail(
                        0,
                        TRICKY.get(k % TRICKY.size()),
                        NUMBERS[k % NUMBERS.length],
                        2.5,
                        4096L * k,
                        0.0,
                        1.25,
                        "data valid: 1 slot(s)",
                        "gpu:1->gpu",
                        "rxe9"));
                rails.add(new PointRecord.Rail(
                        1,
                        "10.77.1.1->10.77.1.2",
                        11.2,
                        NUMBERS[(k + 3) % NUMBERS.length],
                        7,
                        0.5,
                        1.0,
                        TRICKY.get((k + 1) % TRICKY.size())));
                return rails;
            }
        }
        throw new AssertionError("no test value for component " + c + ": add one, and write it in PointRecordJson");
    }
}
