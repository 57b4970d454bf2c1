/**
 * Acting on verdicts, opt-in: draining blamed nodes in Slurm (scontrol, run as a program), labelling
 * and tainting them in Kubernetes (through the API server with fabric8's client), each shown as the
 * exact command an operator would type (and only printed, for a dry run).
 */
package dev.linkproof.fleet.act;
