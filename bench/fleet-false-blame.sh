#!/usr/bin/env bash
# The fleet's false-verdict rate (issue #31, item 6): R clean fleet runs of the Slurm cluster of network
# namespaces (scripts/lib/slurm-netns.sh, NODES nodes, agents started by srun, the coordinator on the
# batch host) and of LOOPBACK_AGENTS agents on 127.0.0.1 (one JVM holding every agent, each a whole
# AgentMain registering as nK; the coordinator a ConsoleLauncher run with linkproof.fleet=nodes:n1,...),
# where every verdict is a false one; then faulty Slurm fleets where the expected verdicts must all be
# found and nothing else blamed:
#   half-node   lpn3 sends at half the fleet's line rate (tc tbf)            -> bad-node lpn3
#   half-link   lpn1 -> lpn2 at half (tc htb + u32)                          -> bad-link lpn1<->lpn2
#   corrupting  lpn2's agent flips a bit of what it writes                   -> corrupting-node lpn2
#   two-bad     lpn3 and lpn6 at half                                        -> bad-node lpn3, bad-node lpn6
#   breaker     lpn2, lpn4, lpn6 at half, linkproof.fleet.act=slurm          -> one fleet-degraded verdict,
#               and no node drained (sinfo -R; a node drained is resumed and counted as a miss)
# The line rate: with LINK_MBIT (default 100) every node's egress is held to that many Mbit/s for every
# Slurm run, clean or faulty, so that pairs run at their links' rate as on a fabric, and "half" is
# LINK_MBIT/2. Unshaped (LINK_MBIT=0) the pairs run as fast as two shared cores schedule eight
# namespaces, which spreads clean pairs over 10x (0.12 to 4 GB/s in one bench): a fault of half is
# then inside the fleet's own noise, and "half" is half the median over the clean Slurm runs of each
# run's point median (points[].medianGBps), or HALF_RATE_MBIT. Every run uses the project's shipped fleet
# criteria (SlurmFleet's relaxed suite figures are set back to minOfMedianBandwidth=0.93 and
# maxOfLowestLatency=2.1; no other fleet key is set, except act=slurm for the breaker), one point per
# pair (the fleet suite's FleetWrite: tcp WRITE of 24 MiB), the pairwise plan. Faults are cleared
# after each run, whatever happened.
# Targets: 0 false verdicts over all clean runs; every injected fault found and nothing else blamed; the
# breaker fires and drains nothing. Prints one line per run (case, run, wall seconds, result, verdicts,
# and each verdict's reason), then a table per case; exits 1 when a target is missed (the table is
# printed all the same), 2 on a usage error.
#
# Needs root, Slurm and munge (scripts/setup.sh --test) for every case but clean-loopback. The cluster and its
# namespaces are one shared resource: the runs hold flock /tmp/linkproof-slurm.lock (SLURM_LOCK) while
# they use it, taken after the build, unless a caller (an ancestor process) already holds it, as in
# `flock -o /tmp/linkproof-slurm.lock bench/fleet-false-blame.sh`. Leaves the cluster up with NODES
# nodes (scripts/lib/slurm-netns.sh down takes it down; the fleet suite's next run makes its own 4).
#
# Environment knobs (defaults in brackets):
#   R [20]                 clean runs per clean case       FAULT_R [R]   runs per faulty case
#   NODES [8]              Slurm nodes (3..9; two-bad and breaker need 6)
#   LOOPBACK_AGENTS [16]   agents of the loopback fleet
#   CASES [clean-slurm clean-loopback half-node half-link corrupting two-bad breaker] (spaces or commas)
#   LINK_MBIT [100: every node's line rate; 0: unshaped]   HALF_RATE_MBIT [LINK_MBIT/2, or measured when unshaped]
#   SKIP_BUILD [0: build conformance-tests first]   MVN_FLAGS [none; e.g. -o]
#   SLURM_LOCK [/tmp/linkproof-slurm.lock]
# Time, measured on this machine kind (2 cores, load about 7 from other builds, before the blame
# rework): an 8-node Slurm run, clean or faulty, takes 13-20 s (sbatch to the job's end), a 16-agent
# loopback run 9-15 s; R=2 with every case took 3 min 50 s after the build. R=20 with every case is
# 140 runs, some 40 minutes.
# On this machine the clean pairs of one 8-node run spread from 0.17 to 3 GB/s round to round (the pairs
# of a round share two cores), so "half" is inside the clean spread; tbf at half the median held the
# slow node's pairs to about a quarter of it (0.10 against 0.39 GB/s).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
R=${R:-20}
LINK_MBIT=${LINK_MBIT:-100}
FAULT_R=${FAULT_R:-$R}
NODES=${NODES:-8}
LOOPBACK_AGENTS=${LOOPBACK_AGENTS:-16}
CASES=${CASES:-clean-slurm clean-loopback half-node half-link corrupting two-bad breaker}
SLURM_LOCK=${SLURM_LOCK:-/tmp/linkproof-slurm.lock}
OUT_DIR=$(mktemp -d "${TMPDIR:-/tmp}/linkproof-fleet-false-blame.XXXXXX")

