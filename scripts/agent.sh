#!/usr/bin/env bash
# Starts a target agent on this host, for two-host runs. Arguments go to the agent, e.g.
#   scripts/agent.sh --bind 0.0.0.0 --port 7471 [--token T]
# It prints its ready line, and the token and the initiator's command when it made the token up.
# Token: --token, else $LINKPROOF_TOKEN (read by the agent), else a random one it prints. The agent
# takes each session's progress deadline from the initiator (linkproof.timeout.progress, sent in HELLO).
# JDK: a JDK 25 under /usr/lib/jvm, else $JAVA_HOME if it is a JDK 25 (Maven may run on an older one
# here, and the agent needs 25), else an error.
# First run: installs the agent's Debian packages (scripts/setup.sh --agent: maven, libibverbs1,
# ibverbs-providers, libucx0; root or sudo) and builds transfer-core. Set-up output goes to stderr,
# so standard output starts with the ready line.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --agent >&2
. scripts/lib/jdk25.sh
jdk=$(find_jdk25 agent)
cp_file=transfer-core/target/agent.classpath
if [ ! -f "$cp_file" ] || [ ! -d transfer-core/target/classes ]; then
  mvn -B -q -pl transfer-core -am install -DskipTests >&2
  mvn -B -q -pl transfer-core dependency:build-classpath -Dmdep.outputFile="$PWD/$cp_file" -Dmdep.includeScope=runtime >&2
fi
exec "$jdk/bin/java" --enable-native-access=ALL-UNNAMED -Xmx256m -XX:+UseSerialGC \
  -cp "transfer-core/target/classes:$(cat "$cp_file")" dev.linkproof.transfer.agent.AgentMain "$@"
