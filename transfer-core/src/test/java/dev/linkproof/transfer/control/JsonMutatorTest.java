package dev.linkproof.transfer.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A fuzz case replays only if its seed picks the same mutation on every run. */
class JsonMutatorTest {
    @Test
    void aSeedPicksTheSameFieldWhicheverOrderThePeerListedItsMapIn() throws Exception {
        byte[] oneOrder = "{\"pointId\":\"p\",\"endpoint\":{\"a\":\"1\",\"b\":\"2\",\"c\":\"3\"}}"
                .getBytes(StandardCharsets.UTF_8);
        byte[] otherOrder = "{\"pointId\":\"p\",\"endpoint\":{\"c\":\"3\",\"b\":\"2\",\"a\":\"1\"}}"
                .getBytes(StandardCharsets.UTF_8);
        for (long seed = 0; seed < 200; seed++) {
            JsonMutator.Mutation m = JsonMutator.mutate(oneOrder, new Random(seed));
            if (m.description().startsWith("whole body")) {
                continue; // what a truncation keeps depends on the order by nature
            }
            assertThat(JsonMutator.mutate(otherOrder, new Random(seed)).description())
                    .as("seed " + seed)
                    .isEqualTo(m.description());
        }
    }
}
