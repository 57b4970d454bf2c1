package dev.linkproof.conformance.e2e;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;

/** What the end-to-end tests share. */
final class E2e {
    /**
     * The profile the end-to-end tests run their fixtures with: validation only, so a loaded machine
     * cannot fail a fault-handling or report test on speed. Read from the test class path, so it is
     * found wherever the tests run (the Soft-RoCE VM runs them from a copy of the class path).
     */
    static final String VALIDATION_ONLY = validationOnly();

    private static String validationOnly() {
        URL url = E2e.class.getResource("/profiles/validation-only.yaml");
        if (url == null || !url.getProtocol().equals("file")) {
            throw new IllegalStateException(
                    "profiles/validation-only.yaml is not a file on the test class path: " + url);
        }
        try {
            return Path.of(url.toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private E2e() {}
}
