package dev.linkproof.transfer.ucx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.transfer.PeerFailureException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * Which failed UCX operations are the peer's doing: a dead target must read as a peer failure (the
 * session then re-provisions), a misuse on this side must not. No libucp needed: status strings
 * fall back to the number.
 */
class UcxStatusTest {
    @Test
    void statusesOfAGonePeerArePeerFailures() {
        for (byte st : new byte[] {
            Ucx.UCS_ERR_CONNECTION_RESET,
            Ucx.UCS_ERR_UNREACHABLE,
            Ucx.UCS_ERR_CANCELED,
            Ucx.UCS_ERR_TIMED_OUT,
            Ucx.UCS_ERR_IO_ERROR,
            Ucx.UCS_ERR_NOT_CONNECTED,
            Ucx.UCS_ERR_REJECTED,
            -40,
            -59,
            -60,
            -80,
            -89
        }) {
            assertThat(Ucx.isPeerFailure(st)).as("status %d", st).isTrue();
            assertThat(UcxWorker.failure("put failed", st, null))
                    .as("status %d", st)
                    .isInstanceOf(PeerFailureException.class)
                    .hasMessageContaining("did the target rank die?");
        }
    }

    @Test
    void statusesOfThisSideAreNot() {
        for (byte st : new byte[] {-5 /* INVALID_PARAM */, -4 /* NO_MEMORY */, -22 /* UNSUPPORTED */, -39, -90}) {
            assertThat(Ucx.isPeerFailure(st)).as("status %d", st).isFalse();
            assertThat(UcxWorker.failure("put failed", st, null))
                    .as("status %d", st)
                    .isNotInstanceOf(PeerFailureException.class)
                    .isInstanceOf(Ucx.UcxException.class);
        }
    }

    @Test
    void aFailedEndpointMakesAnyStatusAPeerFailure() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment slots = a.allocate(2);
            slots.set(ValueLayout.JAVA_BYTE, 1, Ucx.UCS_ERR_CONNECTION_RESET);
            assertThat(UcxWorker.failure("flush failed", (byte) -5, slots))
                    .isInstanceOf(PeerFailureException.class)
                    .hasMessageContaining("endpoint 1 failed");
        }
    }
}
