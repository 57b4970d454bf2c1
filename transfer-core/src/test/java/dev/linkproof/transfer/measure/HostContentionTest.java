package dev.linkproof.transfer.measure;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HostContentionTest {
    @Test
    void aHostIsBusyWhenOthersTookHalfACpuAndLessThanOneWasLeftIdle() {
        assertThat(new HostContention(0.9, 0.6, 2, 1).busy()).as("0.5 idle").isTrue();
        assertThat(new HostContention(0.6, 0.3, 2, 1).busy())
                .as("1.1 idle: our threads never waited")
                .isFalse();
        assertThat(new HostContention(0.4, 1.6, 2, 1).busy())
                .as("others under half a CPU")
                .isFalse();
        assertThat(new HostContention(2.0, 1.0, 128, 1).busy())
                .as("daemons on a big runner")
                .isFalse();
        assertThat(new HostContention(126.0, 1.5, 128, 1).busy()).isTrue();
        // Waiting for room before a rerun: ours took nothing while waiting, the rerun will need what the attempt took.
        HostContention waiting = new HostContention(0.9, 0.0, 2, 1);
        assertThat(waiting.busy()).isFalse();
        assertThat(waiting.busyFor(0.6)).isTrue();
        assertThat(waiting.busyFor(0.05)).isFalse();
    }
}
