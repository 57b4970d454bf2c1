package dev.linkproof.transfer.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class HostPortTest {
    @Test
    void namesAndAddressesWithPorts() {
        assertThat(HostPort.parse("node2:7471")).isEqualTo(new HostPort("node2", 7471));
        assertThat(HostPort.parse(" 10.0.0.2:1 ")).isEqualTo(new HostPort("10.0.0.2", 1));
        assertThat(HostPort.parse("[fe80::1]:7471")).isEqualTo(new HostPort("fe80::1", 7471));
        assertThat(HostPort.parse("[::1]:65535").toString()).isEqualTo("[::1]:65535");
        assertThat(HostPort.parse("node2:7471").toString()).isEqualTo("node2:7471");
    }

    @Test
    void theDefaultPortOnlyWhereTheCallerHasOne() {
        assertThat(HostPort.parse("node2", OptionalInt.of(7471), 1)).isEqualTo(new HostPort("node2", 7471));
        assertThat(HostPort.parse("[fe80::1]", OptionalInt.of(7470), 1)).isEqualTo(new HostPort("fe80::1", 7470));
        assertThatThrownBy(() -> HostPort.parse("node2"))
                .hasMessage("'node2' is not HOST:PORT: no port (e.g. node2:7471, 10.0.0.2:7471 or [fe80::1]:7471)");
    }

    @Test
    void portZeroOnlyWhereListeningAllowsIt() {
        assertThat(HostPort.parse("0.0.0.0:0", OptionalInt.empty(), 0).port()).isZero();
        assertThatThrownBy(() -> HostPort.parse("node2:0")).hasMessageContaining("port 0 is outside 1..65535");
    }

    @Test
    void everyMalformedFormSaysWhatIsWrong() {
        assertThatThrownBy(() -> HostPort.parse("fe80::1:7471")).hasMessageContaining("an IPv6 address needs brackets");
        assertThatThrownBy(() -> HostPort.parse("[fe80::1:7471")).hasMessageContaining("no ']'");
        assertThatThrownBy(() -> HostPort.parse("[fe80::1]7471")).hasMessageContaining("'7471' after ']'");
        assertThatThrownBy(() -> HostPort.parse(":7471")).hasMessageContaining("no host");
        assertThatThrownBy(() -> HostPort.parse("")).hasMessageContaining("no host");
        assertThatThrownBy(() -> HostPort.parse("node2:http")).hasMessageContaining("bad port 'http'");
        assertThatThrownBy(() -> HostPort.parse("node2:70000")).hasMessageContaining("port 70000 is outside 1..65535");
        assertThatThrownBy(() -> HostPort.parse("node2:")).hasMessageContaining("bad port ''");
    }
}
