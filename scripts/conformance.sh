#!/usr/bin/env bash
# The main job: the conformance suite against the detected hardware. Without RDMA hardware it runs
# the loopback default (a local target agent over tcp). Extra arguments go to Maven, e.g.
#   scripts/conformance.sh -Dlinkproof.peer=host:7471 -Dlinkproof.token=...   (two hosts)
#   scripts/conformance.sh -Dtest='WriteCorrectness#oddSizes'                 (one method)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
mvn -B -q install -DskipTests
# The suite only: the product's own end-to-end tests (tag e2e) belong to scripts/test.sh.
mvn -B -pl conformance-tests test -DexcludedGroups=e2e "$@"
echo "conformance: Surefire reports in conformance-tests/target/surefire-reports/"
