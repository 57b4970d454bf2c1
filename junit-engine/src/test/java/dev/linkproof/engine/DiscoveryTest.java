package dev.linkproof.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.descriptor.SweepPointDescriptor;
import dev.linkproof.engine.descriptor.TransferClassDescriptor;
import dev.linkproof.engine.descriptor.TransferMethodDescriptor;
import dev.linkproof.engine.fixtures.DiscoverySweeps;
import dev.linkproof.transfer.Layout;
import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.Filter;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.testkit.engine.EngineDiscoveryResults;
import org.junit.platform.testkit.engine.EngineTestKit;

class DiscoveryTest {
    static final String CLASS = DiscoverySweeps.class.getName();
    static final String GRID =
            "[engine:linkproof]/[class:" + CLASS + "]/[method:grid(dev.linkproof.transfer.measure.Measurement)]";

    static EngineDiscoveryResults discover(
            Map<String, String> config, List<Filter<?>> filters, DiscoverySelector... selectors) {
        return EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameters(config)
                .configurationParameter(Constants.PROGRESS, "false")
                .filters(filters.toArray(Filter[]::new))
                .selectors(selectors)
                .discover();
    }

    static EngineDiscoveryResults discover(DiscoverySelector... selectors) {
        return discover(Map.of(), List.of(), selectors);
    }

    static List<SweepPointDescriptor> points(EngineDiscoveryResults r) {
        return r.getEngineDescriptor().getDescendants().stream()
                .filter(SweepPointDescriptor.class::isInstance)
                .map(SweepPointDescriptor.class::cast)
                .toList();
    }

    static List<String> ids(EngineDiscoveryResults r) {
        return points(r).stream().map(p -> p.getUniqueId().toString()).toList();
    }

    static SweepPointDescriptor point(EngineDiscoveryResults r, String segment) {
        return points(r).stream()
                .filter(p -> p.point().segment().equals(segment))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no point " + segment + " in " + ids(r)));
    }

    @Test
    void engineIdentity() {
        LinkproofTestEngine engine = new LinkproofTestEngine();
        assertThat(engine.getId()).isEqualTo("linkproof");
        assertThat(engine.getGroupId()).contains("dev.linkproof");
        assertThat(engine.getArtifactId()).contains("junit-engine");
        assertThat(discover(selectClass(DiscoverySweeps.class))
                        .getEngineDescriptor()
                        .getDisplayName())
                .isEqualTo("Linkproof");
    }

    @Test
    void sweepExpandsToOnePointPerCombinationWithReadableIds() {
        EngineDiscoveryResults r = discover(selectMethod(DiscoverySweeps.class, "grid", Measurement()));
        assertThat(r.getDiscoveryIssues()).isEmpty();
        assertThat(ids(r))
                .containsExactly(
                        GRID + "/[point:op=write,size=4096,batch=1,qps=4,depth=1,mem=host->host,transport=tcp]",
                        GRID + "/[point:op=write,size=65536,batch=1,qps=4,depth=1,mem=host->host,transport=tcp]",
                        GRID + "/[point:op=write,size=4096,batch=8,qps=4,depth=1,mem=host->host,transport=tcp]",
                        GRID + "/[point:op=write,size=65536,batch=8,qps=4,depth=1,mem=host->host,transport=tcp]",
                        GRID + "/[point:op=read,size=4096,batch=1,qps=4,depth=1,mem=host->host,transport=tcp]",
                        GRID + "/[point:op=read,size=65536,batch=1,qps=4,depth=1,mem=host->host,transport=tcp]",
                        GRID + "/[point:op=read,size=4096,batch=8,qps=4,depth=1,mem=host->host,transport=tcp]",
                        GRID + "/[point:op=read,size=65536,batch=8,qps=4,depth=1,mem=host->host,transport=tcp]");
        assertThat(points(r))
                .extracting(TestDescriptor::getDisplayName)
                .containsExactly(
                        "write 4 KiB ×1 · 4 conn · tcp",
                        "write 64 KiB ×1 · 4 conn · tcp",
                        "write 4 KiB ×8 · 4 conn · tcp",
                        "write 64 KiB ×8 · 4 conn · tcp",
                        "read 4 KiB ×1 · 4 conn · tcp",
                        "read 64 KiB ×1 · 4 conn · tcp",
                        "read 4 KiB ×8 · 4 conn · tcp",
                        "read 64 KiB ×8 · 4 conn · tcp");
    }

