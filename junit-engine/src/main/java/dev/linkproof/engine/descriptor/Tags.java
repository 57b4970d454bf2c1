package dev.linkproof.engine.descriptor;

import java.lang.reflect.AnnotatedElement;
import java.util.LinkedHashSet;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.engine.TestTag;

/** Tags from Jupiter's {@code @Tag} (repeatable), read the way Jupiter reads them; invalid ones are dropped. */
final class Tags {
    private Tags() {
    }

    static Set<TestTag> of(AnnotatedElement element) {
        Set<TestTag> tags = new LinkedHashSet<>();
        for (Tag t : AnnotationSupport.findRepeatableAnnotations(element, Tag.class)) {
            if (TestTag.isValid(t.value())) {
                tags.add(TestTag.create(t.value().trim()));
            }
        }
        return tags;
    }
}
