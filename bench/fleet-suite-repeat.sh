#!/usr/bin/env bash
# The Slurm fleet suite (conformance-tests' FleetSlurmSuite: a clean fleet that acts and resumes a node
# drained earlier, a slow node drained, a slow link, a dead node, a corrupting node, the Kubernetes
# rendezvous) REPS times in a row, each its own JVM through JUnit's ConsoleLauncher over this build's
# test class path, as Surefire would run it: a verdict test that flakes keeps a good change from
# landing, and is a false verdict a user would act on (issue #31). Prints one line per repetition
# (its tests, failures, wall time) and a closing count; exits 1 when any repetition failed.
#
# Needs root, Slurm and munge (scripts/setup.sh --test). Holds flock /tmp/linkproof-slurm.lock while it runs,
# as bench/fleet-false-blame.sh does. Leaves the cluster down.
# Environment knobs (defaults in brackets): REPS [10]   SKIP_BUILD [0]   MVN_FLAGS [none; e.g. -o]
# One repetition takes about 2 minutes on this machine kind (2 cores).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPS=${REPS:-10}
OUT_DIR=$(mktemp -d "${TMPDIR:-/tmp}/linkproof-fleet-suite.XXXXXX")
die() { echo "fleet-suite-repeat: $*" >&2; exit 2; }
[[ "$REPS" =~ ^[0-9]+$ ]] || die "REPS is a whole number, not '$REPS'"
[ "$(id -u)" -eq 0 ] || die "needs root (network namespaces, Slurm's daemons)"

. "$ROOT/bench/lib/suite-classpath.sh"
suite_launcher "$ROOT" "$OUT_DIR"

exec 9>>/tmp/linkproof-slurm.lock
flock 9
echo "# fleet-suite-repeat: $(date -u +%FT%TZ), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), REPS=$REPS, commit $(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD || echo '+changes')"
cd "$ROOT/conformance-tests"
failed=0
for ((i = 1; i <= REPS; i++)); do
  t0=$(date +%s)
  rc=0
  # The test class path on the JVM's own class path, as Surefire puts it: the suite hands
  # java.class.path to the coordinator it starts in each job.
  "$JAVA" -Xmx512m --enable-native-access=ALL-UNNAMED -Dlinkproof.slurm=true -Dlinkproof.consoleLauncher="$LAUNCHER" \
    -cp "$CP:$LAUNCHER" org.junit.platform.console.ConsoleLauncher execute --disable-banner --details=summary \
    --select-class dev.linkproof.conformance.fleet.FleetSlurmSuite > "$OUT_DIR/rep-$i.log" 2>&1 < /dev/null 9>&- || rc=$?
  counts=$(grep -oE "[0-9]+ tests (successful|failed|skipped|aborted)" "$OUT_DIR/rep-$i.log" | sed 's/ tests//' | paste -sd' ' -)
  printf '%2d  exit %d  %s  %4d s\n' "$i" "$rc" "$counts" "$(( $(date +%s) - t0 ))"
  [[ $rc == 0 ]] || failed=$((failed + 1))
done
echo "# $((REPS - failed)) of $REPS repetitions passed; logs: $OUT_DIR/rep-N.log, each run's files: $ROOT/conformance-tests/target/fleet/"
[[ $failed == 0 ]]
