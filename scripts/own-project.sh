#!/usr/bin/env bash
# Builds examples/own-project - a user's project with its own @TransferTest class and Linkproof's
# suite pulled in through Surefire's dependenciesToScan - against the Linkproof artifacts that
# `mvn install` of this repository put in the local Maven repository, and checks that both ran:
# the example's class and the scanned suite class each have a Surefire report with tests and no
# failures. Arguments go to Maven (default: the example's class and one suite class, WriteCorrectness,
# to keep CI short; -Dtest=... runs others).
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' pom.xml | head -1)
[ -n "$version" ] || { echo "own-project: cannot read the project version from pom.xml" >&2; exit 1; }
jar="$HOME/.m2/repository/dev/linkproof/conformance-tests/$version/conformance-tests-$version-suite.jar"
[ -f "$jar" ] || { echo "own-project: $jar is missing: run 'mvn install' in this repository first" >&2; exit 1; }
example=examples/own-project
rm -rf "$example/target"
set +e
mvn -B -f "$example/pom.xml" -Dlinkproof.version="$version" test -Dtest='OurMessageSizes,WriteCorrectness' "$@"
rc=$?
set -e
[ $rc -eq 0 ] || { echo "own-project: the example project's build failed (exit $rc)" >&2; exit $rc; }
for cls in com.example.links.OurMessageSizes dev.linkproof.conformance.WriteCorrectness; do
  report="$example/target/surefire-reports/TEST-$cls.xml"
  [ -f "$report" ] || { echo "own-project: no Surefire report for $cls: the class was not discovered" >&2; exit 1; }
  tests=$(sed -n 's/.*<testsuite [^>]*tests="\([0-9]*\)".*/\1/p' "$report" | head -1)
  failures=$(sed -n 's/.*<testsuite [^>]*failures="\([0-9]*\)".*/\1/p' "$report" | head -1)
  [ "${tests:-0}" -gt 0 ] || { echo "own-project: $cls ran no tests" >&2; exit 1; }
  [ "${failures:-1}" -eq 0 ] || { echo "own-project: $cls had $failures failures" >&2; exit 1; }
  echo "own-project: $cls: $tests points, no failures"
done
