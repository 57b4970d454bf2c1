package dev.linkproof.transfer.nativeaccess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.TransferException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The bindings' one way of running setup downcalls: the arena's life and the failures' translation. */
class DowncallsTest {
    @Test
    void returnsTheBodysValueAndClosesTheArenaAfterwards() throws Exception {
        AtomicReference<MemorySegment> kept = new AtomicReference<>();
        int v = Downcalls.inArena("test downcall", arena -> {
            MemorySegment s = arena.allocate(ValueLayout.JAVA_INT);
            s.set(ValueLayout.JAVA_INT, 0, 42);
            kept.set(s);
            return s.get(ValueLayout.JAVA_INT, 0);
        });
        assertThat(v).isEqualTo(42);
        assertThat(kept.get().scope().isAlive())
                .as("the arena is closed once the body returns")
                .isFalse();
    }

    @Test
    void aTransferExceptionPassesThroughUnchanged() {
        PeerFailureException thrown = new PeerFailureException("the peer is gone");
        assertThatThrownBy(() -> Downcalls.inArena("test downcall", arena -> {
                    throw thrown;
                }))
                .isSameAs(thrown);
    }

    @Test
    void anythingElseBecomesATransferExceptionNamingTheCall() {
        assertThatThrownBy(() -> Downcalls.inArena("ibv_alloc_pd downcall", arena -> {
                    throw new Throwable("linkage");
                }))
                .isExactlyInstanceOf(TransferException.class)
                .hasMessage("ibv_alloc_pd downcall failed: java.lang.Throwable: linkage")
                .hasCauseInstanceOf(Throwable.class);
        assertThatThrownBy(() -> Downcalls.inArena("ucp_worker_create downcall", arena -> {
                    throw new IllegalStateException("ucx unavailable");
                }))
                .isExactlyInstanceOf(TransferException.class)
                .hasMessageContaining("ucp_worker_create downcall failed")
                .hasMessageContaining("ucx unavailable");
    }
}
