# Sourced by scripts/agent.sh, from the repository root. agent_build builds transfer-core and writes
# the agent's runtime class path to transfer-core/target/agent.classpath, unless both are there
# already; Maven's output goes to stderr.
# agent_classpath then prints the class path AgentMain runs with.
agent_cp_file=transfer-core/target/agent.classpath

agent_build() {
  if [ ! -f "$agent_cp_file" ] || [ ! -d transfer-core/target/classes ]; then
    mvn -B -q -pl transfer-core -am install -DskipTests >&2
    mvn -B -q -pl transfer-core dependency:build-classpath -Dmdep.outputFile="$PWD/$agent_cp_file" \
      -Dmdep.includeScope=runtime >&2
  fi
}

agent_classpath() {
  echo "transfer-core/target/classes:$(cat "$agent_cp_file")"
}
