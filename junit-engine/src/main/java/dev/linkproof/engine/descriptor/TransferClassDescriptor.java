package dev.linkproof.engine.descriptor;

import dev.linkproof.engine.run.LinkproofExecutionContext;
import java.util.Set;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.hierarchical.Node;

/** A class holding {@code @TransferTest} methods. */
public final class TransferClassDescriptor extends AbstractTestDescriptor implements Node<LinkproofExecutionContext> {
    public static final String SEGMENT = "class";

    private final Class<?> testClass;

    public TransferClassDescriptor(UniqueId id, Class<?> testClass) {
        super(id, testClass.getSimpleName(), ClassSource.from(testClass));
        this.testClass = testClass;
    }

    public Class<?> testClass() {
        return testClass;
    }

    @Override
    public Type getType() {
        return Type.CONTAINER;
    }

    @Override
    public String getLegacyReportingName() {
        return testClass.getName();
    }

    @Override
    public Set<TestTag> getTags() {
        return Tags.of(testClass);
    }
}
