#!/usr/bin/env bash
# Submits the fleet run (linkproof-fleet.sbatch beside this script) on a release bundle, waits for it,
# and says where everything is. Runs on the login node; needs sbatch, scontrol and scancel, nothing
# else (no Maven, no Java: the bundle has its own runtime).
#
#   examples/fleet/slurm/submit.sh --bundle BUNDLE [KIT OPTIONS] [SBATCH OPTIONS...] [-- RUN ARGS...]
#   examples/fleet/slurm/submit.sh --bundle /shared/linkproof-0.1.0 -N 4 -p gpu --gpus-per-node=8 \
#       -- --select dev.linkproof.conformance.WriteCorrectness --profile /shared/cx7-400g.yaml
#
# The bundle, built once (on the login node, from a checkout: mvn -B -q -pl distribution -am package
# -DskipTests, which writes distribution/target/linkproof-<version>-linux-<arch>.tar.gz) or a
# release tarball, on a file system every node mounts at the same path:
#   --bundle DIR|TAR.GZ   LINKPROOF_BUNDLE: the unpacked bundle (linkproof-<version>/, with bin/linkproof),
#                         or its .tar.gz, which is unpacked once under OUT-DIR/linkproof-bundles/ (one folder
#                         per tarball's content: a rebuilt tarball never changes what a running job uses)
# Kit options (each with its variable of the environment, read when the option is absent):
#   --out-dir DIR         LINKPROOF_OUT_DIR: where each job's folder linkproof-fleet-<job>/ goes (default: .)
#   --setup FILE          LINKPROOF_SETUP: bash sourced on every node before Linkproof runs there (module load ...)
#   --no-exclusive        LINKPROOF_EXCLUSIVE=0: share the nodes (by default the job holds them alone, --exclusive)
#   --no-memlock-check    LINKPROOF_MEMLOCK_CHECK=0: skip the locked-memory check (a run over tcp only)
#   --memlock-min KIB     LINKPROOF_MEMLOCK_MIN: the lowest `ulimit -l` accepted (default 67108864 KiB, 64 GiB)
#   --deadline DURATION   LINKPROOF_SUBMIT_DEADLINE: how long to wait, queueing included (default 2h; s, m or h);
#                         past it the job is cancelled and this exits 124
# Scheduler knobs, as sbatch options or their variables (none is set unless given):
#   -N NODES              the fleet's nodes (two at least)
#   -t, --time            LINKPROOF_TIME (default 1:00:00, the batch script's)
#   -p, --partition       LINKPROOF_PARTITION        -A, --account   LINKPROOF_ACCOUNT
#   --gpus-per-node=N     LINKPROOF_GPUS_PER_NODE    --gres=SPEC     LINKPROOF_GRES (e.g. gpu:8); ask even
#                         with --exclusive: the agents' step gets the GRES the job asked for, not those
#                         that came with whole nodes
# Any other option before `--` goes to sbatch as it is; arguments after `--` go to `linkproof run` in
# the job (--select, --profile, --tests, -Dkey=value), after the fleet's own keys.
#
# Each job gets its own folder, OUT-DIR/linkproof-fleet-<job>/, from its first line of output: the job
# is submitted held, its folder made, then released. Two jobs never write into the same place.
# Exit status: the job's (the suite's: 0 passed, 1 failed, 2 a usage error or a node check that
# failed), 124 when the deadline passed, 1 for a job cancelled or lost another way, 2 on a usage error
# here. See docs/fleet.md, "Launch kits".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

die() {
  echo "submit: $*" >&2
  exit 2
}

