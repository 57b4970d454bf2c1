package dev.linkproof.transfer;

import java.util.Locale;

/**
 * What kind of failure ended a point, decided by whatever created the failure (a validation, a
 * judge, a transport, the configuration) and carried as this value from there on: the results
 * record's {@code failureKind}, the run summary's counts and the Allure report's categories all read
 * it, and none of them reads a message's words. Several kinds may share a {@link #category()}.
 */
public enum FailureKind {
    /** The receiver's checksums differ from the owner's. */
    DATA_CORRUPTION("Data corruption", Status.FAILED),
    /** A receive completion was wrong (length, immediate data, order), whatever the data. */
    COMPLETION_MISMATCH("Data corruption", Status.FAILED),
    /**
     * An atomic point's counter is wrong: its final value, a value a fetch-add returned or the old value
     * a compare-and-swap returned differs from the plan (a lost, doubled or torn atomic).
     */
    ATOMIC_MISMATCH("Data corruption", Status.FAILED),
    /** Short of a criterion or the baseline while other processes kept a host busy: perhaps the neighbours', not the transport's. */
    SHORT_ON_BUSY_HOST("Short on a busy host", Status.FAILED),
    /** Short of the baseline on quiet hosts. */
    PERFORMANCE_REGRESSION("Performance regression", Status.FAILED),
    /** Short of a criterion of the profile (a point's or a sweep's curve rule) on quiet hosts. */
    BELOW_CRITERION("Below criterion", Status.FAILED),
    /** The profile requires the point's transport ({@code transport.required}) and a rank lacks it. */
    REQUIRED_TRANSPORT_UNAVAILABLE("Required transport unavailable", Status.FAILED),
    /**
     * The profile requires the point's transport, which is here, and the device it runs the point on
     * lacks a capability the point needs (a verbs device whose atomic_cap is IBV_ATOMIC_NONE, for an
     * atomic point). What the transport itself does not do (atomics on GPU memory) is a skip instead.
     */
    REQUIRED_CAPABILITY_UNAVAILABLE("Required capability unavailable", Status.FAILED),
    /** The RDMA device is of the kind the profile is for and not fit for it (a port down, another link rate). */
    NIC_NOT_FIT("NIC not fit for the profile", Status.FAILED),
    /** The target rank died, hung or could not be reached or started. */
    PEER_FAILURE("Peer failure", Status.BROKEN),
    /** A transfer failed on this side without a peer failure (a refused request, a local error). */
    TRANSFER_ERROR("Transfer error", Status.BROKEN),
    /** The run's configuration, profile, baseline or results file: nothing a point did. */
    CONFIGURATION_ERROR("Configuration error", Status.BROKEN),
    /** The test method's own assertion. */
    TEST_ASSERTION("Failed assertion of the test method", Status.FAILED),
    /** Anything else thrown: a bug to report, not a finding about the hardware. */
    ERROR("Error", Status.BROKEN),
    /** Not a failure: the point was skipped because what it needs is not here. */
    UNAVAILABLE("Hardware or transport unavailable", Status.SKIPPED);

    /** How a point ends, as the results file and Allure name it. */
    public enum Status {
        /** A verdict or an assertion: an {@link AssertionError}. */
        FAILED,
        /** It could not be carried out: any other exception. */
        BROKEN,
        SKIPPED;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final String category;
    private final Status status;

    FailureKind(String category, Status status) {
        this.category = category;
        this.status = status;
    }

    /** The Allure category and the run summary's line this kind is counted under. */
    public String category() {
        return category;
    }

    /** The status a point of this kind ends with. */
    public Status status() {
        return status;
    }

    /**
     * How a failure of this kind names it in the first line of its stack trace, after its class name
     * ({@code PointFailure [DATA_CORRUPTION]: …}): the Allure report's categories match on it, on the
     * kind's name and never on the message.
     */
    public String traceTag() {
        return "[" + name() + "]";
    }
}
