package dev.linkproof.engine.discovery;

import dev.linkproof.engine.api.Sweep;
import dev.linkproof.engine.api.TransferTest;
import dev.linkproof.profiles.Defaults;
import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.Units;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.platform.engine.TestTag;

/**
 * One {@link TransferTest}'s dimensions, read and checked: values parsed and in range, the profile's defaults
 * filled in, the run's overrides applied. Every mistake is reported at once ("batch 0 out of range 1..65536;
 * offset 4096 out of range 0..4095"), so a method with several takes one round to mend.
 *
 * @param placements the memory placements with the run's GPU shifts (one-rail, one-way points repeat over them)
 * @param written    the placements as written (points of several rails or both ways place their GPUs themselves)
 * @param paths      what the other dimensions repeat over: transport × NIC × rails
 */
record SweepDimensions(
        List<Op> ops,
        List<Long> sizes,
        boolean defaultSizes,
        int[] batches,
        int[] qps,
        int[] depths,
        long[] offsets,
        List<Placement> placements,
        List<Placement> written,
        Map<String, String> settings,
        List<PointPath> paths) {
    /** Largest number of points one method may expand to: a typo in a range must not make a million tests. */
    static final int MAX_POINTS = 10_000;
    /** The most rails a point may name: more NICs than any node has. */
    static final int MAX_RAILS = dev.linkproof.engine.config.LinkproofConfiguration.MAX_RAILS;
    /** {@code @TransferTest}'s own {@code sizes}: an atomic reads it as its counter's 8 bytes. */
    private static final Sweep DEFAULT_SIZES = declaredDefaultSizes();

    static SweepDimensions read(TransferTest t, Defaults defaults, RunOverrides run, String defaultTransport)
            throws InvalidSweepException {
        List<String> problems = new ArrayList<>();
        List<Long> sizes = check(problems, () -> sizes(t.sizes()), List.of());
        int[] batches = check(
                problems,
                () -> positive(
                        "batch",
                        t.batch().length == 0 ? new int[] {defaults.batch().orElse(1)} : t.batch(),
                        TransferSpec.MAX_BATCH),
                new int[0]);
        int[] qps = check(
                problems,
                () -> positive(
                        "qps",
                        t.qps().length == 0 ? new int[] {defaults.qps().orElse(1)} : t.qps(),
                        TransferSpec.MAX_CONNECTIONS),
                new int[0]);
        int[] depths = check(problems, () -> positive("pipeline", t.pipeline(), TransferSpec.MAX_PIPELINE), new int[0]);
        if (t.rails().length == 0) {
            problems.add("rails is empty");
        }
        for (int r : t.rails()) {
            if (r < 0 || r > MAX_RAILS) {
                problems.add("rails " + r + " out of range 0.." + MAX_RAILS
                        + " (0 = TransferTest.ALL_RAILS, every rail the profile resolves)");
            }
        }
        if (t.op().length == 0) {
            problems.add("op is empty");
        }
        if (t.offset().length == 0) {
            problems.add("offset is empty");
        }
        for (long o : t.offset()) {
            if (o < 0 || o > 4095) {
                problems.add("offset " + o + " out of range 0..4095");
            }
        }
        if (t.mode() == Mode.LATENCY) {
            for (int d : depths) {
                if (d != 1) {
                    problems.add("pipeline " + d + " with mode = LATENCY: latency mode is stop-and-wait (pipeline 1)");
                }
            }
        }
        if (t.iterations() < 0) {
            problems.add("iterations " + t.iterations() + " must be >= 0 (0 = automatic)");
        }
        if (t.warmup() < -1) {
            problems.add("warmup " + t.warmup() + " must be >= 0 (-1 = automatic)");
        }
        List<Placement> placements = new ArrayList<>();
        List<Placement> written = new ArrayList<>();
        // A placement the GPU shifts make twice (gpu->gpu and gpu:1->gpu:1) is one, and counts once.
        Set<String> shifted = new HashSet<>();
        Set<String> asWritten = new HashSet<>();
        for (String m : t.memory()) {
            check(
                    problems,
                    () -> {
                        Placement p = Placement.parse(m);
                        run.shifts(p).stream()
                                .filter(s -> shifted.add(s.toString()))
                                .forEach(placements::add);
                        if (asWritten.add(p.toString())) {
                            written.add(p);
                        }
                        return null;
                    },
                    null);
        }
        if (t.memory().length == 0) {
            problems.add("memory is empty");
        }
        String[] transports = t.transport().length == 0 ? new String[] {defaultTransport} : t.transport();
        for (String id : transports) {
            // A transport id becomes a tag of its points, so it must be a valid JUnit tag.
            if (!TestTag.isValid(id)) {
                problems.add("transport '" + id
                        + "' is not a valid transport id (no blanks, commas, parentheses, &, | or !)");
            }
        }
        Map<String, String> settings = check(problems, () -> settings(t.settings()), Map.of());
        List<PointPath> paths = new ArrayList<>();
        for (String transport : transports) {
            for (int r : run.railsFor(transport, t.rails())) {
                // A point of several rails runs on the devices of all of them: it is not repeated per device.
                boolean both = run.bothWays(transport, t.direction());
                List<String> nics =
                        r == 1 && !both ? run.nicsFor(transport, settings) : java.util.Collections.singletonList(null);
                nics.forEach(nic -> paths.add(new PointPath(transport, nic, r, both)));
            }
        }
        long count = (long) t.op().length
                * sizes.size()
                * batches.length
                * qps.length
                * depths.length
                * t.offset().length
                * placements.size()
                * paths.size();
        if (count > MAX_POINTS) {
            problems.add("the sweep expands to " + count + " points, more than " + MAX_POINTS);
        }
        if (!problems.isEmpty()) {
            throw new InvalidSweepException(String.join("; ", problems));
        }
        return new SweepDimensions(
                List.of(t.op()),
                sizes,
                t.sizes().equals(DEFAULT_SIZES),
                batches,
                qps,
                depths,
                t.offset(),
                placements,
                written,
                settings,
                paths);
    }

    /** The sizes a point of {@code op} runs: an atomic's is its counter's width, 8, where the sizes are the default. */
    List<Long> sizesFor(Op op) {
        // The default sizes (64 KiB, made for moving bytes) mean the counter; sizes given explicitly
        // are checked by TransferSpec, which names the 8 it needs.
        return op.atomic() && defaultSizes ? List.of((long) Op.ATOMIC_BYTES) : sizes;
    }

    /** The placements the points of {@code path} repeat over. */
    List<Placement> placementsFor(PointPath path) {
        return path.single() ? placements : written;
    }

    /** A dimension's check that throws {@link InvalidSweepException}. */
    @FunctionalInterface
    private interface Check<T> {
        T get() throws InvalidSweepException;
    }

    /** {@code check}'s value, or {@code fallback} with its problem added to {@code problems}. */
    private static <T> T check(List<String> problems, Check<T> check, T fallback) {
        try {
            return check.get();
        } catch (InvalidSweepException e) {
            problems.add(e.getMessage());
            return fallback;
        }
    }

    static List<Long> sizes(Sweep s) throws InvalidSweepException {
        boolean range = !s.from().isEmpty() || !s.to().isEmpty();
        if (range && s.values().length > 0) {
            throw new InvalidSweepException("sizes: give either values or from/to, not both");
        }
        List<Long> out = new ArrayList<>();
        if (!range) {
            if (s.values().length == 0) {
                throw new InvalidSweepException("sizes: no values");
            }
            for (String v : s.values()) {
                out.add(size(v));
            }
            return out;
        }
        if (s.from().isEmpty() || s.to().isEmpty()) {
            throw new InvalidSweepException("sizes: a range needs both from and to");
        }
        long from = size(s.from());
        long to = size(s.to());
        if (from > to) {
            throw new InvalidSweepException(
                    "sizes: from " + s.from() + " is larger than to " + s.to() + " (empty range)");
        }
        String step = s.step().trim();
        if (step.startsWith("x") || step.startsWith("X") || step.startsWith("×") || step.startsWith("*")) {
            long factor;
            try {
                factor = Long.parseLong(step.substring(1).trim());
            } catch (NumberFormatException e) {
                throw new InvalidSweepException("sizes: bad step '" + s.step() + "' (expected x2, x4 or +4KiB)");
            }
            if (factor < 2) {
                throw new InvalidSweepException("sizes: step '" + s.step() + "' must multiply by at least 2");
            }
            for (long v = from; v <= to; v = Math.multiplyExact(v, factor)) {
                out.add(v);
                if (v > Long.MAX_VALUE / factor) {
                    break;
                }
            }
        } else if (step.startsWith("+")) {
            long inc;
            try {
                inc = Units.parseSize(step.substring(1));
            } catch (IllegalArgumentException e) {
                throw new InvalidSweepException("sizes: bad step '" + s.step() + "': " + e.getMessage());
            }
            if (inc <= 0) {
                throw new InvalidSweepException("sizes: step '" + s.step() + "' must be positive");
            }
            for (long v = from; v <= to; v += inc) {
                out.add(v);
                if (out.size() > MAX_POINTS) {
                    throw new InvalidSweepException("sizes: " + s.from() + ".." + s.to() + " step " + s.step()
                            + " gives more than " + MAX_POINTS + " sizes");
                }
            }
        } else {
            throw new InvalidSweepException("sizes: bad step '" + s.step() + "' (expected x2, x4 or +4KiB)");
        }
        return out;
    }

    private static long size(String text) throws InvalidSweepException {
        try {
            long v = Units.parseSize(text);
            if (v < 1 || v > TransferSpec.MAX_SIZE) {
                throw new InvalidSweepException(
                        "sizes: " + text + " out of range 1 B.." + Units.formatSize(TransferSpec.MAX_SIZE));
            }
            return v;
        } catch (IllegalArgumentException e) {
            throw new InvalidSweepException("sizes: " + e.getMessage());
        }
    }

    private static int[] positive(String what, int[] values, int max) throws InvalidSweepException {
        if (values.length == 0) {
            throw new InvalidSweepException(what + " is empty");
        }
        for (int v : values) {
            if (v < 1 || v > max) {
                throw new InvalidSweepException(what + " " + v + " out of range 1.." + max);
            }
        }
        return values;
    }

    private static Map<String, String> settings(String[] pairs) throws InvalidSweepException {
        Map<String, String> out = new LinkedHashMap<>();
        for (String p : pairs) {
            int eq = p.indexOf('=');
            if (eq <= 0) {
                throw new InvalidSweepException("settings: '" + p + "' is not KEY=value");
            }
            out.put(p.substring(0, eq).trim(), p.substring(eq + 1).trim());
        }
        return out;
    }

    private static Sweep declaredDefaultSizes() {
        try {
            return (Sweep) TransferTest.class.getMethod("sizes").getDefaultValue();
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }
}
