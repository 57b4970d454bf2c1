package dev.linkproof.engine.api;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A list of message sizes: either {@link #values()}, or a range {@link #from()}..{@link #to()}
 * walked by {@link #step()}. Sizes take binary suffixes: {@code "4KiB"}, {@code "1MiB"}, {@code "4097"}.
 * <pre>{@code
 * @Sweep(from = "4KiB", to = "8MiB")              // 4 KiB, 8 KiB, ... 8 MiB (×2 by default)
 * @Sweep(from = "4KiB", to = "64KiB", step = "+4KiB") // linear
 * @Sweep(values = {"1", "3", "4097", "1000003"})
 * }</pre>
 */
@Target({})
@Retention(RetentionPolicy.RUNTIME)
public @interface Sweep {
    String[] values() default {};

    String from() default "";

    String to() default "";

    /** {@code "x2"} (multiply, the default), {@code "x4"}, or {@code "+4KiB"} (add). */
    String step() default "x2";
}
