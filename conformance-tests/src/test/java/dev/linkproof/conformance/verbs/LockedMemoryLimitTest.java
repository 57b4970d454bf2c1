package dev.linkproof.conformance.verbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.transfer.memory.HostLimits;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.junit.jupiter.api.Test;

/**
 * {@link LockedMemoryLimit}, which the VM's verbs test relies on, checked on this host with what pins
 * memory everywhere: mlock(2). Inside it 1 MiB cannot be locked (the kernel asks the calling thread's
 * capabilities, as it does for ibv_reg_mr), and {@link HostLimits} reads the limit and the dropped
 * capability from /proc and names them; outside it, as before.
 */
class LockedMemoryLimitTest {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle MLOCK = LINKER.downcallHandle(
            LINKER.defaultLookup().find("mlock").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG),
            Linker.Option.captureCallState("errno"));
    private static final MethodHandle MUNLOCK = LINKER.downcallHandle(
            LINKER.defaultLookup().find("munlock").orElseThrow(), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));

    /** mlock of 1 MiB: 0, or the errno it failed with. */
    private static int lockOneMiB() throws Throwable {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment memory = a.allocate(1 << 20, 4096);
            MemorySegment state = a.allocate(Linker.Option.captureStateLayout());
            int rc = (int) MLOCK.invokeExact(state, memory, (long) (1 << 20));
            if (rc == 0) {
                int ignored = (int) MUNLOCK.invokeExact(memory, (long) (1 << 20));
                return 0;
            }
            return state.get(
                    JAVA_INT,
                    Linker.Option.captureStateLayout()
                            .byteOffset(java.lang.foreign.MemoryLayout.PathElement.groupElement("errno")));
        }
    }

    @Test
    void underItNothingCanBePinnedPastTheLimitAndTheLimitIsNamed() throws Exception {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "Linux capabilities and rlimits");
        record Seen(int errno, java.util.Optional<String> shortfall) {}
        Seen seen = LockedMemoryLimit.under(64 << 10, () -> {
            try {
                return new Seen(lockOneMiB(), HostLimits.here().lockedMemoryShortfall(1 << 20));
            } catch (Throwable t) {
                throw new Exception(t);
            }
        });
        assertThat(seen.errno())
                .as("mlock(1 MiB) under a 64 KiB limit without CAP_IPC_LOCK: ENOMEM or EPERM")
                .isIn(12, 1);
        assertThat(seen.shortfall())
                .hasValueSatisfying(m -> assertThat(m)
                        .startsWith("the locked-memory limit (RLIMIT_MEMLOCK, ulimit -l) of this process is 64"
                                + " KiB, and registering 1 MiB"));
        if (HostLimits.here().lockedMemoryShortfall(1 << 20).isEmpty()) {
            try {
                assertThat(lockOneMiB())
                        .as("mlock(1 MiB) afterwards, limits restored")
                        .isZero();
            } catch (Throwable t) {
                throw new AssertionError(t);
            }
        }
    }
}
