#!/usr/bin/env bash
# A real Slurm cluster of N nodes on one machine, for the fleet suite: slurmctld in the root network
# namespace on a bridge lpbr0 (10.77.0.1/24), one slurmd per network namespace lpn1..lpnN
# (10.77.0.1K/24 on veth "eth0" enslaved to the bridge). An srun task runs inside its node's
# namespace, so agents started by `srun --ntasks-per-node=1` listen on distinct hosts and talk over
# real TCP, and a coordinator in the root namespace reaches them all at 10.77.0.1.
# Faults are real too (tc in a node's namespace; this kernel has tbf and htb, not netem):
#
#   slurm-netns.sh up [N]                 start munge, the bridge, N nodes and Slurm (N: 2..9, default 4);
#                                         idempotent: an existing cluster of N nodes is reused
#   slurm-netns.sh down                   stop Slurm, delete the nodes and the bridge; nothing if absent
#   slurm-netns.sh slow-node NODE RATE    tbf on NODE's eth0: everything NODE sends is held to RATE
#   slurm-netns.sh slow-link FROM TO RATE htb on FROM's eth0 with a u32 filter: only FROM -> TO is held to RATE
#   slurm-netns.sh cut NODE               NODE's link down (a dead link); `heal NODE` brings it back
#   slurm-netns.sh kill-agent NODE        SIGKILL to the Linkproof agent(s) running in NODE's namespace (a dead node)
#   slurm-netns.sh clear NODE             remove NODE's qdisc, bring its link up
#   slurm-netns.sh status                 sinfo, and one line per node: its qdisc and link state
#
# Pitfalls this handles (measured on this machine kind, Debian 12, slurm-wlm 22.05):
# slurmctld refuses to start unless SlurmctldHost names this machine's own hostname; slurmd fails
# with "No filesystem mounted on /sys/fs/cgroup" unless cgroup.conf says cgroup/v1; munged must run
# as user munge with a key of mode 0400.
# Needs root, iproute2, slurm-wlm and munge (scripts/setup.sh --test installs them). Exit 2: usage; 1: failure.
set -euo pipefail

STATE=/run/linkproof-slurm
BRIDGE=lpbr0
MAX_NODES=9

usage() {
  echo "usage: slurm-netns.sh up [N] | down | slow-node NODE RATE | slow-link FROM TO RATE | cut NODE | heal NODE | kill-agent NODE | clear NODE | status" >&2
  exit 2
}

die() {
  echo "slurm-netns: $*" >&2
  exit 1
}

node_ns() {
  [[ "$1" =~ ^lpn[1-9]$ ]] || die "'$1' is not a node of this cluster (lpn1..lpn$MAX_NODES)"
  ip netns list | grep -qw "$1" || die "node $1 does not exist (slurm-netns.sh up first)"
  echo "$1"
}

# Runs a daemon without the descriptors this script inherited (0-2 aside): a caller's lock on
# /tmp/linkproof-slurm.lock (flock CMD, or exec 9>>lock; flock 9) would otherwise go with it into
# munged or slurmctld and stay taken as long as they run, long after the caller is gone. It execs:
# call it in a subshell, or with & (then $! is the daemon's pid).
daemon() {
  local fd
  for fd in /proc/$BASHPID/fd/*; do
    fd=${fd##*/}
    if ((fd > 2 && fd != 255)); then
      eval "exec $fd>&-" 2>/dev/null || true
    fi
  done
  exec "$@"
}

node_addr() {
  echo "10.77.0.1${1#lpn}"
}

