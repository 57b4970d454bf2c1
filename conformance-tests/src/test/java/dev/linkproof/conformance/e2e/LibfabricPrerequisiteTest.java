package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * scripts/lib/prereq.sh's check of libfabric, the libfabric transport's library, on a
 * {@link SimulatedSystem}: a warning when it is missing, installed as root; AWS EFA's copy counted,
 * with how to load it. (PrerequisiteCheckTest has the other libraries' checks.)
 */
@Tag("e2e")
class LibfabricPrerequisiteTest extends SimulatedSystem {
    @Test
    void aMissingLibfabricIsAWarningInstalledAsRootAndAwsEfasCountsWithHowToLoadIt() throws Exception {
        debianWithVerbs();
        ucx("usr/lib/x86_64-linux-gnu");
        Files.delete(sys.resolve("usr/lib/x86_64-linux-gnu/libfabric.so.1"));
        root(false);
        Run r = prereq();
        assertThat(r.rc).as("a warning only: ready; %s", r.out).isZero();
        assertThat(r.out.lines())
                .contains(
                        "prereq: warning: libfabric: libfabric.so.1 is not found; libfabric points skip with their"
                                + " reason; tcp still runs; install it: apt-get install libfabric1",
                        "prereq: to install what is missing: sudo apt-get install libfabric1",
                        "prereq: ready (1 warning(s))");
        assertThat(calls).doesNotExist();

        root(true);
        prereq();
        assertThat(Files.readAllLines(calls))
                .last()
                .asString()
                .endsWith("apt-get install -y -qq --no-install-recommends libfabric1");

        Files.delete(calls);
        file("opt/amazon/efa/lib/libfabric.so.1");
        Run efa = prereq();
        assertThat(efa.out)
                .contains(
                        "prereq: ok: libfabric: AWS EFA's /opt/amazon/efa/lib/libfabric.so.1, which the dynamic loader"
                                + " does not search: add /opt/amazon/efa/lib to LD_LIBRARY_PATH (or"
                                + " -Dlinkproof.libfabric.library=/opt/amazon/efa/lib/libfabric.so.1)")
                .contains("prereq: ready\n");
        assertThat(calls).as("no distribution libfabric beside EFA's").doesNotExist();
    }

    private Run prereq(String... args) throws Exception {
        List<String> command = new ArrayList<>(
                List.of("/bin/bash", ROOT.resolve("scripts/lib/prereq.sh").toString()));
        command.addAll(List.of(args));
        return run(command, Map.of());
    }
}
