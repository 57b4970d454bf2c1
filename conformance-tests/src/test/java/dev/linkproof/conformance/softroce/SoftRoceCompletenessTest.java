package dev.linkproof.conformance.softroce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SoftRoceSuite#completeness}: a VM that ran out of time, crashed, or never ran a class fails
 * the suite, however many of the reports it did write passed. Runs on every build (no VM needed).
 */
class SoftRoceCompletenessTest {
    @TempDir
    Path reports;

    @Test
    void aCompleteRunPasses() throws Exception {
        report(SoftRoceSuite.CLASSES);
        for (DynamicTest t : SoftRoceSuite.completeness(SoftRoceSuite.testCases(reports), 1, Path.of("vm.log"))) {
            assertThatCode(() -> t.getExecutable().execute())
                    .as(t.getDisplayName())
                    .doesNotThrowAnyException();
        }
    }

    @Test
    void aClassWithNoResultFails() throws Exception {
        report(SoftRoceSuite.CLASSES.subList(0, 3));
        Map<String, DynamicTest> tests =
                byName(SoftRoceSuite.completeness(SoftRoceSuite.testCases(reports), 0, Path.of("vm.log")));
        String missing = SoftRoceSuite.CLASSES.get(3);
        assertThatThrownBy(() -> tests.get(missing.substring(missing.lastIndexOf('.') + 1) + " ran in the VM")
                        .getExecutable()
                        .execute())
                .hasMessageContaining("no result of " + missing);
        String present = SoftRoceSuite.CLASSES.get(0);
        assertThatCode(() -> tests.get(present.substring(present.lastIndexOf('.') + 1) + " ran in the VM")
                        .getExecutable()
                        .execute())
                .doesNotThrowAnyException();
    }

    @Test
    void aVmStoppedByItsTimeoutOrCrashedFailsEvenWithEveryReport() throws Exception {
        report(SoftRoceSuite.CLASSES);
        assertThatThrownBy(() -> finished(SoftRoceSuite.TIMED_OUT).execute()).hasMessageContaining("status 124");
        assertThatThrownBy(() -> finished(137).execute()).hasMessageContaining("ended with status 137");
        assertThatCode(() -> finished(0).execute()).doesNotThrowAnyException();
    }

    private org.junit.jupiter.api.function.Executable finished(int rc) throws Exception {
        DynamicTest t = byName(SoftRoceSuite.completeness(SoftRoceSuite.testCases(reports), rc, Path.of("vm.log")))
                .get("the VM finished on its own");
        assertThat(t).isNotNull();
        return t.getExecutable();
    }

    private static Map<String, DynamicTest> byName(List<DynamicTest> tests) {
        return tests.stream().collect(Collectors.toMap(DynamicTest::getDisplayName, Function.identity()));
    }

    /** A legacy JUnit XML report with one passing test case per class, as SuiteMain writes it. */
    private void report(List<String> classes) throws Exception {
        StringBuilder xml = new StringBuilder("<testsuite name=\"junit-jupiter\">\n");
        classes.forEach(c -> xml.append("  <testcase name=\"point()\" classname=\"")
                .append(c)
                .append("\"/>\n"));
        Files.writeString(reports.resolve("TEST-junit-jupiter.xml"), xml.append("</testsuite>\n"));
    }
}
