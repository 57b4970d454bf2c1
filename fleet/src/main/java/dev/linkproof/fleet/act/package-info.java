/**
 * Acting on verdicts, opt-in: draining blamed nodes in Slurm, labelling or tainting them in
 * Kubernetes, each as the exact commands (run, or printed for an operator).
 */
package dev.linkproof.fleet.act;
