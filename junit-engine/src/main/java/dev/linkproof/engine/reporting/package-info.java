/**
 * Everything a run reports besides Surefire's view: console lines and the summary, the results file, Allure. It
 * writes down what the judge decided and decides nothing.
 */
package dev.linkproof.engine.reporting;
