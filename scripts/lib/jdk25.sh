# Sourced by scripts/setup.sh, agent.sh, softroce-vm.sh, gpu-check.sh and the benches. find_jdk25 CALLER prints
# the home of a JDK 25: the first /usr/lib/jvm/*25* whose java says so, else $JAVA_HOME if it is
# one; else it fails with a message led by CALLER. Maven may run on an older JDK here (toolchains
# select 25), so a JAVA_HOME set for Maven is not taken on trust.
find_jdk25() {
  local j
  for j in /usr/lib/jvm/*25* ${JAVA_HOME:+"$JAVA_HOME"}; do
    if [ -x "$j/bin/java" ] && [[ "$("$j/bin/java" -version 2>&1 | head -n 1)" =~ \ version\ \"25(\"|\.) ]]; then
      echo "$j"
      return 0
    fi
  done
  echo "$1: no JDK 25 under /usr/lib/jvm, and JAVA_HOME (${JAVA_HOME:-unset}) is not one; install one (e.g. Temurin 25) or point JAVA_HOME at it" >&2
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
