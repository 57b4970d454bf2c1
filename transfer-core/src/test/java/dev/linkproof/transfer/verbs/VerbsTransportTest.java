package dev.linkproof.transfer.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.transfer.spi.Transports;
import org.junit.jupiter.api.Test;

class VerbsTransportTest {
    @Test
    void isFoundThroughTheServiceLoaderAndCallsItsConnectionsQps() {
        var t = Transports.discover().require(VerbsTransport.ID);
        assertThat(t).isInstanceOf(VerbsTransport.class);
        assertThat(t.connectionNoun()).isEqualTo("QP");
    }

    /** On a machine without RDMA devices the reason says so, and it comes from sysfs alone. */
    @Test
    void withoutAnRdmaDeviceAvailabilitySaysNoRdmaDevice() {
        assumeTrue(DeviceChooser.system().noDeviceReason() != null, "this machine has an RDMA device");
        var a = new VerbsTransport().availability();
        assertThat(a.available()).isFalse();
        assertThat(a.reason()).startsWith("no RDMA device: ");
    }
}
