#!/usr/bin/env bash
# The project's tests: unit tests, engine tests, the conformance suite and the end-to-end tests of
# the whole product (injected corruption, a killed target, protocol abuse, two network namespaces).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
mvn -B verify "$@"
