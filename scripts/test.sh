#!/usr/bin/env bash
# The project's tests: unit tests, engine tests, the conformance suite and the end-to-end tests of
# the whole product (injected corruption, a killed target, protocol abuse, two network namespaces),
# and the verbs suite for real on Soft-RoCE inside a QEMU/TCG VM (conformance-tests' SoftRoceSuite,
# enabled by -Dlinkproof.softroce=true; a few minutes; pass -Dlinkproof.softroce=false to leave it out),
# and the fleet suite on a Slurm cluster of network namespaces on this machine (distribution's
# FleetSlurmSuite: every job through examples/fleet/slurm/submit.sh on the release bundle, after
# `package`; enabled by -Dlinkproof.slurm=true; needs root; -Dlinkproof.slurm=false leaves it out).
# The build packs the release bundle and runs it with no java or mvn on the PATH (distribution's
# BundleIT); then scripts/image.sh builds the OCI image from it and runs it (root; skipped without).
# Then, with the artifacts installed in the local Maven repository, examples/own-project: a user's
# project with its own @TransferTest class and the suite through dependenciesToScan (scripts/own-project.sh).
# First scripts/setup.sh --test: the main job's prerequisites and the test infrastructure (QEMU,
# Slurm, munge, Chromium, iperf3, the -dev headers, mmdebstrap and buildah ...), installed as root,
# or through sudo with a leading --install; otherwise the tests that need what is missing skip.
# Other arguments go to Maven.
set -euo pipefail
cd "$(dirname "$0")/.."
setup=(--test)
if [ "${1:-}" = --install ]; then setup+=(--install); shift; fi
scripts/setup.sh "${setup[@]}"
# -Pformat: the build fails first on a Java file the formatter would change (docs/design.md).
mvn -B install -Pformat -Dlinkproof.softroce=true -Dlinkproof.slurm=true "$@"
# The container image, from the bundle the build just packed: built without a registry and run
# from its own layers (scripts/image.sh says why not with podman here).
scripts/image.sh check --skip-unavailable
# The example resolves what was just installed: where, if this run put it elsewhere.
# Options that take their value as the next argument (-s FILE) are passed on with it.
repo=()
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[i]}" in
    -Dmaven.repo.local=*|--settings=*|--global-settings=*|-s?*|-gs?*) repo+=("${args[i]}") ;;
    -s|--settings|-gs|--global-settings) repo+=("${args[i]}" "${args[i+1]:-}"); i=$((i + 1)) ;;
  esac
done
scripts/own-project.sh "${repo[@]}"