    private static String Measurement() {
        return dev.linkproof.transfer.measure.Measurement.class.getName();
    }

    @Test
    void idsAreDeterministicAndUnique() {
        List<String> first = ids(discover(selectClass(DiscoverySweeps.class)));
        List<String> second = ids(discover(selectClass(DiscoverySweeps.class)));
        assertThat(first).isEqualTo(second).doesNotHaveDuplicates().hasSize(8 + 24 + 4 + 2 + 1 + 1 + 1);
        assertThat(first)
                .allSatisfy(id -> assertThat(UniqueId.parse(id).toString()).isEqualTo(id));
    }

    @Test
    void pointDescribesItsSpecAndSource() {
        EngineDiscoveryResults r = discover(selectClass(DiscoverySweeps.class));
        SweepPointDescriptor p = point(r, "op=write,size=4096,batch=8,qps=4,depth=1,mem=host->host,transport=tcp");
        TransferSpec s = p.point().spec();
        assertThat(s.op()).isEqualTo(Op.WRITE);
        assertThat(s.size()).isEqualTo(4096);
        assertThat(s.batch()).isEqualTo(8);
        assertThat(s.connections()).isEqualTo(4);
        assertThat(s.pipelineDepth()).isEqualTo(1);
        assertThat(s.transport()).isEqualTo("tcp");
        assertThat(s.pointId()).isEqualTo(CLASS + "#grid[" + p.point().segment() + "]");
        assertThat(p.point().displayName()).isEqualTo(p.getDisplayName());
        assertThat(p.getType()).isEqualTo(TestDescriptor.Type.TEST);
        assertThat(p.getLegacyReportingName()).isEqualTo("grid[write 4 KiB ×8 · 4 conn · tcp]");
        assertThat(p.getSource()).containsInstanceOf(MethodSource.class);
        MethodSource source = (MethodSource) p.getSource().orElseThrow();
        assertThat(source.getClassName()).isEqualTo(CLASS);
        assertThat(source.getMethodName()).isEqualTo("grid");

        TestDescriptor method = p.getParent().orElseThrow();
        assertThat(method).isInstanceOf(TransferMethodDescriptor.class);
        assertThat(method.getDisplayName()).isEqualTo("grid");
        assertThat(method.getType()).isEqualTo(TestDescriptor.Type.CONTAINER);
        TestDescriptor clazz = method.getParent().orElseThrow();
        assertThat(clazz).isInstanceOf(TransferClassDescriptor.class);
        assertThat(clazz.getDisplayName()).isEqualTo("DiscoverySweeps");
        assertThat(clazz.getLegacyReportingName()).isEqualTo(CLASS);
        assertThat(clazz.getSource()).contains(ClassSource.from(DiscoverySweeps.class));
        assertThat(clazz.getChildren())
                .extracting(TestDescriptor::getDisplayName)
                .containsExactlyInAnyOrder(
                        "grid", "doubling", "linear", "quadrupling", "duplicates", "extras", "named");
    }

    @Test
    void doublingRangeWithBinarySuffixes() {
        EngineDiscoveryResults r = discover(selectMethod(DiscoverySweeps.class, "doubling", ""));
        List<SweepPointDescriptor> pts = points(r);
        assertThat(pts).hasSize(24);
        List<Long> sizes = pts.stream()
                .filter(p -> p.point().spec().batch() == 1)
                .map(p -> p.point().spec().size())
                .toList();
        assertThat(sizes)
                .containsExactly(
                        4096L, 8192L, 16384L, 32768L, 65536L, 131072L, 262144L, 524288L, 1L << 20, 2L << 20, 4L << 20,
                        8L << 20);
        assertThat(pts)
                .extracting(TestDescriptor::getDisplayName)
                .contains(
                        "write 4 KiB ×1 · 1 conn · tcp",
                        "write 8 MiB ×128 · 1 conn · tcp",
                        "write 512 KiB ×1 · 1 conn · tcp");
        assertThat(pts.getFirst().getUniqueId().toString())
                .isEqualTo("[engine:linkproof]/[class:" + CLASS + "]/[method:doubling()]"
                        + "/[point:op=write,size=4096,batch=1,qps=1,depth=1,mem=host->host,transport=tcp]");
    }