bundle=${LINKPROOF_BUNDLE:-}
out_dir=${LINKPROOF_OUT_DIR:-.}
setup=${LINKPROOF_SETUP:-}
exclusive=${LINKPROOF_EXCLUSIVE:-1}
memlock_check=${LINKPROOF_MEMLOCK_CHECK:-1}
memlock_min=${LINKPROOF_MEMLOCK_MIN:-}
deadline_text=${LINKPROOF_SUBMIT_DEADLINE:-2h}
sbatch_args=()
while (($#)); do
  case "$1" in
    --) shift; break ;;
    --bundle|--out-dir|--setup|--memlock-min|--deadline)
      (($# >= 2)) || die "$1 needs a value"
      case "$1" in
        --bundle) bundle=$2 ;;
        --out-dir) out_dir=$2 ;;
        --setup) setup=$2 ;;
        --memlock-min) memlock_min=$2 ;;
        --deadline) deadline_text=$2 ;;
      esac
      shift 2 ;;
    --bundle=*) bundle=${1#*=}; shift ;;
    --out-dir=*) out_dir=${1#*=}; shift ;;
    --setup=*) setup=${1#*=}; shift ;;
    --memlock-min=*) memlock_min=${1#*=}; shift ;;
    --deadline=*) deadline_text=${1#*=}; shift ;;
    --no-exclusive) exclusive=0; shift ;;
    --no-memlock-check) memlock_check=0; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) sbatch_args+=("$1"); shift ;;
  esac
done

seconds() {
  case "$1" in
    *h) echo $((${1%h} * 3600)) ;;
    *m) echo $((${1%m} * 60)) ;;
    *s) echo "${1%s}" ;;
    *[!0-9]*|"") die "--deadline (LINKPROOF_SUBMIT_DEADLINE) $1 is not a duration (e.g. 90m, 2h)" ;;
    *) echo "$1" ;;
  esac
}
deadline=$(seconds "$deadline_text")
[ -z "$memlock_min" ] || [[ "$memlock_min" =~ ^[0-9]+$ ]] || die "--memlock-min is a number of KiB (ulimit -l's unit), not '$memlock_min'"
[ -z "$setup" ] || [ -f "$setup" ] || die "--setup $setup: no such file"
for a in "$@"; do
  case "$a" in
    --out|--out=*) die "the job writes the run's output into its own folder; leave out $a (--out-dir says where the job folders go)" ;;
  esac
done

mkdir -p "$out_dir"
out_dir=$(cd "$out_dir" && pwd)
[ -z "$setup" ] || setup=$(cd "$(dirname "$setup")" && pwd)/$(basename "$setup")

# The bundle: a folder as it is, a tarball unpacked once per content.
if [ -z "$bundle" ]; then
  die "which bundle? --bundle DIR|TAR.GZ (or LINKPROOF_BUNDLE): a release tarball, or one built from a checkout with
  mvn -B -q -pl distribution -am package -DskipTests   (distribution/target/linkproof-<version>-linux-<arch>.tar.gz)"
fi
case "$bundle" in
  *.tar.gz|*.tgz)
    [ -f "$bundle" ] || die "--bundle $bundle: no such file"
    sum=$(sha256sum "$bundle" | cut -c1-12)
    name=$(basename "$bundle")
    name=${name%.tar.gz}
    name=${name%.tgz}
    cache=$out_dir/linkproof-bundles/$name-$sum
    if [ ! -d "$cache" ]; then
      mkdir -p "$out_dir/linkproof-bundles"
      tmp=$(mktemp -d "$out_dir/linkproof-bundles/.unpacking.XXXXXX")
      tar xzf "$bundle" -C "$tmp" || { rm -rf "$tmp"; die "--bundle $bundle: tar could not unpack it"; }
      # Another submit that unpacked the same tarball meanwhile wins; this copy goes.
      mv -T "$tmp" "$cache" 2>/dev/null || rm -rf "$tmp"
      echo "submit: unpacked $bundle into $cache"
    fi
    tops=("$cache"/*/bin/linkproof)
    [ -x "${tops[0]}" ] || die "--bundle $bundle: no */bin/linkproof in it; is it a Linkproof bundle?"
    bundle=$(dirname "$(dirname "${tops[0]}")")
    ;;
  *)
    [ -d "$bundle" ] || die "--bundle $bundle: no such folder (a bundle is a folder linkproof-<version>/ or its .tar.gz)"
    bundle=$(cd "$bundle" && pwd)
    ;;
