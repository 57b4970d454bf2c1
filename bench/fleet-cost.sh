#!/usr/bin/env bash
# What the coordinator adds to a fleet run (issue #24, item 9: "a fleet run of the four nodes takes at
# most 1.2x the sum over rounds of each round's slowest pair"): REPS clean fleet runs of the
# four-node Slurm cluster of network namespaces (scripts/lib/slurm-netns.sh), agents started by srun,
# the coordinator on the batch host, one point (tcp WRITE of 96 MiB per pair) over the pairwise plan:
# a warm-up round and three measured rounds of four pairs at once. Each run prints the rounds' wall
# time against the sum of each round's slowest pair (both as the coordinator measures them), their
# ratio, and the whole job's wall time (JVM starts, registration, reports) for context.
#
# Needs root, Slurm and munge (scripts/setup.sh --test). Environment knobs (defaults in brackets):
#   REPS [3]   SKIP_BUILD [0: build conformance-tests first]   MVN_FLAGS [none; e.g. -o]
# Leaves the cluster up (scripts/lib/slurm-netns.sh down takes it down).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPS=${REPS:-3}
OUT_DIR=$(mktemp -d "${TMPDIR:-/tmp}/linkproof-fleet-cost.XXXXXX")

die() { echo "fleet-cost: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root (network namespaces, Slurm's daemons)"

. "$ROOT/bench/lib/suite-classpath.sh"
suite_launcher "$ROOT" "$OUT_DIR"

echo "# fleet-cost: $(date -u +%FT%TZ), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), REPS=$REPS"
cd "$ROOT/conformance-tests"
"$JAVA" -Xmx256m --enable-native-access=ALL-UNNAMED -cp "$CP" -Dlinkproof.consoleLauncher="$LAUNCHER" \
  dev.linkproof.conformance.bench.FleetCost "$REPS" "$OUT_DIR/runs"
echo "# runs' files (coordinator.out, agent-*.out, fleet-verdict.json): $OUT_DIR/runs"
