#!/usr/bin/env bash
# Builds examples/own-project - a user's project with its own @TransferTest class and Linkproof's
# suite pulled in through Surefire's dependenciesToScan - against the Linkproof artifacts that
# `mvn install` of this repository put in the local Maven repository (run that first, with the same
# -Dmaven.repo.local or settings, if any), and checks that both ran: the example's class and one
# scanned suite class (WriteCorrectness) each have a Surefire report with points that ran (not
# skipped), no failures and no errors. Arguments go to the example's Maven run (-Dmaven.repo.local=…,
# -Dlinkproof.profile=…).
set -euo pipefail
cd "$(dirname "$0")/.."
# The example is built with this repository's version and JUnit version (the JUnit BOM it imports).
pom_value() { sed -n "s:^  *<$1>\(.*\)</$1>\r\?$:\1:p" pom.xml | head -1; }
version=$(sed -n 's:^  <version>\(.*\)</version>\r\?$:\1:p' pom.xml | head -1)
junit=$(pom_value junit.version)
for v in "$version" "$junit"; do
  case "$v" in ''|*'$'*) echo "own-project: cannot read the project or JUnit version from pom.xml (got '$v')" >&2; exit 1 ;; esac
done
example=examples/own-project
classes=(com.example.links.OurMessageSizes dev.linkproof.conformance.WriteCorrectness)
rm -rf "$example/target"
set +e
mvn -B -f "$example/pom.xml" -Dlinkproof.version="$version" -Djunit.version="$junit" test \
    -Dtest='OurMessageSizes,WriteCorrectness' "$@"
rc=$?
set -e
if [ $rc -ne 0 ]; then
  echo "own-project: the example project's build failed (exit $rc); if it could not resolve dev.linkproof:*:$version," \
       "run 'mvn install' in this repository first" >&2
  exit $rc
fi
attr() { sed -n "s/.*<testsuite [^>]*[[:space:]]$1=\"\([0-9]*\)\".*/\1/p" "$2" | head -1; }
for cls in "${classes[@]}"; do
  report="$example/target/surefire-reports/TEST-$cls.xml"
  [ -f "$report" ] || { echo "own-project: no Surefire report for $cls: the class was not discovered" >&2; exit 1; }
  tests=$(attr tests "$report"); skipped=$(attr skipped "$report")
  failures=$(attr failures "$report"); errors=$(attr errors "$report")
  ran=$(( ${tests:-0} - ${skipped:-0} ))
  [ "$ran" -gt 0 ] || { echo "own-project: $cls ran no points (${tests:-0} tests, ${skipped:-0} skipped)" >&2; exit 1; }
  [ "${failures:-1}" -eq 0 ] && [ "${errors:-1}" -eq 0 ] \
    || { echo "own-project: $cls had ${failures:-?} failures and ${errors:-?} errors" >&2; exit 1; }
  echo "own-project: $cls: $ran points ran, ${skipped:-0} skipped, no failures"
done
