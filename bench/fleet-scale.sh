#!/usr/bin/env bash
# The coordinator's rounds at fleet scale (issue #24, item 9: "the scheduler ... exercised on a
# simulated fleet of 1,024 nodes (many agents on loopback ...)"): NODES real agents in one JVM on
# loopback, each its own AgentServer and port, the pairwise plan over them, and its first ROUNDS rounds
# run through the Coordinator, every pair of a round at once (both ways: NODES drives per round), one
# 1-byte tcp WRITE per pair. Prints each round's wall time, its slowest pair and its failures, and for
# the rounds after the first (which opens every initiator's session) the ratio of the rounds' wall
# time to their slowest pairs'. The runner is fleet's test class
# dev.linkproof.fleet.coordinate.FleetScaleSimulation.
#
# Environment knobs (defaults in brackets):
#   NODES [1024]   ROUNDS [5]   HEAP [2g]   SKIP_BUILD [0]   MVN_FLAGS [none; e.g. -o]
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NODES=${NODES:-1024}
ROUNDS=${ROUNDS:-5}
HEAP=${HEAP:-2g}
OUT_DIR=$(mktemp -d "${TMPDIR:-/tmp}/linkproof-fleet-scale.XXXXXX")
trap 'rm -rf "$OUT_DIR"' EXIT

die() { echo "fleet-scale: $*" >&2; exit 1; }
note() { echo "# $*" >&2; }

. "$ROOT/scripts/lib/jdk25.sh"
JAVA=$(find_java25 "$(basename "$0")") || exit 1
read -r -a MVN <<< "mvn -B -q -Dstyle.color=never ${MVN_FLAGS:-}"
goals=(dependency:build-classpath -Dmdep.outputFile="$OUT_DIR/deps.classpath")
[[ "${SKIP_BUILD:-0}" == 1 ]] || goals=(test-compile "${goals[@]}")
(cd "$ROOT" && "${MVN[@]}" -pl fleet -am "${goals[@]}") > "$OUT_DIR/build.log" 2>&1 \
  || { tail -40 "$OUT_DIR/build.log" >&2; die "building fleet failed"; }
for d in fleet/target/test-classes fleet/target/classes transfer-core/target/classes; do
  [[ -d "$ROOT/$d" ]] || die "$ROOT/$d is missing (run without SKIP_BUILD=1)"
  mkdir -p "$OUT_DIR/cp/$d" && cp -r "$ROOT/$d/." "$OUT_DIR/cp/$d/"
done
# This tree's own classes first: the resolved class path may name another build's transfer-core jar.
CP="$OUT_DIR/cp/fleet/target/test-classes:$OUT_DIR/cp/fleet/target/classes:$OUT_DIR/cp/transfer-core/target/classes"
CP="$CP:$(tr ':' '\n' < "$OUT_DIR/deps.classpath" | grep -v '/dev/linkproof/' | paste -sd:)"

# Every agent and session holds sockets: a thousand agents need more than the default 1,024 descriptors.
ulimit -n 65536 2>/dev/null || note "could not raise the open-files limit ($(ulimit -n))"
note "date: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
note "machine: nproc=$(nproc), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)"
note "JDK: $("$JAVA" -version 2>&1 | head -1); open files: $(ulimit -n)"
note "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
timeout 1200 "$JAVA" -Xmx"$HEAP" --enable-native-access=ALL-UNNAMED -cp "$CP" \
  dev.linkproof.fleet.coordinate.FleetScaleSimulation "$NODES" "$ROUNDS" || die "the simulation failed"
note "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
