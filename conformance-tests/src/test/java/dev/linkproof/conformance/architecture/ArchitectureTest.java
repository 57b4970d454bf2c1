package dev.linkproof.conformance.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.linkproof.engine.config.LinkproofConfiguration;
import dev.linkproof.engine.judging.ProfileCriteria;
import dev.linkproof.engine.judging.ProfilePlacement;
import dev.linkproof.engine.judging.ProfileRequirements;
import dev.linkproof.engine.judging.RunProfile;
import dev.linkproof.engine.run.RunSetup;
import dev.linkproof.transfer.spi.Transports;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The product's shape, held by ArchUnit over the main classes of every module: no package cycle
 * anywhere; the modules layered as docs/design.md draws them (transfer-core ← hardware-profiles, fleet ←
 * reports ← junit-engine), transfer-core free of JUnit and Allure; and the engine's rooms in their order
 * (config ← failure ← judging ← reporting ← run ← descriptor ← discovery ← the engine class).
 */
class ArchitectureTest {
    private static JavaClasses product;

    @BeforeAll
    static void importTheProduct() {
        // The main classes only: not test classes, nor the test tools other modules ship as test-jars.
        product = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("dev.linkproof");
    }

    @Test
    void noPackageIsPartOfACycle() {
        slices().matching("dev.linkproof.(**)").should().beFreeOfCycles().check(product);
    }

    @Test
    void theModulesAreLayeredAsTheDesignDrawsThem() {
        layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("transfer-core")
                .definedBy("dev.linkproof.transfer..")
                .layer("hardware-profiles")
                .definedBy("dev.linkproof.profiles..")
                .layer("fleet")
                .definedBy("dev.linkproof.fleet..")
                .layer("reports")
                .definedBy("dev.linkproof.reports..")
                .layer("junit-engine")
                .definedBy("dev.linkproof.engine..")
                .whereLayer("junit-engine")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("reports")
                .mayOnlyBeAccessedByLayers("junit-engine")
                .whereLayer("fleet")
                .mayOnlyBeAccessedByLayers("reports", "junit-engine")
                .whereLayer("hardware-profiles")
                .mayOnlyBeAccessedByLayers("reports", "junit-engine")
                .check(product);
    }

