package dev.linkproof.transfer.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.transfer.TransferException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PeerEndpointTest {
    private static final PeerEndpoint E = PeerEndpoint.of(
            "verbs",
            Map.of(
                    "qpn",
                    "17,18",
                    "port",
                    "7471",
                    "gid",
                    "fe80000000000000",
                    "addr",
                    "7f00dead0000",
                    "big",
                    "18446744073709551615",
                    "empty",
                    "",
                    "odd",
                    "abc",
                    "long",
                    "9".repeat(50)));

    @Test
    void wellFormedEntriesAreRead() throws Exception {
        assertThat(E.numbers("qpn", 0, 0xFF_FFFF)).containsExactly(17, 18);
        assertThat(E.number("port", 1, 65_535)).isEqualTo(7471);
        assertThat(E.hex("gid")).hasSize(8);
        assertThat(E.hexNumber("addr")).isEqualTo(0x7f00dead0000L);
        assertThat(E.unsigned("big")).isEqualTo(-1L);
    }

    @Test
    void aMissingEntryNamesTheKeyAndWhatIsThere() {
        assertThatThrownBy(() -> E.string("rkey"))
                .isInstanceOf(TransferException.class)
                .hasMessageStartingWith("verbs endpoint from the peer lacks 'rkey' (it has [");
    }

    @Test
    void aNullEntryIsNamedAsNullNotAsMissing() {
        Map<String, String> withNull = new HashMap<>();
        withNull.put("rkey", null);
        assertThatThrownBy(() -> PeerEndpoint.of("verbs", withNull).hex("rkey"))
                .isInstanceOf(TransferException.class)
                .hasMessage("verbs endpoint from the peer has rkey=null: expected a value");
    }

    @Test
    void aMalformedEntryNamesTheKeyTheValueAndWhatWasExpected() {
        assertThatThrownBy(() -> E.number("port", 1, 1000))
                .hasMessage("verbs endpoint from the peer has port='7471': expected a whole number in 1..1000");
        assertThatThrownBy(() -> E.number("gid", 0, 10)).hasMessageContaining("gid='fe80000000000000'");
        assertThatThrownBy(() -> E.numbers("qpn", 0, 17)).hasMessageContaining("qpn='17,18': expected comma-separated");
        assertThatThrownBy(() -> E.hex("empty"))
                .hasMessageContaining("empty='': expected hexadecimal bytes, at least one");
        assertThatThrownBy(() -> E.hex("odd")).hasMessageContaining("odd='abc'");
        assertThatThrownBy(() -> E.hexNumber("long"))
                .hasMessageContaining("expected 1 to 16 hexadecimal digits")
                .hasMessageContaining("... (50 chars)");
        assertThatThrownBy(() -> E.unsigned("odd")).hasMessageContaining("expected an unsigned 64-bit number");
    }
}
