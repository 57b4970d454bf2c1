package dev.linkproof.fleet.rendezvous;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.fleet.FleetConfigurationException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Expansion as {@code scontrol show hostnames} does it. The expected outputs of the first test were
 * taken from Slurm 22.05.8's scontrol on this machine kind; the suffix cases follow Slurm 23.11+'s
 * hostlist.c (22.05 refuses a suffix).
 */
class SlurmHostlistTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "lpn[1-4]             | lpn1 lpn2 lpn3 lpn4",
                "node[01-03,07]       | node01 node02 node03 node07",
                "a[1-2]b[3-4]         | a1b3 a1b4 a2b3 a2b4",
                "a[1-2]-b[3-4]        | a1-b3 a1-b4 a2-b3 a2-b4",
                "n[08-10]             | n08 n09 n10",
                "n[9-10]              | n9 n10",
                "n[001-3]             | n001 n002 n003",
                "'x,y z'              | x y z",
                "'n[1-2],n1'          | n1 n2 n1",
                "n[2,1]               | n2 n1",
                "'gpu[1-2],cpu[3,5]'  | gpu1 gpu2 cpu3 cpu5",
                "plain                | plain",
            })
    void expandsAsScontrolShowHostnames(String hostlist, String expected) {
        assertThat(SlurmHostlist.expand(hostlist)).containsExactly(expected.split(" "));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "rack[1-2]-n[1-2]-ib | rack1-n1-ib rack1-n2-ib rack2-n1-ib rack2-n2-ib",
                "'n[1-2]-ib,m'       | n1-ib n2-ib m",
            })
    void aSuffixFollowsTheLastGroupAsInSlurm23_11(String hostlist, String expected) {
        assertThat(SlurmHostlist.expand(hostlist)).containsExactly(expected.split(" "));
    }

    @Test
    void aFullRangeOf65536HostsIsAllowedAndOneMoreIsNot() {
        assertThat(SlurmHostlist.expand("n[0-65535]")).hasSize(65536).endsWith("n65535");
        assertThatThrownBy(() -> SlurmHostlist.expand("n[0-65536]"))
                .hasMessageContaining("too many hosts in range '0-65536'");
        assertThatThrownBy(() -> SlurmHostlist.expand("a[0-999]b[0-999]"))
                .hasMessageContaining("makes more than 65536 hosts");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "a[3-1]     | range '3-1' runs backwards",
                "a[1        | '[' without ']'",
                "a]b        | ']' without '['",
                "a[1[2]]    | '[' inside brackets",
                "a[x]       | invalid range 'x' in [x]",
                "a[]        | invalid range '' in []",
                "a[1,,2]    | invalid range '' in [1,,2]",
                "a[-1]      | invalid range '-1' in [-1]",
                "a[1--2]    | invalid range '1--2' in [1--2]",
                "a[1-]      | invalid range '1-' in [1-]",
                "a[1-2b[3]  | '[' inside brackets",
                "n{1..4}    | hostlist functions ({...}) are expanded by slurmctld, not here",
            })
    void aMalformedListIsQuotedWithWhatIsWrong(String hostlist, String problem) {
        assertThatThrownBy(() -> SlurmHostlist.expand(hostlist))
                .isInstanceOf(FleetConfigurationException.class)
                .hasMessage("'" + hostlist + "' is not a Slurm hostlist: " + problem);
    }

    @Test
    void anEmptyListIsAnError() {
        assertThatThrownBy(() -> SlurmHostlist.expand(" ")).hasMessage("the Slurm hostlist is empty");
        assertThat(SlurmHostlist.expand(",lpn1,,lpn2,")).isEqualTo(List.of("lpn1", "lpn2"));
    }
}