esac
[ -x "$bundle/bin/linkproof" ] || die "$bundle has no bin/linkproof: not an unpacked Linkproof bundle"
[ -x "$bundle/runtime/bin/java" ] || die "$bundle/runtime/bin/java is missing or not executable: unpack the bundle again (tar xzf keeps the modes)"

args=(--parsable --hold "--output=$out_dir/linkproof-fleet-%j/job.out")
[ "$exclusive" = 0 ] || args+=(--exclusive)
[ -z "${LINKPROOF_TIME:-}" ] || args+=("--time=$LINKPROOF_TIME")
[ -z "${LINKPROOF_PARTITION:-}" ] || args+=("--partition=$LINKPROOF_PARTITION")
[ -z "${LINKPROOF_ACCOUNT:-}" ] || args+=("--account=$LINKPROOF_ACCOUNT")
[ -z "${LINKPROOF_GPUS_PER_NODE:-}" ] || args+=("--gpus-per-node=$LINKPROOF_GPUS_PER_NODE")
[ -z "${LINKPROOF_GRES:-}" ] || args+=("--gres=$LINKPROOF_GRES")
kit=(--bundle "$bundle" --out-dir "$out_dir")
[ -z "$setup" ] || kit+=(--setup "$setup")
[ "$memlock_check" != 0 ] || kit+=(--no-memlock-check)
[ -z "$memlock_min" ] || kit+=(--memlock-min "$memlock_min")

# Held until its folder exists: Slurm opens the job's output file there, and makes no folders.
job=$(sbatch "${args[@]}" "${sbatch_args[@]}" "$here/linkproof-fleet.sbatch" "${kit[@]}" -- "$@")
job=${job%%;*}
[[ "$job" =~ ^[0-9]+$ ]] || die "sbatch said '$job', not a job id"
dir=$out_dir/linkproof-fleet-$job
if ! mkdir -p "$dir" || ! scontrol release "$job"; then
  scancel "$job" || true
  echo "submit: could not make $dir or release job $job; cancelled it" >&2
  exit 1
fi
echo "submit: job $job submitted; everything in $dir"
trap 'echo "submit: stopped waiting; job $job goes on (scancel $job stops it); everything in $dir" >&2; exit 130' INT TERM

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
    echo "submit: slurmctld no longer knows job $job (MinJobAge passed?); see $dir/job.out" >&2
    exit 1
  fi
  sleep 2
done

echo "submit: job $job ended: $state, exit code ${code:-?}"
# What the job left, each where it is; a job stopped before the run (a node check that failed)
# leaves its reason at the end of its output.
where() {
  if [ -e "$2" ]; then
    printf 'submit: %-16s %s\n' "$1" "$2"
  fi
}
where "job output" "$dir/job.out"
where "coordinator" "$dir/coordinator.out"
where "node check" "$dir/nodes.out"
if ls "$dir"/agent-*.out >/dev/null 2>&1; then
  printf 'submit: %-16s %s\n' "agents' logs" "$dir/agent-<node>.out"
fi
where "verdicts" "$dir/out/fleet-verdict.json"
where "results (JSON)" "$dir/out/linkproof-results.jsonl"
where "JUnit XML" "$dir/out/junit"
where "Allure report" "$dir/out/allure-report/index.html"
if [ "$state" != COMPLETED ] && [ ! -e "$dir/coordinator.out" ] && [ -f "$dir/job.out" ]; then
  echo "submit: the job stopped before the run; the end of its output:"
  tail -n 15 "$dir/job.out" | sed 's/^/  | /'
fi
if [ "$state" = COMPLETED ]; then
  exit 0
fi
# FAILED with the suite's status; CANCELLED, TIMEOUT, NODE_FAIL, … may say 0: still a failure.
if [ -n "$code" ] && [ "$code" -ne 0 ]; then
  exit "$code"
fi
exit 1
