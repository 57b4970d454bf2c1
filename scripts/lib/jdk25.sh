# Sourced by scripts/setup.sh, scripts/lib/prereq.sh, agent.sh, softroce-vm.sh, gpu-check.sh and the
# benches. find_jdk25 CALLER prints the home of a JDK 25 or later (26, 27-ea ...: the pom's
# [25,) range): the first /usr/lib/jvm/* whose java reports a major version of 25 or more, else
# $JAVA_HOME if it is one; else it fails with a message led by CALLER. Maven may run on an older
# JDK here (toolchains select 25 or later), so a JAVA_HOME set for Maven is not taken on trust.
# LINKPROOF_PREREQ_ROOT (tests only) is put in front of /usr/lib/jvm, so a test can offer its own.

# jdk_major JAVA prints the major version JAVA reports ("25" for "25.0.1", "26" for "26-ea", "8"
# for "1.8.0_392"); fails when JAVA does not run or says no version.
jdk_major() {
  local line
  line=$("$1" -version 2>&1) || true
  line=${line%%$'\n'*}
  [[ $line =~ \ version\ \"([0-9]+)(\.([0-9]+))? ]] || return 1
  if [ "${BASH_REMATCH[1]}" = 1 ] && [ -n "${BASH_REMATCH[3]}" ]; then
    echo "${BASH_REMATCH[3]}"
  else
    echo "${BASH_REMATCH[1]}"
  fi
}

find_jdk25() {
  local j major
  for j in "${LINKPROOF_PREREQ_ROOT:-}"/usr/lib/jvm/* ${JAVA_HOME:+"$JAVA_HOME"}; do
    [ -x "$j/bin/java" ] || continue
    major=$(jdk_major "$j/bin/java") || continue
    if ((major >= 25)); then
      echo "$j"
      return 0
    fi
  done
  echo "$1: no JDK 25 or later under /usr/lib/jvm, and JAVA_HOME (${JAVA_HOME:-unset}) is not one; install one (e.g. Temurin 25) or point JAVA_HOME at it" >&2
  return 1
}

# find_java25 CALLER prints the java a bench runs on: LINKPROOF_JAVA if set (it must be executable),
# else find_jdk25's.
find_java25() {
  if [ -n "${LINKPROOF_JAVA:-}" ]; then
    [ -x "$LINKPROOF_JAVA" ] || { echo "$1: LINKPROOF_JAVA=$LINKPROOF_JAVA is not a java" >&2; return 1; }
    echo "$LINKPROOF_JAVA"
    return 0
  fi
  local jdk
  jdk=$(find_jdk25 "$1") || return 1
  echo "$jdk/bin/java"
}
