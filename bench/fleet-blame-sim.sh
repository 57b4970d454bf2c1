#!/usr/bin/env bash
# The fleet blame on a simulated fleet of 1,024 nodes (issue #24, item 9): the time and heap to plan
# the retests and blame, outside Surefire.
#
# The simulation is fleet's test class dev.linkproof.fleet.blame.FleetBlameSimulation (the same one
# BlameAtScaleTest asserts the verdicts of): a pairwise first round of every ordered pair of the
# registered nodes at one point, generated in process, with five injected faults (a slow node, a slow
# link, a dead node, a corrupting node, a missing node); the retests it plans, answered by the same
# model; and the verdicts. No network and no agents: it measures the blame, not transfers.
#
# Environment knobs (defaults in brackets):
#   NODES [1024]   REPS [3: one JVM each]   HEAP [512m: -Xmx of the simulation's JVM]
#   SKIP_BUILD [0: build fleet's classes first]   MVN_FLAGS [none; e.g. -o]   LINKPROOF_JAVA [JDK 25]
#
# Build: `mvn test-compile -pl fleet -am` in this tree (nothing installed into ~/.m2); the classes are
# copied into a temporary folder first, so others rebuilding the tree cannot change them under the run.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NODES=${NODES:-1024}
REPS=${REPS:-3}
HEAP=${HEAP:-512m}
OUT_DIR=$(mktemp -d "${TMPDIR:-/tmp}/linkproof-fleet-blame.XXXXXX")
trap 'rm -rf "$OUT_DIR"' EXIT

die() { echo "fleet-blame-sim: $*" >&2; exit 1; }
note() { echo "# $*" >&2; }

. "$ROOT/scripts/lib/jdk25.sh"
JAVA=$(find_java25 "$(basename "$0")") || exit 1

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  read -r -a MVN <<< "mvn -B -q -Dstyle.color=never ${MVN_FLAGS:-}"
  note "building fleet's classes and test classes (and transfer-core's)"
  (cd "$ROOT" && "${MVN[@]}" -pl fleet -am test-compile) > "$OUT_DIR/build.log" 2>&1 \
    || { tail -40 "$OUT_DIR/build.log" >&2; die "building fleet failed"; }
fi
for d in fleet/target/test-classes fleet/target/classes transfer-core/target/classes; do
  [[ -d "$ROOT/$d" ]] || die "$ROOT/$d is missing (run without SKIP_BUILD=1)"
  mkdir -p "$OUT_DIR/cp/$d" && cp -r "$ROOT/$d/." "$OUT_DIR/cp/$d/"
done
CP="$OUT_DIR/cp/fleet/target/test-classes:$OUT_DIR/cp/fleet/target/classes:$OUT_DIR/cp/transfer-core/target/classes"

note "date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
note "machine: nproc=$(nproc), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), kernel $(uname -r)"
note "JDK: $("$JAVA" -version 2>&1 | head -1)"
note "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for rep in $(seq "$REPS"); do
  note "rep $rep: $NODES nodes, -Xmx$HEAP"
  timeout 600 "$JAVA" -Xmx"$HEAP" -cp "$CP" dev.linkproof.fleet.blame.FleetBlameSimulation "$NODES" \
    || die "the simulation failed (rep $rep)"
done
note "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
