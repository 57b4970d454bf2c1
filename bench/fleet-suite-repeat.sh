#!/usr/bin/env bash
# The Slurm fleet suite (distribution's FleetSlurmSuite: each case a job submitted through the launch
# kit, examples/fleet/slurm/submit.sh, on the release bundle, as a user submits it: a locked-memory
# limit too low stops the job with the fix, a clean fleet that acts and resumes a node drained
# earlier, a slow node drained, a slow link, a dead node, a corrupting node, the Kubernetes
# rendezvous) REPS times in a row, each its own JVM through JUnit's ConsoleLauncher over the
# distribution module's test class path, as Failsafe would run it: a verdict test that flakes keeps
# a good change from landing, and is a false verdict a user would act on (issue #31). Prints one line
# per repetition (its tests, failures, wall time) and a closing count; exits 1 when any repetition
# failed.
#
# Needs root, Slurm and munge (scripts/setup.sh --test). Builds the bundle once (package, nothing
# installed; not with SKIP_BUILD=1) and runs every repetition on a copy of that tarball. Holds flock
# /tmp/linkproof-slurm.lock while it runs, as bench/fleet-false-blame.sh does (the suite sees a caller
# holds it and does not take it again). Leaves the cluster down.
# Environment knobs (defaults in brackets): REPS [10]   SKIP_BUILD [0]   MVN_FLAGS [none; e.g. -o]
# One repetition takes about 2 to 2.5 minutes on this machine kind (2 cores).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPS=${REPS:-10}
OUT_DIR=$(mktemp -d "${TMPDIR:-/tmp}/linkproof-fleet-suite.XXXXXX")
die() { echo "fleet-suite-repeat: $*" >&2; exit 2; }
[[ "$REPS" =~ ^[0-9]+$ ]] || die "REPS is a whole number, not '$REPS'"
[ "$(id -u)" -eq 0 ] || die "needs root (network namespaces, Slurm's daemons)"

. "$ROOT/bench/lib/suite-classpath.sh"
suite_launcher "$ROOT" "$OUT_DIR" distribution
tarball=$(ls -t "$ROOT"/distribution/target/linkproof-*-linux-*.tar.gz 2>/dev/null | head -n 1 || true)
[[ -f "$tarball" ]] || die "no bundle in $ROOT/distribution/target (run without SKIP_BUILD=1)"
cp "$tarball" "$OUT_DIR/cp/"
BUNDLE="$OUT_DIR/cp/$(basename "$tarball")"

exec 9>>/tmp/linkproof-slurm.lock
flock 9
echo "# fleet-suite-repeat: $(date -u +%FT%TZ), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), REPS=$REPS, commit $(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet HEAD || echo '+changes')"
cd "$ROOT/distribution"
failed=0
for ((i = 1; i <= REPS; i++)); do
  t0=$(date +%s)
  rc=0
  "$JAVA" -Xmx512m --enable-native-access=ALL-UNNAMED -Dlinkproof.slurm=true -Dlinkproof.bundle="$BUNDLE" \
    -cp "$CP:$LAUNCHER" org.junit.platform.console.ConsoleLauncher execute --disable-banner --details=summary \
    --select-class dev.linkproof.kit.FleetSlurmSuite > "$OUT_DIR/rep-$i.log" 2>&1 < /dev/null 9>&- || rc=$?
  counts=$(grep -oE "[0-9]+ tests (successful|failed|skipped|aborted)" "$OUT_DIR/rep-$i.log" | sed 's/ tests//' | paste -sd' ' -)
  printf '%2d  exit %d  %s  %4d s\n' "$i" "$rc" "$counts" "$(( $(date +%s) - t0 ))"
  [[ $rc == 0 ]] || failed=$((failed + 1))
  # Each repetition's job folders and submit.sh's output (the suite starts each run afresh).
  mkdir -p "$OUT_DIR/rep-$i"
  cp -r target/fleet/linkproof-fleet-* target/fleet/*.submit.out "$OUT_DIR/rep-$i/" 2>/dev/null || true
done
echo "# $((REPS - failed)) of $REPS repetitions passed; logs: $OUT_DIR/rep-N.log, each repetition's job folders: $OUT_DIR/rep-N/"
[[ $failed == 0 ]]
