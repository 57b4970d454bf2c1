package dev.linkproof.conformance.e2e;

import java.nio.file.Path;

/** What the end-to-end tests share. */
final class E2e {
    /**
     * The profile the end-to-end tests run their fixtures with: validation only, so a loaded machine
     * cannot fail a fault-handling or report test on speed.
     */
    static final String VALIDATION_ONLY = Path.of("src", "test", "resources", "profiles", "validation-only.yaml")
            .toAbsolutePath()
            .toString();

    private E2e() {}
}
