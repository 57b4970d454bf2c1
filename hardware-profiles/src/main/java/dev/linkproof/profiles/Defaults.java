package dev.linkproof.profiles;

import java.util.OptionalInt;

/**
 * Values a sweep gets for what its annotation leaves unset. Empty = the engine's own default.
 *
 * @param qps         queue pairs / connections per pair
 * @param iterations  timed iterations per point
 * @param warmup      untimed iterations before them
 * @param batch       transfers per iteration
 */
public record Defaults(OptionalInt qps, OptionalInt iterations, OptionalInt warmup, OptionalInt batch) {
    public static final Defaults NONE =
            new Defaults(OptionalInt.empty(), OptionalInt.empty(), OptionalInt.empty(), OptionalInt.empty());
}
