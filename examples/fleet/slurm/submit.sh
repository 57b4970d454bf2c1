#!/usr/bin/env bash
# Submits the fleet run (linkproof-fleet.sbatch beside this script), waits for it, and says where
# its output, report and verdicts are. Exit status: the job's (the suite's), 124 when the deadline
# passed (the job is cancelled then), 2 on a usage error.
#
#   examples/fleet/slurm/submit.sh [SBATCH OPTIONS...] [-- MAVEN ARGS...]
#   examples/fleet/slurm/submit.sh -N 4 -p debug -- -Dtest=WriteCorrectness -Dlinkproof.fleet.pattern=pairwise
#
# Options before `--` go to sbatch (node count, partition, time limit); arguments after it go to the
# suite (scripts/conformance.sh). LINKPROOF_SUBMIT_DEADLINE (default 2h; s, m or h) bounds the wait,
# queueing included. See docs/fleet.md, "Launch kits".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cd "$root"

sbatch_args=()
while (($#)); do
  case "$1" in
    --) shift; break ;;
    *) sbatch_args+=("$1"); shift ;;
  esac
done

seconds() {
  case "$1" in
    *h) echo $((${1%h} * 3600)) ;;
    *m) echo $((${1%m} * 60)) ;;
    *s) echo "${1%s}" ;;
    *[!0-9]*|"") echo "submit: LINKPROOF_SUBMIT_DEADLINE=$1 is not a duration (e.g. 90m, 2h)" >&2; exit 2 ;;
    *) echo "$1" ;;
  esac
}
deadline=$(seconds "${LINKPROOF_SUBMIT_DEADLINE:-2h}")

# The batch script runs in the directory sbatch is called from, this checkout's root; its output
# file is written there too (linkproof-fleet-<job>.out).
export LINKPROOF_HOME="$root"
job=$(sbatch --parsable "${sbatch_args[@]}" "$here/linkproof-fleet.sbatch" "$@")
job=${job%%;*}
echo "submit: job $job submitted; output in $root/linkproof-fleet-$job.out"

# The job's state and exit code, from slurmctld (no accounting database needed): while it is known,
# scontrol says JobState=… ExitCode=rc:signal.
state=""
code=""
start=$SECONDS
while :; do
  line=$(scontrol show job -o "$job" 2>/dev/null || true)
  state=$(sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' <<<"$line")
  code=$(sed -n 's/.* ExitCode=\([0-9]*\):.*/\1/p' <<<"$line")
  case "$state" in
    PENDING|CONFIGURING|RUNNING|COMPLETING|SUSPENDED|REQUEUED|RESIZING|"") ;;
    *) break ;;
  esac
  if ((SECONDS - start >= deadline)); then
    echo "submit: job $job still ${state:-unknown} after ${deadline}s; cancelling it" >&2
    scancel "$job" || true
    exit 124
  fi
  if [ -z "$line" ] && ((SECONDS - start > 30)); then
    echo "submit: slurmctld no longer knows job $job (MinJobAge passed?); see its output file" >&2
    exit 1
  fi
  sleep 5
done

echo "submit: job $job ended: $state, exit code ${code:-?}"
echo "submit: output          $root/linkproof-fleet-$job.out"
echo "submit: verdicts        $root/conformance-tests/target/fleet-verdict.json"
echo "submit: results (JSON)  $root/conformance-tests/target/linkproof-results.jsonl"
echo "submit: Surefire        $root/conformance-tests/target/surefire-reports/"
echo "submit: Allure report   $root/allure-report/index.html"
if [ "$state" = COMPLETED ]; then
  exit 0
fi
# FAILED with the suite's status; CANCELLED, TIMEOUT, NODE_FAIL, … may say 0: still a failure.
if [ -n "$code" ] && [ "$code" -ne 0 ]; then
  exit "$code"
fi
exit 1
