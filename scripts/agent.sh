#!/usr/bin/env bash
# Starts a target agent on this host, for two-host runs. Arguments go to the agent, e.g.
#   scripts/agent.sh --bind 0.0.0.0 --port 7471 [--token T]
# or a fleet's agent, which dials the coordinator's registry (docs/fleet.md, examples/fleet):
#   LINKPROOF_TOKEN=T scripts/agent.sh --register COORDINATOR:7470 --port 0
# It prints its ready line, and the token and the initiator's command when it made the token up.
# Token: --token, else $LINKPROOF_TOKEN (read by the agent), else a random one it prints. The agent
# takes each session's progress deadline from the initiator (linkproof.timeout.progress, sent in HELLO).
# JDK: a JDK 25 or later under /usr/lib/jvm, else $JAVA_HOME if it is one (Maven may run on an older
# one here, and the agent needs 25 or later), else an error.
# First run: checks the agent's prerequisites (scripts/setup.sh --agent, scripts/lib/prereq.sh: the
# JDK, maven, libibverbs and its providers, UCX), installs what is missing only as root or with
# LINKPROOF_INSTALL=1 (through sudo), and builds transfer-core (scripts/lib/agent-build.sh). Set-up
# output goes to stderr, so standard output starts with the ready line.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --agent >&2
. scripts/lib/jdk25.sh
jdk=$(find_jdk25 agent)
. scripts/lib/agent-build.sh
agent_build
exec "$jdk/bin/java" --enable-native-access=ALL-UNNAMED -Xmx256m -XX:+UseSerialGC \
  -cp "$(agent_classpath)" dev.linkproof.transfer.agent.AgentMain "$@"