    @Test
    void linearAndMultiplyingSteps() {
        assertThat(points(discover(selectMethod(DiscoverySweeps.class, "linear", ""))))
                .extracting(p -> p.point().spec().size())
                .containsExactly(4096L, 8192L, 12288L, 16384L);
        assertThat(points(discover(selectMethod(DiscoverySweeps.class, "quadrupling", ""))))
                .extracting(p -> p.point().spec().size())
                .containsExactly(1L << 20, 4L << 20);
    }

    @Test
    void aSizeListedTwiceIsOnePoint() {
        assertThat(points(discover(selectMethod(DiscoverySweeps.class, "duplicates", ""))))
                .extracting(p -> p.point().segment())
                .containsExactly("op=write,size=4096,batch=1,qps=1,depth=1,mem=host->host,transport=tcp");
    }

    @Test
    void nonDefaultDimensionsShowInIdAndName() {
        EngineDiscoveryResults r = discover(
                selectMethod(DiscoverySweeps.class, "extras", dev.linkproof.engine.api.SweepPoint.class.getName()));
        SweepPointDescriptor p = points(r).getFirst();
        assertThat(p.point().segment())
                .isEqualTo(
                        "op=read,size=4097,batch=1,qps=1,depth=1,mem=host->hugepage,transport=tcp,offset=7,layout=strided,mode=latency");
        assertThat(p.getDisplayName())
                .isEqualTo("read 4097 B ×1 · 1 conn · tcp · +7 B offset · strided · latency · host→hugepage");
        TransferSpec s = p.point().spec();
        assertThat(s.offset()).isEqualTo(7);
        assertThat(s.layout()).isEqualTo(Layout.STRIDED);
        assertThat(s.mode()).isEqualTo(Mode.LATENCY);
        assertThat(s.initiatorMemory().kind()).isEqualTo(MemoryKind.HOST);
        assertThat(s.targetMemory().kind()).isEqualTo(MemoryKind.HUGEPAGE);
        assertThat(s.iterations()).isEqualTo(50);
        assertThat(s.warmup()).isEqualTo(3);
    }

    @Test
    void transportsPipelineAndSettings() {
        SweepPointDescriptor p = points(
                        discover(selectMethod(DiscoverySweeps.class, "named", TransferSpec.class.getName())))
                .getFirst();
        assertThat(p.point().segment())
                .isEqualTo("op=write,size=65536,batch=1,qps=1,depth=4,mem=host->host,transport=nope");
        assertThat(p.getDisplayName()).isEqualTo("write 64 KiB ×1 · 1 conn · nope · depth 4");
        assertThat(p.point().spec().settings()).containsExactly(Map.entry("A", "1"), Map.entry("B", "2"));
    }

    @Test
    void automaticIterationsMoveAboutAQuarterGibibyteAndScale() {
        SweepPointDescriptor small = points(
                        discover(selectMethod(DiscoverySweeps.class, "named", TransferSpec.class.getName())))
                .getFirst();
        assertThat(small.point().spec().iterations()).isEqualTo(1000); // 256 MiB / 64 KiB = 4096, capped at 1000
        assertThat(small.point().spec().warmup()).isEqualTo(100);

        EngineDiscoveryResults big = discover(selectMethod(DiscoverySweeps.class, "doubling", ""));
        SweepPointDescriptor eightMiB =
                point(big, "op=write,size=8388608,batch=1,qps=1,depth=1,mem=host->host,transport=tcp");
        assertThat(eightMiB.point().spec().iterations()).isEqualTo(32); // 256 MiB / 8 MiB
        assertThat(eightMiB.point().spec().warmup()).isEqualTo(3);
        SweepPointDescriptor oneGiB =
                point(big, "op=write,size=8388608,batch=128,qps=1,depth=1,mem=host->host,transport=tcp");
        assertThat(oneGiB.point().spec().iterations()).isEqualTo(10); // at least 10
        assertThat(oneGiB.point().spec().warmup()).isEqualTo(2); // at least 2

        SweepPointDescriptor scaled = points(discover(
                        Map.of(Constants.ITERATIONS_SCALE, "0.5"),
                        List.of(),
                        selectMethod(DiscoverySweeps.class, "named", TransferSpec.class.getName())))
                .getFirst();
        assertThat(scaled.point().spec().iterations()).isEqualTo(500);
        assertThat(scaled.point().spec().warmup()).isEqualTo(50);
        SweepPointDescriptor explicit = points(discover(
                        Map.of(Constants.ITERATIONS_SCALE, "0.1"),
                        List.of(),
                        selectMethod(
                                DiscoverySweeps.class, "extras", dev.linkproof.engine.api.SweepPoint.class.getName())))
                .getFirst();
        assertThat(explicit.point().spec().iterations()).isEqualTo(5);
    }

