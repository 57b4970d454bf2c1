#!/usr/bin/env bash
# The main job: the conformance suite against the detected hardware, then the Allure report.
# Without RDMA hardware it runs the loopback default (a local target agent over tcp).
# First it checks its prerequisites (scripts/setup.sh → scripts/lib/prereq.sh: a JDK 25 or later,
# Maven, libibverbs and a provider, UCX) and stops when a required one is missing; it installs what
# is missing (maven, libibverbs1, ibverbs-providers, libucx0, or their RHEL names) only as root or
# with --install, and never the test infrastructure (that is scripts/test.sh's). Leading options
# are the check's:
#   --install   install what is missing, through sudo when not root
#   --gpu       GPU points are wanted: the GPU runtime (libcuda.so.1 or libamdhip64) is required
# Other arguments go to Maven, e.g.
#   scripts/conformance.sh -Dlinkproof.peer=host:7471 -Dlinkproof.token=...   (two hosts)
#   scripts/conformance.sh -Dtest='WriteCorrectness#oddSizes'                 (one method)
#   scripts/conformance.sh -Dlinkproof.baseline=baseline.jsonl                (fail regressions)
set -euo pipefail
cd "$(dirname "$0")/.."
setup=()
while [ $# -gt 0 ] && [[ $1 == --install || $1 == --gpu ]]; do setup+=("$1"); shift; done
scripts/setup.sh ${setup[@]+"${setup[@]}"}
# The modules the suite runs from (the release bundle is not needed here: -pl !distribution).
mvn -B -q install -DskipTests -pl '!distribution'
# Each run writes its own results; the report keeps the history of earlier runs.
rm -rf conformance-tests/target/allure-results
# The suite only: the product's own end-to-end tests (tag e2e) belong to scripts/test.sh.
set +e
mvn -B -pl conformance-tests test -DexcludedGroups=e2e "$@"
rc=$?
set -e
echo "conformance: Surefire reports in conformance-tests/target/surefire-reports/"
echo "conformance: results (JSON lines) in conformance-tests/target/linkproof-results.jsonl"
scripts/allure-report.sh conformance-tests/target/allure-results allure-report
exit $rc
