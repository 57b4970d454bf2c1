/**
 * Allure output: each point's labels, parameters, steps and attachments, and the run's environment,
 * categories and executor files. It writes what was decided elsewhere and decides nothing.
 */
package dev.linkproof.reports.allure;