    @Test
    void defaultTransportComesFromConfiguration() {
        EngineDiscoveryResults r = discover(
                Map.of(Constants.TRANSPORT, "ucx"), List.of(), selectMethod(DiscoverySweeps.class, "duplicates", ""));
        SweepPointDescriptor p = points(r).getFirst();
        assertThat(p.point().spec().transport()).isEqualTo("ucx");
        assertThat(p.point().segment()).endsWith(",transport=ucx");
        // ucx is a real transport now: its connection noun is "ep".
        assertThat(p.getDisplayName()).isEqualTo("write 4 KiB ×1 · 1 ep · ucx");
    }

    @Test
    void aPointsUniqueIdSelectsJustThatPoint() {
        String id = GRID + "/[point:op=read,size=65536,batch=8,qps=4,depth=1,mem=host->host,transport=tcp]";
        EngineDiscoveryResults r = discover(selectUniqueId(id));
        assertThat(r.getDiscoveryIssues()).isEmpty();
        assertThat(ids(r)).containsExactly(id);
        TestDescriptor method = points(r).getFirst().getParent().orElseThrow();
        assertThat(method.getUniqueId().toString()).isEqualTo(GRID);
        assertThat(method.getChildren()).hasSize(1);
        assertThat(method.getParent().orElseThrow().getChildren())
                .as("no sibling methods")
                .hasSize(1);
    }

    @Test
    void twoPointIdsSelectTwoPoints() {
        String a = GRID + "/[point:op=write,size=4096,batch=1,qps=4,depth=1,mem=host->host,transport=tcp]";
        String b = GRID + "/[point:op=read,size=4096,batch=8,qps=4,depth=1,mem=host->host,transport=tcp]";
        assertThat(ids(discover(selectUniqueId(a), selectUniqueId(b)))).containsExactlyInAnyOrder(a, b);
    }

    @Test
    void aMethodAndOneOfItsPointsTogetherGiveEachPointOnce() {
        String a = GRID + "/[point:op=write,size=4096,batch=1,qps=4,depth=1,mem=host->host,transport=tcp]";
        List<String> ids = ids(discover(selectUniqueId(a), selectMethod(DiscoverySweeps.class, "grid", Measurement())));
        assertThat(ids).hasSize(8).doesNotHaveDuplicates().contains(a);
    }

    @Test
    void methodAndClassUniqueIdsSelectAllTheirPoints() {
        assertThat(ids(discover(selectUniqueId(GRID)))).hasSize(8).allMatch(id -> id.startsWith(GRID + "/"));
        assertThat(ids(discover(selectUniqueId("[engine:linkproof]/[class:" + CLASS + "]"))))
                .hasSize(41);
    }

    @Test
    void unknownIdsSelectNothing() {
        assertThat(ids(discover(selectUniqueId(
                        GRID + "/[point:op=write,size=3,batch=1,qps=4,depth=1,mem=host->host,transport=tcp]"))))
                .isEmpty();
        assertThat(ids(discover(selectUniqueId("[engine:linkproof]/[class:" + CLASS + "]/[method:grid()]"))))
                .isEmpty();
        assertThat(ids(discover(selectUniqueId("[engine:linkproof]/[class:no.such.Clazz]"))))
                .isEmpty();
        assertThat(ids(discover(selectUniqueId("[engine:other]/[class:" + CLASS + "]"))))
                .isEmpty();
    }

