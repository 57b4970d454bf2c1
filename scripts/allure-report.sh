#!/usr/bin/env bash
# Generates the HTML report from Allure results with Allure's command-line tool (unpacked from Maven
# Central by conformance-tests' build), keeping history between runs so trend charts show:
# the previous report's history/ is copied into the results before generating.
#   scripts/allure-report.sh [RESULTS_DIR] [REPORT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
results=${1:-conformance-tests/target/allure-results}
report=${2:-allure-report}
allure_home=$(ls -d conformance-tests/target/allure-cli/allure-* 2>/dev/null | head -n 1 || true)
if [ -z "$allure_home" ]; then
  mvn -B -q -pl conformance-tests generate-test-resources
  allure_home=$(ls -d conformance-tests/target/allure-cli/allure-* | head -n 1)
fi
if [ ! -d "$results" ]; then
  echo "allure-report: no results in $results (run the suite first)" >&2
  exit 1
fi
if [ -d "$report/history" ]; then
  rm -rf "$results/history"
  cp -r "$report/history" "$results/history"
fi
bash "$allure_home/bin/allure" generate --clean "$results" -o "$report" >/dev/null
bash "$allure_home/bin/allure" generate --clean --single-file "$results" -o "$report/single" >/dev/null
echo "allure-report: $(cd "$report" && pwd)/index.html (serve the folder over http, e.g. python3 -m http.server -d $report)"
echo "allure-report: single file $(cd "$report/single" && pwd)/index.html"
