package dev.linkproof.transfer.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TcpSettingsTest {
    private static TcpSettings of(Map<String, String> s) {
        return TcpSettings.of(
                TransferSpec.builder().transport("tcp").settings(s).build());
    }

    @Test
    void noSettingsLeaveTheAddressesToTheAgentAndTheKernel() {
        assertThat(of(Map.of())).isEqualTo(new TcpSettings(java.util.Optional.empty(), java.util.Optional.empty()));
        // Other transports' settings in the same point are not the tcp transport's business.
        assertThat(of(Map.of("UCX_TLS", "tcp", "verbs.port", "2")).address()).isEmpty();
    }

    @Test
    void bothAddressesParse() {
        TcpSettings s = of(Map.of(TcpSettings.ADDRESS, " 10.77.1.2 ", TcpSettings.SOURCE, "10.77.1.1"));
        assertThat(s.address()).contains("10.77.1.2");
        assertThat(s.source()).contains("10.77.1.1");
        assertThat(TcpSettings.ADDRESS).isEqualTo("tcp.address");
        assertThat(TcpSettings.SOURCE).isEqualTo("tcp.source");
    }

    @Test
    void badKeysAndBlankValuesNameTheKey() {
        assertThatThrownBy(() -> of(Map.of("tcp.adress", "10.77.1.2")))
                .hasMessage("unknown tcp setting 'tcp.adress' (known: tcp.address, tcp.source)");
        assertThatThrownBy(() -> of(Map.of("tcp.source", " ")))
                .hasMessageContaining("tcp.source= : expected an IP address");
        assertThatThrownBy(() -> TcpSettings.require(
                        TransferSpec.builder().settings(Map.of("tcp.host", "x")).build()))
                .isInstanceOf(TransferException.class)
                .hasMessageStartingWith("bad tcp setting: unknown tcp setting 'tcp.host'");
    }
}
