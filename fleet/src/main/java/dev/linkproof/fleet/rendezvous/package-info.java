/**
 * How the nodes of a fleet meet without a shared file system: the expected node list from the
 * launcher's environment (Slurm, a Kubernetes Indexed Job, torchrun / MPI, a host file), and the
 * coordinator's registry agents dial into, each wait under a deadline.
 */
package dev.linkproof.fleet.rendezvous;
