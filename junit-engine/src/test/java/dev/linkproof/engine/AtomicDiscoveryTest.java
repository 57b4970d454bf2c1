package dev.linkproof.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.descriptor.SweepPointDescriptor;
import dev.linkproof.engine.fixtures.AtomicSweeps;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;

/** Atomic points at discovery: size 8 by default, named and identified like any point; another size is a discovery issue. */
class AtomicDiscoveryTest {
    @Test
    void atomicPointsAreEightBytesAndAnotherSizeIsAnIssue() {
        var results = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.PROGRESS, "false")
                .selectors(selectClass(AtomicSweeps.class))
                .discover();
        List<SweepPointDescriptor> points = results.getEngineDescriptor().getDescendants().stream()
                .filter(SweepPointDescriptor.class::isInstance)
                .map(SweepPointDescriptor.class::cast)
                .toList();
        assertThat(points)
                .extracting(SweepPointDescriptor::getDisplayName)
                .containsExactly(
                        "fetch-add 8 B ×1 · 1 ep · ucx", "fetch-add 8 B ×16 · 1 ep · ucx",
                        "compare-swap 8 B ×1 · 1 ep · ucx", "compare-swap 8 B ×16 · 1 ep · ucx");
        assertThat(points.getFirst().getUniqueId().toString())
                .endsWith("[point:op=fetch-add,size=8,batch=1,qps=1,depth=1,mem=host->host,transport=ucx]");
        assertThat(results.getDiscoveryIssues())
                .singleElement()
                .satisfies(i -> assertThat(i.message())
                        .contains("wrongSize")
                        .contains("fetch-add is an 8-byte atomic: size must be 8, was 4096"));
    }
}
