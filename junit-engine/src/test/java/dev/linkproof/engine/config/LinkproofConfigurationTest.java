package dev.linkproof.engine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.engine.FakeHosts;
import dev.linkproof.engine.MapParameters;
import dev.linkproof.transfer.Deadline;
import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.Units;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class LinkproofConfigurationTest {
    private static LinkproofConfiguration config(Map<String, String> map) {
        return LinkproofConfiguration.from(new MapParameters(map));
    }

    @Test
    void defaults() {
        LinkproofConfiguration c = config(Map.of());
        assertThat(c.peer()).isEmpty();
        assertThat(c.token()).isEmpty();
        assertThat(c.defaultTransport()).isEqualTo("tcp");
        assertThat(c.iterationScale()).isEqualTo(1.0);
        assertThat(c.timeouts().agentStart()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.timeouts().control()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.timeouts().io().progressTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.agentJvmArgs()).containsExactly("-Xmx256m");
        assertThat(c.agentLog().getFileName().toString()).isEqualTo("linkproof-agent.log");
        assertThat(c.progress()).isTrue();
    }

    @Test
    void everyKeyIsRead() {
        LinkproofConfiguration c = config(Map.of(
                Constants.PEER, "target:7471",
                Constants.TOKEN, "tok",
                Constants.TRANSPORT, "ucx",
                Constants.ITERATIONS_SCALE, "0.25",
                Constants.TIMEOUT_AGENT_START, "5s",
                Constants.TIMEOUT_CONTROL, "2m",
                Constants.TIMEOUT_PROGRESS, "500ms",
                Constants.AGENT_JVM_ARGS, "  -Xmx64m   -Dx=y ",
                Constants.AGENT_LOG, "/tmp/x/agent.log",
                Constants.PROGRESS, "false"));
        assertThat(c.peer()).contains(new dev.linkproof.transfer.control.HostPort("target", 7471));
        assertThat(c.token()).contains("tok");
        assertThat(c.defaultTransport()).isEqualTo("ucx");
        assertThat(c.iterationScale()).isEqualTo(0.25);
        assertThat(c.timeouts().agentStart()).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.timeouts().control()).isEqualTo(Duration.ofMinutes(2));
        assertThat(c.timeouts().io().progressTimeout()).isEqualTo(Duration.ofMillis(500));
        assertThat(c.agentJvmArgs()).containsExactly("-Xmx64m", "-Dx=y");
        assertThat(c.agentLog()).isEqualTo(Path.of("/tmp/x/agent.log"));
        assertThat(c.progress()).isFalse();
    }

    @Test
    void blankValuesMeanUnset() {
        LinkproofConfiguration c = config(Map.of(
                Constants.PEER, " ", Constants.TOKEN, "", Constants.TRANSPORT, " ", Constants.AGENT_JVM_ARGS, "  "));
        assertThat(c.peer()).isEmpty();
        assertThat(c.token()).isEmpty();
        assertThat(c.defaultTransport()).isEqualTo("tcp");
        assertThat(c.agentJvmArgs()).containsExactly(Constants.DEFAULT_AGENT_JVM_ARGS);
    }

    /** The device choice the engine makes from the configuration: a local pair gets the command line's device or the plan's NIC. */
    @Test
    void theVerbsDeviceAndThePeerDecideWhichDeviceVerbsPointsAreGiven() {
        String rxeHost = FakeHosts.path("rxe-host");
        var verbs =
                dev.linkproof.transfer.TransferSpec.builder().transport("verbs").build();
        LinkproofConfiguration plan = config(Map.of("linkproof.probe.root", rxeHost));
        assertThat(dev.linkproof.engine.judging.RunProfile.load(plan)
                        .placement()
                        .apply(verbs)
                        .settings())
                .containsEntry("verbs.device", "rxe0");
        LinkproofConfiguration named =
                config(Map.of("linkproof.probe.root", rxeHost, Constants.VERBS_DEVICE, " rxe5 "));
        assertThat(named.verbsDevice()).contains("rxe5");
        assertThat(dev.linkproof.engine.judging.RunProfile.load(named)
                        .placement()
                        .apply(verbs)
                        .settings())
                .containsEntry("verbs.device", "rxe5");
        LinkproofConfiguration remote = config(Map.of("linkproof.probe.root", rxeHost, Constants.PEER, "target:7471"));
        assertThat(dev.linkproof.engine.judging.RunProfile.load(remote)
                        .placement()
                        .apply(verbs)
                        .settings())
                .doesNotContainKey("verbs.device");
    }

    @ParameterizedTest(name = "{0} = {1} ms")
    @CsvSource({
        "10s, 10000",
        "1.5s, 1500",
        "500ms, 500",
        "500 ms, 500",
        "2m, 120000",
        "PT1M, 60000",
        "pt0.25s, 250",
        "7, 7000"
    })
    void durations(String text, long millis) {
        assertThat(DEADLINE.read(new MapParameters(Map.of(DEADLINE.name(), text))))
                .contains(Duration.ofMillis(millis));
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"0s", "-1s", "abc", "10 parsecs", "PT-1S"})
    void badDurationsNameTheKey(String text) {
        assertThatThrownBy(() -> DEADLINE.read(new MapParameters(Map.of(DEADLINE.name(), text))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("linkproof.timeout.x=" + text + " is not a duration (e.g. 10s, 500ms, PT1M)");
    }

    /** {@code -Dkey=} (blank) leaves a key unset, for every key: no error, the default. */
    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"", " ", "\t"})
    void aBlankValueIsUnset(String blank) {
        assertThat(DEADLINE.read(new MapParameters(Map.of(DEADLINE.name(), blank))))
                .isEmpty();
        assertThat(config(Map.of(Constants.TIMEOUT_PROGRESS, blank, Constants.ITERATIONS_SCALE, blank))
                        .timeouts()
                        .io()
                        .progressTimeout())
                .isEqualTo(Duration.ofSeconds(10));
    }

    /** A deadline key of the registry's kind, under a name no real key has. */
    private static final Key<Duration> DEADLINE =
            new Key<>("linkproof.timeout.x", Value.deadline("the longest deadline"), "", "");

    @Test
    void aProgressDeadlineBeyondTheAgentsLimitNamesTheKey() {
        assertThat(config(Map.of(Constants.TIMEOUT_PROGRESS, "60m"))
                        .timeouts()
                        .io()
                        .progressTimeout())
                .isEqualTo(Duration.ofHours(1));
        assertThatThrownBy(() -> config(Map.of(Constants.TIMEOUT_PROGRESS, "61m")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("linkproof.timeout.progress=61m is more than the agent accepts (PT1H)");
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource({
        "linkproof.timeout.control, 61m",
        "linkproof.timeout.control, PT1000H",
        "linkproof.timeout.agentStart, 3601s"
    })
    void aControlOrStartDeadlineOverAnHourNamesTheKey(String key, String value) {
        assertThatCode(() -> config(Map.of(key, "60m"))).doesNotThrowAnyException();
        assertThatThrownBy(() -> config(Map.of(key, value)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(key + "=" + value + " is more than the longest deadline (PT1H)");
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"0", "-1", "1001", "fast", "NaN"})
    void badIterationScalesAreRefused(String text) {
        assertThatThrownBy(() -> config(Map.of(Constants.ITERATIONS_SCALE, text)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(Constants.ITERATIONS_SCALE + "=" + text);
    }

    @Test
    void busyHostRerunsDefaultToOneAndAcceptZeroToFive() {
        assertThat(config(Map.of()).busyHostReruns()).isEqualTo(1);
        assertThat(config(Map.of(Constants.BUSY_HOST_RERUNS, "0")).busyHostReruns())
                .isZero();
        assertThat(config(Map.of(Constants.BUSY_HOST_RERUNS, " 5 ")).busyHostReruns())
                .isEqualTo(5);
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "6", "once", "1.5"})
    void aBadBusyHostRerunCountIsRefusedByName(String value) {
        assertThatThrownBy(() -> config(Map.of(Constants.BUSY_HOST_RERUNS, value)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("linkproof.busyHost.reruns=" + value + " must be a whole number from 0 to 5");
    }

    @Test
    void baselineRerunsDefaultToOneAndAcceptZeroToFiveApartFromTheBusyHostOnes() {
        assertThat(config(Map.of()).baselineReruns()).isEqualTo(1);
        assertThat(config(Map.of(Constants.BASELINE_RERUNS, "0")).baselineReruns())
                .isZero();
        assertThat(config(Map.of(Constants.BASELINE_RERUNS, " 5 ")).baselineReruns())
                .isEqualTo(5);
        assertThat(config(Map.of(Constants.BASELINE_RERUNS, "3")).busyHostReruns())
                .isEqualTo(1);
    }

    @Test
    void requireProfileMatchIsOffByDefaultAndTakesTrueOrFalseOnly() {
        assertThat(config(Map.of()).requireProfileMatch()).isFalse();
        assertThat(config(Map.of(Constants.REQUIRE_PROFILE_MATCH, " TRUE ")).requireProfileMatch())
                .isTrue();
        assertThatThrownBy(() -> config(Map.of(Constants.REQUIRE_PROFILE_MATCH, "yes")))
                .hasMessage("linkproof.requireProfileMatch=yes must be true or false");
    }

    @Test
    void durationIsUnsetByDefaultAndAPositiveTimeOfAtMostAnHour() {
        assertThat(config(Map.of()).duration()).isEmpty();
        assertThat(config(Map.of(Constants.DURATION, "90s")).duration()).contains(java.time.Duration.ofSeconds(90));
        assertThatThrownBy(() -> config(Map.of(Constants.DURATION, "forever")))
                .hasMessage("linkproof.duration=forever is not a duration (e.g. 10s, 500ms, PT1M)");
        assertThatThrownBy(() -> config(Map.of(Constants.DURATION, "0s")))
                .hasMessage("linkproof.duration=0s is not a duration (e.g. 10s, 500ms, PT1M)");
        assertThatThrownBy(() -> config(Map.of(Constants.DURATION, "90m")))
                .hasMessageStartingWith("linkproof.duration=90m is more than the longest run of a point (");
    }

    @Test
    void nicsIsFirstByDefaultTakesFirstOrEachAndCannotBeGivenWithADevice() {
        assertThat(config(Map.of()).eachNic()).isFalse();
        assertThat(config(Map.of(Constants.NICS, "first")).eachNic()).isFalse();
        assertThat(config(Map.of(Constants.NICS, " Each ")).eachNic()).isTrue();
        assertThatThrownBy(() -> config(Map.of(Constants.NICS, "all")))
                .hasMessageStartingWith(
                        "linkproof.nics=all must be first (the profile's first RDMA device, the default) or each");
        assertThat(config(Map.of(Constants.GPUS, "EACH")).eachGpu()).isTrue();
        assertThat(config(Map.of()).eachGpu()).isFalse();
        assertThatThrownBy(() -> config(Map.of(Constants.GPUS, "all")))
                .hasMessage(
                        "linkproof.gpus=all must be first (the GPUs a test names, the default) or each (every GPU the"
                                + " profile provides, a point per GPU)");
        assertThatThrownBy(() -> config(Map.of(Constants.NICS, "each", Constants.VERBS_DEVICE, "mlx5_2")))
                .hasMessage("linkproof.nics=each runs every verbs point on each RDMA device the profile resolves, and "
                        + "linkproof.verbs.device=mlx5_2 names one: give one or the other");
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "6", "twice"})
    void aBadBaselineRerunCountIsRefusedByName(String value) {
        assertThatThrownBy(() -> config(Map.of(Constants.BASELINE_RERUNS, value)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("linkproof.baseline.reruns=" + value + " must be a whole number from 0 to 5");
    }

    /** The forms a profile's {@code baseline.tolerance} takes, from the command line too. */
    @ParameterizedTest(name = "\"{0}\" = {1}")
    @CsvSource({
        "0.08, 0.08",
        "8%, 0.08",
        "' 8 % ', 0.08",
        "0, 0",
        "0%, 0",
        "0.5%, 0.005",
        "99.5%, 0.995",
        "0.999, 0.999"
    })
    void aBaselineToleranceIsAFractionOrAPercentage(String text, double fraction) {
        assertThat(config(Map.of(Constants.BASELINE_TOLERANCE, text))
                        .baselineTolerance(java.util.OptionalDouble.of(0.3)))
                .isCloseTo(fraction, org.assertj.core.data.Offset.offset(1e-12));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "5", "1.0", "-0.1", "100%", "-1%", "8%%", "lots", "NaN"})
    void aBadBaselineToleranceIsRefusedByNameWithTheFormsItTakes(String value) {
        assertThatThrownBy(() -> config(Map.of(Constants.BASELINE_TOLERANCE, value)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("linkproof.baseline.tolerance=" + value + " must be a fraction in [0, 1) such as 0.08, "
                        + "or a percentage below 100% such as 8%");
    }

    /** A failure because a deadline ran out names the key that sets it, with its value as it is typed. */
    @Test
    void aDeadlineThatRanOutIsNamedByItsKey() {
        LinkproofConfiguration c = config(Map.of(
                Constants.TIMEOUT_AGENT_START,
                "5s",
                Constants.TIMEOUT_CONTROL,
                "2m",
                Constants.TIMEOUT_PROGRESS,
                "1500ms"));
        assertThat(c.deadlineNote(new PeerFailureException("slow").expired(Deadline.AGENT_START)))
                .isEqualTo(" [deadline: linkproof.timeout.agentStart=5s; raise it if the agent is slow to start]");
        assertThat(c.deadlineNote(new PeerFailureException("silent").expired(Deadline.CONTROL)))
                .isEqualTo(" [deadline: linkproof.timeout.control=2m; raise it if the target agent is slow rather than"
                        + " gone]");
        assertThat(c.deadlineNote(new PeerFailureException("stuck").expired(Deadline.PROGRESS)))
                .isEqualTo(" [deadline: linkproof.timeout.progress=1500ms; raise it if the transfer is slow rather than"
                        + " stuck]");
        assertThat(c.deadlineNote(new PeerFailureException("no accept").expired(Deadline.DATA_CONNECT)))
                .isEqualTo(
                        " [deadline: linkproof.timeout.progress=1500ms, which also bounds opening a data connection; "
                                + "raise it if the target is slow to accept]");
        // A failure that repeats an earlier one (not retried for every point) names its deadline too.
        assertThat(c.deadlineNote(new TransferException(
                        "not retried", new PeerFailureException("silent").expired(Deadline.CONTROL))))
                .startsWith(" [deadline: linkproof.timeout.control=2m;");
        assertThat(c.deadlineNote(new PeerFailureException("closed the control connection")))
                .isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"PT30S, 30s", "PT0.5S, 500ms", "PT2M, 2m", "PT90S, 90s", "PT1H, 60m", "PT0.0005S, PT0.0005S"})
    void aDeadlineIsShownAsItIsTyped(String iso, String typed) {
        assertThat(Units.formatDuration(Duration.parse(iso))).isEqualTo(typed);
        assertThat(DEADLINE.read(new MapParameters(Map.of(DEADLINE.name(), typed))))
                .as("reads back")
                .contains(Duration.parse(iso));
    }
}