up() {
  local n=${1:-4}
  [[ "$n" =~ ^[0-9]+$ ]] && ((n >= 2 && n <= MAX_NODES)) || die "N must be 2..$MAX_NODES, not '$n'"
  [ "$(id -u)" -eq 0 ] || die "needs root (network namespaces, Slurm's daemons)"
  command -v slurmctld >/dev/null && command -v munged >/dev/null || die "slurm-wlm and munge are not installed (scripts/setup.sh --test)"
  if [ -f "$STATE/nodes" ] && [ "$(cat "$STATE/nodes")" = "$n" ] && sinfo -h >/dev/null 2>&1; then
    wait_idle "$n"
    return
  fi
  down >/dev/null 2>&1 || true
  mkdir -p "$STATE" /etc/slurm /var/spool/slurmctld /var/log/slurm /run/munge
  if [ ! -s /etc/munge/munge.key ]; then
    dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null
    chown munge:munge /etc/munge/munge.key
    chmod 400 /etc/munge/munge.key
  fi
  chown munge:munge /run/munge
  pgrep -x munged >/dev/null || (daemon su -s /bin/sh munge -c /usr/sbin/munged)
  ip link add "$BRIDGE" type bridge
  ip addr add 10.77.0.1/24 dev "$BRIDGE"
  ip link set "$BRIDGE" up
  local nodes="" i ns
  for i in $(seq 1 "$n"); do
    ns=lpn$i
    ip netns add "$ns"
    ip link add "lpv$i" type veth peer name eth0 netns "$ns"
    ip link set "lpv$i" master "$BRIDGE" up
    ip -n "$ns" addr add "$(node_addr "$ns")/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$ns" link set lo up
    nodes+="NodeName=$ns NodeAddr=$(node_addr "$ns") CPUs=$(nproc) State=UNKNOWN"$'\n'
    grep -q "^$(node_addr "$ns") $ns\$" /etc/hosts || echo "$(node_addr "$ns") $ns" >> /etc/hosts
  done
  cat > /etc/slurm/slurm.conf <<CONF
# Written by Linkproof's scripts/lib/slurm-netns.sh: a cluster of network namespaces on this machine.
ClusterName=linkproof
SlurmctldHost=$(hostname -s)(10.77.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd/%n
SlurmctldPidFile=$STATE/slurmctld.pid.d
SlurmdPidFile=$STATE/slurmd-%n.pid.d
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd-%n.log
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
${nodes}PartitionName=debug Nodes=lpn[1-$n] Default=YES MaxTime=INFINITE State=UP
CONF
  printf 'CgroupPlugin=cgroup/v1\nCgroupMountpoint=/sys/fs/cgroup\nCgroupAutomount=no\n' > /etc/slurm/cgroup.conf
  daemon setsid slurmctld -D > "$STATE/slurmctld.out" 2>&1 < /dev/null &
  echo $! > "$STATE/slurmctld.pid"
  for i in $(seq 1 "$n"); do
    mkdir -p "/var/spool/slurmd/lpn$i"
    daemon setsid ip netns exec "lpn$i" slurmd -D -N "lpn$i" > "$STATE/slurmd-lpn$i.out" 2>&1 < /dev/null &
    echo $! > "$STATE/slurmd-lpn$i.pid"
  done
  echo "$n" > "$STATE/nodes"
  wait_idle "$n"
}

wait_idle() {
  local n=$1 idle
  for _ in $(seq 1 60); do
    idle=$(sinfo -h -t idle -o %D 2>/dev/null || true)
    if [ "$idle" = "$n" ]; then
      echo "slurm-netns: $n nodes idle (lpn[1-$n] at 10.77.0.11..1$n; controller at 10.77.0.1)"
      return
    fi
    sleep 1
  done
  sinfo >&2 || true
  tail -n 5 "$STATE"/*.out >&2 || true
  die "the cluster's $n nodes were not idle within 60 s (logs above, and /var/log/slurm)"
}

down() {
  if [ -d "$STATE" ]; then
    for f in "$STATE"/*.pid; do
      [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true
      rm -f "$f"
    done
  fi
  sleep 1
  pkill -x slurmctld 2>/dev/null || true
  pkill -x slurmd 2>/dev/null || true
  local ns
  for ns in $(ip netns list | awk '/^lpn[0-9]/{print $1}'); do ip netns del "$ns"; done
  # A node's host-side veth outlives its namespace when a process still holds that namespace (a
  # killed run's leftovers): the next `up` would fail on it with "File exists".
  local l
  for l in $(ip -o link show | sed -n 's/^[0-9]*: \(lpv[0-9]*\)@.*/\1/p'); do ip link del "$l" 2>/dev/null || true; done
  ip link del "$BRIDGE" 2>/dev/null || true
  sed -i '/^10\.77\.0\.1[0-9] lpn[0-9]$/d' /etc/hosts
  rm -rf /var/spool/slurmctld/* /var/spool/slurmd "$STATE"
}

case "${1:-}" in
up) up "${2:-4}" ;;
down) down ;;
slow-node)
  [ $# -eq 3 ] || usage
  ns=$(node_ns "$2")
  ip netns exec "$ns" tc qdisc replace dev eth0 root tbf rate "$3" burst 64kb latency 50ms
  ;;
slow-link)
  [ $# -eq 4 ] || usage
  ns=$(node_ns "$2")
  node_ns "$3" >/dev/null
  ip netns exec "$ns" tc qdisc replace dev eth0 root handle 1: htb default 10
  ip netns exec "$ns" tc class replace dev eth0 parent 1: classid 1:10 htb rate 10gbit
  ip netns exec "$ns" tc class replace dev eth0 parent 1: classid 1:20 htb rate "$4" ceil "$4"
  ip netns exec "$ns" tc filter replace dev eth0 parent 1: protocol ip prio 1 u32 match ip dst "$(node_addr "$3")/32" flowid 1:20
  ;;
cut)
  [ $# -eq 2 ] || usage
  ip -n "$(node_ns "$2")" link set eth0 down
  ;;
heal)
  [ $# -eq 2 ] || usage
  ip -n "$(node_ns "$2")" link set eth0 up
  ;;
kill-agent)
  # The agent's JVM, whichever way it was started (the bundle's `linkproof agent`, or AgentMain on a
  # class path), among the processes of the node's namespace; slurmd and the step stay.
  [ $# -eq 2 ] || usage
  ns=$(node_ns "$2")
  killed=""
  for pid in $(ip netns pids "$ns"); do
    cmd=$(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null || true)
    if [[ "$cmd" == *" dev.linkproof.command.Linkproof agent "* || "$cmd" == *" dev.linkproof.transfer.agent.AgentMain "* ]]; then
      kill -KILL "$pid" 2>/dev/null && killed+=" $pid"
    fi
  done
  [ -n "$killed" ] || die "no Linkproof agent runs on $ns"
  echo "slurm-netns: killed the agent of $ns (pid$killed)"
  ;;
clear)
  [ $# -eq 2 ] || usage
  ns=$(node_ns "$2")
  ip netns exec "$ns" tc qdisc del dev eth0 root 2>/dev/null || true
  ip -n "$ns" link set eth0 up
  ;;
status)
  sinfo || true
  for ns in $(ip netns list | awk '/^lpn[0-9]/{print $1}' | sort); do
    echo "$ns $(ip -n "$ns" -br link show eth0 | awk '{print $2}') qdisc=$(ip netns exec "$ns" tc qdisc show dev eth0 | awk 'NR==1{print $2}')"
  done
  ;;
*) usage ;;
esac
