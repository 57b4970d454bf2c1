package dev.linkproof.engine.run;

import dev.linkproof.engine.api.SweepPoint;
import dev.linkproof.engine.failure.Failures;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.session.TransferSession;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;

/**
 * Runs a test method with its parameters resolved by type. A fresh instance per point, as Jupiter
 * does by default, so points cannot leak state into each other.
 */
public final class MethodInvoker {
    /** The parameter types a {@code @TransferTest} method may declare. */
    public static final List<Class<?>> SUPPORTED =
            List.of(Measurement.class, SweepPoint.class, TransferSpec.class, TransferSession.class);

    private MethodInvoker() {}

    /**
     * Each test class's no-argument constructor, made accessible once: looked up per point it was a
     * copy of the class's constructors and an access check, a thousand times for a sweep of a
     * thousand points (bench/engine-overhead.sh, JFR). {@link #problem} has checked it exists.
     */
    private static final ClassValue<Constructor<?>> CONSTRUCTORS = new ClassValue<>() {
        @Override
        protected Constructor<?> computeValue(Class<?> type) {
            try {
                Constructor<?> c = type.getDeclaredConstructor();
                c.setAccessible(true);
                return c;
            } catch (NoSuchMethodException e) {
                throw new IllegalStateException(type.getName() + " has no no-argument constructor", e);
            }
        }
    };

    /** Why {@code method} cannot be invoked by the engine, or empty when it can. */
    public static Optional<String> problem(Class<?> testClass, Method method) {
        if (java.lang.reflect.Modifier.isStatic(method.getModifiers())) {
            return Optional.of("must not be static");
        }
        if (method.getReturnType() != void.class) {
            return Optional.of("must return void, not " + method.getReturnType().getSimpleName());
        }
        for (Class<?> p : method.getParameterTypes()) {
            if (!SUPPORTED.contains(p)) {
                return Optional.of("has a parameter of type " + p.getName()
                        + " that the engine cannot supply (supported: "
                        + String.join(
                                ", ",
                                SUPPORTED.stream().map(Class::getSimpleName).toList()) + ")");
            }
        }
        if (java.lang.reflect.Modifier.isAbstract(testClass.getModifiers())) {
            return Optional.of("is declared in an abstract class");
        }
        try {
            testClass.getDeclaredConstructor();
        } catch (NoSuchMethodException e) {
            return Optional.of("is in " + testClass.getName() + ", which has no no-argument constructor");
        }
        return Optional.empty();
    }

    public static void invoke(
            Class<?> testClass, Method method, Measurement m, SweepPoint point, TransferSession session)
            throws Exception {
        Object[] args = new Object[method.getParameterCount()];
        Class<?>[] types = method.getParameterTypes();
        for (int i = 0; i < args.length; i++) {
            Class<?> t = types[i];
            args[i] = t == Measurement.class
                    ? m
                    : t == SweepPoint.class ? point : t == TransferSpec.class ? point.spec() : session;
        }
        Object instance;
        try {
            instance = CONSTRUCTORS.get(testClass).newInstance();
            if (!method.canAccess(instance)) {
                method.setAccessible(true);
            }
            method.invoke(instance, args);
        } catch (InvocationTargetException e) {
            // What the method threw, with its frames and without the engine's below them.
            Throwable cause = Failures.withoutEngineFrames(e.getCause());
            if (cause instanceof Exception ex) {
                throw ex;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        }
    }
}
