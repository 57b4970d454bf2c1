#!/usr/bin/env bash
# The main job: the conformance suite against the detected hardware, then the Allure report.
# Without RDMA hardware it runs the loopback default (a local target agent over tcp). Extra
# arguments go to Maven, e.g.
#   scripts/conformance.sh -Dlinkproof.peer=host:7471 -Dlinkproof.token=...   (two hosts)
#   scripts/conformance.sh -Dtest='WriteCorrectness#oddSizes'                 (one method)
#   scripts/conformance.sh -Dlinkproof.baseline=baseline.jsonl                (fail regressions)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
mvn -B -q install -DskipTests
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
