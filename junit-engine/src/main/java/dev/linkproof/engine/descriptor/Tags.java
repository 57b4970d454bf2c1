package dev.linkproof.engine.descriptor;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Member;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Tag;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.engine.TestTag;

/**
 * Tags from Jupiter's {@code @Tag} (repeatable), read the way Jupiter reads them; invalid ones are dropped.
 * Read once per class and method: every point of a sweep asks for its class's and method's (100,000
 * points would read the same annotations 200,000 times), so they are kept beside the class
 * ({@link ClassValue}: no class is held past its loader).
 */
final class Tags {
    private static final ClassValue<Map<AnnotatedElement, Set<TestTag>>> READ = new ClassValue<>() {
        @Override
        protected Map<AnnotatedElement, Set<TestTag>> computeValue(Class<?> type) {
            return new ConcurrentHashMap<>();
        }
    };

    private Tags() {}

    /** A new set each call: callers add to it. */
    static Set<TestTag> of(AnnotatedElement element) {
        Class<?> owner = element instanceof Class<?> c ? c : element instanceof Member m ? m.getDeclaringClass() : null;
        return new LinkedHashSet<>(
                owner == null ? read(element) : READ.get(owner).computeIfAbsent(element, Tags::read));
    }

    private static Set<TestTag> read(AnnotatedElement element) {
        Set<TestTag> tags = new LinkedHashSet<>();
        for (Tag t : AnnotationSupport.findRepeatableAnnotations(element, Tag.class)) {
            if (TestTag.isValid(t.value())) {
                tags.add(TestTag.create(t.value().trim()));
            }
        }
        return java.util.Collections.unmodifiableSet(tags);
    }
}
