package dev.linkproof.reports.allure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.transfer.FailureKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The files of an Allure results folder that describe the run: categories, executor and environment. */
class RunFilesTest {
    @TempDir
    Path dir;

    private static List<String> categoriesOf(String status, String trace) {
        return RunFiles.categoriesFor(status, trace);
    }

    @Test
    void aFailureOfEachKindFilesUnderItsKindsCategoryAloneWhateverItsMessageSays() {
        for (FailureKind kind : FailureKind.values()) {
            if (kind == FailureKind.UNAVAILABLE || kind == FailureKind.TEST_ASSERTION || kind == FailureKind.ERROR) {
                continue;
            }
            // The message names other kinds' words: only the tag decides.
            String trace =
                    "dev.linkproof.engine.failure.PointFailure " + kind.traceTag() + ": x: performance regression, "
                            + "data corruption, peer failure, profile 'p'\n\tat dev.linkproof.Foo.bar(Foo.java:1)\n";
            assertThat(categoriesOf(kind.status().label(), trace))
                    .as(kind.name())
                    .containsExactly(kind.category());
        }
        assertThat(categoriesOf(
                        "failed", "org.opentest4j.AssertionFailedError: data corruption: expected 3 but was 4\n\tat x"))
                .containsExactly("Failed assertion of the test method");
        assertThat(categoriesOf("broken", "java.lang.NullPointerException: profile\n\tat x"))
                .containsExactly("Error");
        assertThat(categoriesOf("skipped", "org.opentest4j.TestAbortedException: no RDMA device"))
                .containsExactly("Hardware or transport unavailable");
        assertThat(RunFiles.categories()).noneMatch(c -> c.containsKey("messageRegex"));
    }

    @Test
    void executorComesFromTheCiVariables() {
        assertThat(RunFiles.executor(Map.of(
                        "GITHUB_ACTIONS",
                        "true",
                        "GITHUB_REPOSITORY",
                        "o/r",
                        "GITHUB_RUN_ID",
                        "7",
                        "GITHUB_RUN_NUMBER",
                        "3",
                        "GITHUB_WORKFLOW",
                        "ci")))
                .containsEntry("type", "github")
                .containsEntry("buildName", "ci #3")
                .containsEntry("buildUrl", "https://github.com/o/r/actions/runs/7");
        assertThat(RunFiles.executor(
                        Map.of("GITLAB_CI", "true", "CI_JOB_NAME", "hw", "CI_PIPELINE_IID", "9", "CI_JOB_URL", "u")))
                .containsEntry("type", "gitlab")
                .containsEntry("buildName", "hw #9")
                .containsEntry("buildUrl", "u");
        assertThat(RunFiles.executor(
                        Map.of("JENKINS_URL", "j", "BUILD_NUMBER", "5", "BUILD_TAG", "t", "BUILD_URL", "b")))
                .containsEntry("type", "jenkins")
                .containsEntry("buildOrder", "5");
        assertThat(RunFiles.executor(Map.of("HOSTNAME", "h")))
                .containsEntry("type", "local")
                .containsEntry("buildName", "local run on h");
    }

    @Test
    void runFilesAreWrittenAndEnvironmentValuesAreLatin1Safe() throws Exception {
        RunFiles.writeAll(dir, Map.of("cpu", "EPYC · 2", "numa nodes", "1"), Map.of());
        String env = Files.readString(dir.resolve("environment.properties"));
        assertThat(env).contains("cpu=EPYC \\u00b7 2").contains("numa\\ nodes=1");
        java.util.Properties p = new java.util.Properties();
        try (var in = Files.newInputStream(dir.resolve("environment.properties"))) {
            p.load(in);
        }
        assertThat(p.getProperty("cpu")).isEqualTo("EPYC · 2");
        assertThat(Files.readString(dir.resolve("categories.json"))).contains("Data corruption");
        assertThat(dir.resolve("executor.json")).exists();
    }
}