    @Test
    void classesWithoutTransferTestsAreNotOurs() {
        EngineDiscoveryResults r = discover(
                selectClass(DiscoveryTest.class),
                selectClass(dev.linkproof.engine.fixtures.pkg.NotATransferClass.class),
                selectClass(dev.linkproof.engine.fixtures.pkg.AbstractBase.class));
        assertThat(r.getEngineDescriptor().getChildren()).isEmpty();
        assertThat(r.getDiscoveryIssues()).isEmpty();
    }

    @Test
    void packageSelectorFindsEveryCandidateClass() {
        EngineDiscoveryResults r = discover(selectPackage("dev.linkproof.engine.fixtures.pkg"));
        String pkg = "dev.linkproof.engine.fixtures.pkg.";
        Set<String> classes = r.getEngineDescriptor().getChildren().stream()
                .map(d -> d.getUniqueId().getLastSegment().getValue())
                .collect(Collectors.toSet());
        assertThat(classes)
                .containsExactlyInAnyOrder(
                        pkg + "FirstInPackage",
                        pkg + "FirstInPackage$Nested",
                        pkg + "SecondInPackage",
                        pkg + "ConcreteChild");
        assertThat(points(r)).hasSize(2 + 1 + 2 + 1);
        SweepPointDescriptor inherited = points(r).stream()
                .filter(p -> p.getUniqueId().toString().contains("ConcreteChild"))
                .findFirst()
                .orElseThrow();
        assertThat(inherited.getUniqueId().toString())
                .isEqualTo("[engine:linkproof]/[class:" + pkg + "ConcreteChild]"
                        + "/[method:inherited()]"
                        + "/[point:op=write,size=65536,batch=1,qps=1,depth=1,mem=host->host,transport=tcp]");
        assertThat(((MethodSource) inherited.getSource().orElseThrow()).getClassName())
                .isEqualTo(pkg + "ConcreteChild");
    }

    @Test
    void tagsFromJupiterTagsPlusTransportAndOp() {
        EngineDiscoveryResults r = discover(selectClass(DiscoverySweeps.class));
        SweepPointDescriptor read = point(r, "op=read,size=4096,batch=1,qps=4,depth=1,mem=host->host,transport=tcp");
        assertThat(read.getTags())
                .containsExactlyInAnyOrder(TestTag.create("fixture"), TestTag.create("tcp"), TestTag.create("read"));
        SweepPointDescriptor slow = points(r).stream()
                .filter(p -> p.getParent().orElseThrow().getDisplayName().equals("doubling"))
                .findFirst()
                .orElseThrow();
        assertThat(slow.getTags())
                .containsExactlyInAnyOrder(
                        TestTag.create("fixture"),
                        TestTag.create("slow"),
                        TestTag.create("tcp"),
                        TestTag.create("write"));
        SweepPointDescriptor nope = points(r).stream()
                .filter(p -> p.point().spec().transport().equals("nope"))
                .findFirst()
                .orElseThrow();
        assertThat(nope.getTags()).contains(TestTag.create("nope"), TestTag.create("write"));
        TestDescriptor doubling = slow.getParent().orElseThrow();
        assertThat(doubling.getTags()).containsExactlyInAnyOrder(TestTag.create("fixture"), TestTag.create("slow"));
        assertThat(doubling.getParent().orElseThrow().getTags()).containsExactly(TestTag.create("fixture"));
    }

    @Test
    void tagFiltersSelectPointsByOpTransportAndJupiterTag() {
        List<SweepPointDescriptor> reads =
                points(discover(Map.of(), List.of(TagFilter.includeTags("read")), selectClass(DiscoverySweeps.class)));
        assertThat(reads).hasSize(4 + 1).allMatch(p -> p.point().spec().op() == Op.READ);
        List<SweepPointDescriptor> slow =
                points(discover(Map.of(), List.of(TagFilter.includeTags("slow")), selectClass(DiscoverySweeps.class)));
        assertThat(slow).hasSize(24);
        List<SweepPointDescriptor> notTcp =
                points(discover(Map.of(), List.of(TagFilter.excludeTags("tcp")), selectClass(DiscoverySweeps.class)));
        assertThat(notTcp).hasSize(1).allMatch(p -> p.point().spec().transport().equals("nope"));
    }
}