die() { echo "fleet-false-blame: $*" >&2; exit 2; }
for n in "$R" "$FAULT_R" "$NODES" "$LOOPBACK_AGENTS" "$LINK_MBIT"; do [[ "$n" =~ ^[0-9]+$ ]] || die "R, FAULT_R, NODES, LOOPBACK_AGENTS and LINK_MBIT are whole numbers, not '$n'"; done
CASES=$(tr ', ' '\n\n' <<< "$CASES" | grep -v '^$' | paste -sd,)
for c in ${CASES//,/ }; do
  [[ " clean-slurm clean-loopback half-node half-link corrupting two-bad breaker " == *" $c "* ]] \
    || die "CASES: '$c' is not one of clean-slurm clean-loopback half-node half-link corrupting two-bad breaker"
done
slurm=0
[[ ",$CASES," =~ ,(clean-slurm|half-node|half-link|corrupting|two-bad|breaker), ]] && slurm=1
[[ $slurm == 0 || "$(id -u)" -eq 0 ]] || die "needs root (network namespaces, Slurm's daemons)"

# Whether this process or an ancestor holds a flock on $1: a caller that ran this script under flock(1).
held_by_ancestor() {
  local ino holders p
  [[ -e "$1" ]] || return 1
  ino=$(stat -c %i "$1")
  holders=$(awk -v ino="$ino" '$2 == "FLOCK" { split($6, a, ":"); if (a[3] == ino) print $5 }' /proc/locks)
  p=$$
  while [[ -n "$p" && "$p" -gt 1 ]]; do
    grep -qx "$p" <<< "$holders" && return 0
    p=$(ps -o ppid= -p "$p" | tr -d ' ')
  done
  return 1
}

. "$ROOT/bench/lib/suite-classpath.sh"
suite_launcher "$ROOT" "$OUT_DIR"

if [[ $slurm == 1 ]] && ! held_by_ancestor "$SLURM_LOCK"; then
  exec 9>>"$SLURM_LOCK"
  flock -n 9 || { echo "# waiting for $SLURM_LOCK (another user of the Slurm cluster holds it)"; flock 9; }
fi

echo "# fleet-false-blame: $(date -u +%FT%TZ), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), commit $(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD || echo '+changes')"
echo "# R=$R FAULT_R=$FAULT_R NODES=$NODES LOOPBACK_AGENTS=$LOOPBACK_AGENTS LINK_MBIT=$LINK_MBIT CASES=$CASES${HALF_RATE_MBIT:+ HALF_RATE_MBIT=$HALF_RATE_MBIT}"
echo "# runs' files (coordinator.out, agent-*.out or agents.out, fleet-verdict.json): $OUT_DIR/runs"
cd "$ROOT/conformance-tests"
rc=0
"$JAVA" -Xmx256m --enable-native-access=ALL-UNNAMED -cp "$CP" -Dlinkproof.consoleLauncher="$LAUNCHER" \
  dev.linkproof.conformance.bench.FleetFalseBlame --runs "$R" --fault-runs "$FAULT_R" --nodes "$NODES" \
  --loopback-agents "$LOOPBACK_AGENTS" --cases "$CASES" --out "$OUT_DIR/runs" \
  --link-mbit "$LINK_MBIT" ${HALF_RATE_MBIT:+--half-rate-mbit "$HALF_RATE_MBIT"} || rc=$?
echo "# runs' files: $OUT_DIR/runs"
exit "$rc"
