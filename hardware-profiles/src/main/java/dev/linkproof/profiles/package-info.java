/**
 * Hardware profiles: the YAML model, its loader with precedence, matching against a probe report, resource
 * plans, and criteria evaluated into {@code Verdict}s. It reads transfer-core's values; no JUnit, no reports.
 */
package dev.linkproof.profiles;
