# Sourced by the benches that run conformance-tests' classes outside Surefire (engine-overhead.sh, soak.sh, the fleet benches).
# suite_classpath ROOT OUT_DIR FREEZE [MODULE]: builds MODULE (default conformance-tests) and what it
# needs (package, nothing installed; not with SKIP_BUILD=1), resolves its test class path into
# OUT_DIR/test.classpath, and sets CP to it with this tree's own modules taken from their target/,
# never from ~/.m2 (where any other build may have installed others). FREEZE=1 copies this tree's
# classes and jars under OUT_DIR/cp first, so that others rebuilding the tree cannot change them under
# a running benchmark. Uses MVN (an array) and die from the caller.
suite_classpath() {
  local root=$1 out=$2 freeze=$3 module=${4:-conformance-tests} e
  local goals=(dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$out/test.classpath")
  [[ "${SKIP_BUILD:-0}" == 1 ]] || goals=(package -DskipTests "${goals[@]}")
  # With -am every module of the reactor writes the file; MODULE, the last, writes it last.
  (cd "$root" && "${MVN[@]}" -pl "$module" -am "${goals[@]}") > "$out/build.log" 2>&1 \
    || { tail -40 "$out/build.log" >&2; die "building or resolving $module failed (see $out/build.log)"; }
  if [[ "$module" == conformance-tests ]]; then
    [[ -d "$root/conformance-tests/target/test-classes/dev/linkproof/conformance/bench" ]] \
      || die "conformance-tests' test classes are not built (run without SKIP_BUILD=1)"
  fi
  [[ -d "$root/$module/target/test-classes" ]] || die "$module's test classes are not built (run without SKIP_BUILD=1)"
  CP="$root/$module/target/test-classes"
  if [[ "$freeze" == 1 ]]; then
    rm -rf "$out/cp" && mkdir -p "$out/cp"  # a reused OUT_DIR: cp -r would nest the classes
    cp -r "$CP" "$out/cp/test-classes"
    CP="$out/cp/test-classes"
  fi
  IFS=: read -r -a entries < "$out/test.classpath" || true  # no newline at its end
  for e in "${entries[@]}"; do
    [[ "$e" =~ /dev/linkproof/([a-z-]+)/[^/]+/([^/]+\.jar)$ ]] && e="$root/${BASH_REMATCH[1]}/target/${BASH_REMATCH[2]}"
    if [[ "$freeze" == 1 && "$e" == "$root"/* ]]; then
      [[ -f "$e" ]] || die "$e is missing (run without SKIP_BUILD=1)"
      cp "$e" "$out/cp/"
      e="$out/cp/$(basename "$e")"
    fi
    CP="$CP:$e"
  done
}

# suite_launcher ROOT OUT_DIR [MODULE]: what a bench that runs MODULE's test classes (default
# conformance-tests') outside Surefire or Failsafe needs, frozen under OUT_DIR/cp so that a rebuild of
# the tree cannot change them under a running bench: JAVA (a JDK 25 or later), MVN (from MVN_FLAGS),
# CP (the test class path, suite_classpath) and LAUNCHER (JUnit's ConsoleLauncher jar, which
# conformance-tests' build fetches). Uses die from the caller.
suite_launcher() {
  local root=$1 out=$2 module=${3:-conformance-tests}
  . "$root/scripts/lib/jdk25.sh"
  JAVA=$(find_java25 "$(basename "$0")") || exit 1
  read -r -a MVN <<< "mvn -B -q -Dstyle.color=never ${MVN_FLAGS:-}"
  suite_classpath "$root" "$out" 1 "$module"
  LAUNCHER="$root/conformance-tests/target/console-launcher/junit-platform-console-standalone.jar"
  [[ -f "$LAUNCHER" ]] || die "$LAUNCHER is missing (run without SKIP_BUILD=1)"
  cp "$LAUNCHER" "$out/cp/"
  LAUNCHER="$out/cp/$(basename "$LAUNCHER")"
}