    /** The fleet knows neither profiles nor a test framework: the engine hands it numbers and drives it. */
    @Test
    void theFleetKnowsNoProfileAndNoTestFramework() {
        noClasses()
                .that()
                .resideInAPackage("dev.linkproof.fleet..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("dev.linkproof.profiles..", "org.junit..", "org.opentest4j..", "io.qameta..")
                .check(product);
    }

    /**
     * The fleet's campaign decides; the engine adapts. The engine may hold the fleet's values (a
     * blame, a verdict, a point, a pair, a pair's run) and drive its campaign, but it plans no round,
     * judges no pair, reaches no verdict, and acts on no node itself.
     */
    @Test
    void theEngineNeitherPlansNorBlamesNorActs() {
        noClasses()
                .that()
                .resideInAPackage("dev.linkproof.engine..")
                .should()
                .dependOnClassesThat(DescribedPredicate.describe(
                        "plan, judge, blame, rendezvous or act for the fleet",
                        c -> c.getPackageName().startsWith("dev.linkproof.fleet.rendezvous")
                                || c.getPackageName().startsWith("dev.linkproof.fleet.plan")
                                        && !c.getSimpleName().equals("Pair")
                                || c.getPackageName().startsWith("dev.linkproof.fleet.coordinate")
                                        && !c.getSimpleName().equals("PairRun")
                                || c.getPackageName().startsWith("dev.linkproof.fleet.act")
                                        && !List.of("ActAfter", "History").contains(c.getSimpleName())
                                || c.getPackageName().startsWith("dev.linkproof.fleet.blame")
                                        && List.of(
                                                        "Blamer",
                                                        "Verdicts",
                                                        "RetestPlanner",
                                                        "ConfirmationPlanner",
                                                        "FleetRelative",
                                                        "PairJudge",
                                                        "Rules",
                                                        "Ledger")
                                                .contains(c.getSimpleName())))
                .check(product);
    }

    /**
     * Skip or fail is decided in one place: only Admission asks the profile's requirements whether
     * memory is provided, a device resolved, a NIC fit or a transport required. A rule added there
     * takes effect for every point; a second place that asked would be a second decision to keep in step.
     */
    @Test
    void onlyTheAdmissionDecidesSkipOrFail() {
        noClasses()
                .that()
                .doNotBelongToAnyOf(RunProfile.class, ProfileRequirements.class)
                .and()
                .doNotHaveFullyQualifiedName("dev.linkproof.engine.run.Admission")
                .should()
                .dependOnClassesThat()
                .belongToAnyOf(ProfileRequirements.class)
                .check(product);
    }

    /**
     * The profile's parts keep to their jobs: placement and criteria decide nothing about whether a
     * point may run, and none reaches back to the holder. Requirements may ask where a point runs
     * (whether the NIC it lands on is fit).
     */
    @Test
    void theProfilesPartsKeepToTheirJobs() {
        noClasses()
                .that()
                .belongToAnyOf(ProfilePlacement.class)
                .should()
                .dependOnClassesThat()
                .belongToAnyOf(RunProfile.class, ProfileRequirements.class, ProfileCriteria.class)
                .check(product);
        noClasses()
                .that()
                .belongToAnyOf(ProfileCriteria.class)
                .should()
                .dependOnClassesThat()
                .belongToAnyOf(RunProfile.class, ProfilePlacement.class, ProfileRequirements.class)
                .check(product);
        noClasses()
                .that()
                .belongToAnyOf(ProfileRequirements.class)
                .should()
                .dependOnClassesThat()
                .belongToAnyOf(RunProfile.class, ProfileCriteria.class)
                .check(product);
    }

    /**
     * The engine's descriptors print nothing themselves: every line goes through the progress printer, which
     * linkproof.progress=false silences.
     */
    @Test
    void noDescriptorPrintsToTheConsole() {
        noClasses()
                .that()
                .resideInAPackage("dev.linkproof.engine.descriptor..")
                .should()
                .accessField(System.class, "out")
                .orShould()
                .accessField(System.class, "err")
                .check(product);
    }

    /** A launcher or another harness drives transfer-core without a test framework. */
    @Test
    void transferCoreKnowsNoTestFramework() {
        noClasses()
                .that()
                .resideInAPackage("dev.linkproof.transfer..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.junit..", "org.opentest4j..", "io.qameta..", "org.assertj..")
                .check(product);
    }

    /**
     * Each room of the engine uses only those below it: configuration and failure types at the
     * bottom, then judging (decides), reporting (writes down), the point's run, the descriptors JUnit
     * sees, discovery, and the engine class on top. The user's API is used by all.
     */
    @Test
    void theEnginesRoomsAreLayered() {
        layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("engine")
                .definedBy("dev.linkproof.engine")
                .layer("discovery")
                .definedBy("dev.linkproof.engine.discovery..")
                .layer("descriptor")
                .definedBy("dev.linkproof.engine.descriptor..")
                .layer("run")
                .definedBy("dev.linkproof.engine.run..")
                .layer("reporting")
                .definedBy("dev.linkproof.engine.reporting..")
                .layer("judging")
                .definedBy("dev.linkproof.engine.judging..")
                .layer("failure")
                .definedBy("dev.linkproof.engine.failure..")
                .layer("config")
                .definedBy("dev.linkproof.engine.config..")
                .whereLayer("engine")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("discovery")
                .mayOnlyBeAccessedByLayers("engine")
                .whereLayer("descriptor")
                .mayOnlyBeAccessedByLayers("discovery", "engine")
                .whereLayer("run")
                .mayOnlyBeAccessedByLayers("descriptor", "discovery", "engine")
                .whereLayer("reporting")
                .mayOnlyBeAccessedByLayers("run", "descriptor", "engine")
                .whereLayer("judging")
                .mayOnlyBeAccessedByLayers("reporting", "run", "descriptor", "engine")
                .whereLayer("failure")
                .mayOnlyBeAccessedByLayers("judging", "reporting", "run", "descriptor", "engine")
                .check(product);
    }

    /**
     * A run reads its configuration and loads its profile (probing the host) once, at discovery
     * ({@link RunSetup}), and everything after uses what it loaded: no other class of the product
     * parses the configuration or loads the profile.
     */
    @Test
    void onlyRunSetupLoadsTheRun() {
        DescribedPredicate<JavaMethodCall> loadsTheRun = DescribedPredicate.describe(
                "parse the configuration or load the profile",
                call -> call.getTargetOwner().isEquivalentTo(RunProfile.class)
                                && call.getName().equals("load")
                        || call.getTargetOwner().isEquivalentTo(LinkproofConfiguration.class)
                                && (call.getName().equals("parse")
                                        || call.getName().equals("from")));
        noClasses()
                .that()
                .doNotBelongToAnyOf(RunSetup.class, RunProfile.class, LinkproofConfiguration.class)
                .should()
                .callMethodWhere(loadsTheRun)
                .check(product);
    }

    /**
     * Transports are found in one place ({@link Transports}, the only caller of the ServiceLoader), and
     * a run discovers them once: in the engine and the fleet only {@link RunSetup} does, and hands them
     * on (each discovery makes new transports, which probe their hardware again).
     */
    @Test
    void transportsAreDiscoveredOncePerRun() {
        noClasses()
                .that()
                .doNotBelongToAnyOf(Transports.class)
                .should()
                .callMethodWhere(DescribedPredicate.describe(
                        "use the ServiceLoader", call -> call.getTargetOwner().isEquivalentTo(ServiceLoader.class)))
                .check(product);
        noClasses()
                .that()
                .resideInAnyPackage("dev.linkproof.engine..", "dev.linkproof.fleet..")
                .and()
                .doNotBelongToAnyOf(RunSetup.class)
                .should()
                .callMethod(Transports.class, "discover")
                .check(product);
    }
}
