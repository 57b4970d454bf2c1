#!/usr/bin/env bash
# Starts a target agent on this host, for two-host runs. Arguments go to the agent, e.g.
#   scripts/agent.sh --bind 0.0.0.0 --port 7471 [--token T]
# It prints its ready line, and the token and the initiator's command when it made the token up.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
cp_file=transfer-core/target/agent.classpath
if [ ! -f "$cp_file" ] || [ ! -d transfer-core/target/classes ]; then
  mvn -B -q -pl transfer-core -am install -DskipTests
  mvn -B -q -pl transfer-core dependency:build-classpath -Dmdep.outputFile="$PWD/$cp_file" -Dmdep.includeScope=runtime
fi
jdk=${JAVA_HOME:-$(ls -d /usr/lib/jvm/*25* | head -n 1)}
exec "$jdk/bin/java" --enable-native-access=ALL-UNNAMED -Xmx256m -XX:+UseSerialGC \
  -cp "transfer-core/target/classes:$(cat "$cp_file")" dev.linkproof.transfer.agent.AgentMain "$@"
