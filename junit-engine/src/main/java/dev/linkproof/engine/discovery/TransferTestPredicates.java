package dev.linkproof.engine.discovery;

import dev.linkproof.engine.api.TransferTest;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

/** Which classes and methods belong to this engine. */
final class TransferTestPredicates {
    private TransferTestPredicates() {}

    static boolean isCandidateClass(Class<?> c) {
        return !c.isAnnotation()
                && !c.isEnum()
                && !c.isInterface()
                && !c.isSynthetic()
                && !Modifier.isAbstract(c.getModifiers())
                && !c.isAnonymousClass()
                && !c.isLocalClass()
                && (c.getEnclosingClass() == null || Modifier.isStatic(c.getModifiers()))
                && !transferMethods(c).isEmpty();
    }

    static List<Method> transferMethods(Class<?> c) {
        try {
            return ReflectionSupport.findMethods(
                    c, m -> AnnotationSupport.isAnnotated(m, TransferTest.class), HierarchyTraversalMode.TOP_DOWN);
        } catch (Throwable e) {
            // an unloadable class is not ours
            return List.of();
        }
    }
}
