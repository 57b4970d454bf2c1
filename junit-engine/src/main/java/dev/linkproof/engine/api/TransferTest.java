package dev.linkproof.engine.api;

import dev.linkproof.transfer.Layout;
import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.platform.commons.annotation.Testable;

/**
 * A sweep of transfers between the two ranks. The engine expands the cross product of
 * {@code op × sizes × batch × qps × pipeline × offset × memory × transport} into one test per
 * point; each point is provisioned, timed, validated, and then the method runs with what it asks
 * for ({@code Measurement}, {@link SweepPoint}, {@code TransferSpec}, {@code TransferSession}).
 * A method without parameters passes when its data validates.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Testable
public @interface TransferTest {
    /**
     * What each transfer does. {@code FETCH_ADD} and {@code COMPARE_SWAP} are 8-byte remote atomics:
     * every slot of the batch is one counter, validated by its values (see docs/writing-tests.md).
     */
    Op[] op() default Op.WRITE;

    /** Bytes per transfer. For an atomic op the default means 8 (the counter's width); any other size is a discovery issue. */
    Sweep sizes() default @Sweep(values = "64KiB");

    /** Transfers per iteration, each into its own slot; empty = the profile's default, else 1. */
    int[] batch() default {};

    /** Queue pairs (verbs), connections (tcp) or endpoints (ucx) used in parallel; empty = the profile's default, else 1. */
    int[] qps() default {};

    /** Batches in flight; 1 = stop-and-wait, as nixlbench and MORI-IO measure by default. */
    int[] pipeline() default 1;

    /** Misalignment of every slot's start in bytes (0..4095), on both ranks. */
    long[] offset() default 0;

    /** Memory placement, {@code "host"} or {@code "initiator->target"}, e.g. {@code "host->gpu:1"}. */
    String[] memory() default "host";

    /** Transport ids; empty = the run's default ({@code linkproof.transport}, tcp unless set). */
    String[] transport() default {};

    Mode mode() default Mode.BANDWIDTH;

    Layout layout() default Layout.CONTIGUOUS;

    /** Timed iterations; 0 = the profile's default, else chosen from the point's size (about 256 MiB moved, 10..1000). */
    int iterations() default 0;

    /** Untimed iterations before the timer starts; -1 = the profile's default, else a tenth of the iterations, at least 2. */
    int warmup() default -1;

    /** Transport settings given to both ranks, as {@code "KEY=value"}. */
    String[] settings() default {};

    /**
     * Rails run at once, each its own pair of NICs (or of tcp addresses) between the same two nodes,
     * all starting their timed loops together; the point's figures are their aggregate and each
     * rail's own. {@code 1} (the default): one pair; {@link #ALL_RAILS}: every rail the profile
     * resolves (verbs: NIC i of the initiator with NIC i of the target; tcp: {@code linkproof.tcp.rails}).
     */
    int[] rails() default 1;

    /** {@link #rails()}: every rail the profile resolves. */
    int ALL_RAILS = 0;

    /** One way (the default), or both ways at once on every rail ({@link Direction#BOTH_WAYS}, as perftest's {@code -b}). */
    Direction direction() default Direction.ONE_WAY;
}
