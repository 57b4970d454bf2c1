package dev.linkproof.transfer.nativeaccess;

import dev.linkproof.transfer.TransferException;
import java.lang.foreign.Arena;

/**
 * What every hand-written FFM binding (verbs, ucx) does around its setup-path downcalls: a confined
 * arena for the arguments and out-parameters, closed when the calls return, and one translation of
 * failures. A {@link TransferException} the body throws passes through; anything else
 * ({@code invokeExact} declares {@code Throwable}, and a bug in the body is as much a failure of the
 * call) becomes a {@code TransferException} naming the call, with the cause. The body is a lambda,
 * allocated per call: for provisioning and teardown, never for a measured loop.
 */
public final class Downcalls {
    private Downcalls() {}

    /** Downcalls that need an arena for their arguments; may throw whatever invokeExact does. */
    @FunctionalInterface
    public interface InArena<T> {
        T call(Arena arena) throws Throwable;
    }

    /**
     * Runs {@code body} with a fresh confined arena. A failure other than a {@link TransferException}
     * becomes {@code TransferException("<what> failed: <cause>")}, e.g. {@code what} =
     * {@code "ibv_alloc_pd downcall"}.
     */
    public static <T> T inArena(String what, InArena<T> body) throws TransferException {
        try (Arena arena = Arena.ofConfined()) {
            return body.call(arena);
        } catch (TransferException e) {
            throw e;
        } catch (Throwable t) {
            throw new TransferException(what + " failed: " + t, t);
        }
    }
}
