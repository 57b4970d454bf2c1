/**
 * Every verdict of a run: the run's profile (RunProfile: its placement, requirements and criteria), the judge of
 * points and sweeps (criteria, baseline, rerun decisions) and what it said (Judgement). It reports nothing.
 */
package dev.linkproof.engine.judging;
