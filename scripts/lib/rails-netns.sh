#!/usr/bin/env bash
# Rails on one machine: two network namespaces, an initiator's and a target's, joined by N veth
# pairs, each pair its own /24, so the kernel carries rail k's bytes over veth k and nothing else —
# N real links for a point that runs N rails at once (tcp: tcp.address / tcp.source per rail).
# Rail k (from 0) is ${LP_RAILS_NET}.k.1 on link lpri<k> (initiator namespace) <-> ${LP_RAILS_NET}.k.2
# on link lprt<k> (target namespace). Run processes in a namespace with `ip netns exec NS CMD`.
# A rail's link is slowed with tc's tbf on its initiator end: what the initiator sends (a WRITE's
# data) is held to RATE, a slow rail. (netem is not in this host kernel; tbf is.)
#
#   rails-netns.sh up N               create, or reshape to, N rails (1..64); idempotent
#   rails-netns.sh down               delete both namespaces and their links; nothing if absent
#   rails-netns.sh throttle K RATE    tbf at RATE (tc units: 50mbit, 1gbit) on rail K's initiator end
#   rails-netns.sh unthrottle K       remove it; nothing if there is none
#   rails-netns.sh stats              one line per rail: rail=K link=lpriK tx_bytes=N rx_bytes=N qdisc=tbf|none
#                                     (the initiator end's counters: tx is what the initiator sent on it)
#
# Environment:
#   LP_RAILS_NS     name prefix: namespaces ${LP_RAILS_NS}-i and ${LP_RAILS_NS}-t (default lp-rail);
#                   tests use their own, so runs in other worktrees do not share namespaces
#   LP_RAILS_NET    first two octets of the rails' addresses (default 10.77). The addresses exist only
#                   inside these namespaces, so they clash with nothing in the root namespace (the
#                   Slurm harness's 10.77.0.0/24 bridge included).
#   LP_RAILS_BURST  tbf bucket size (default 64kb, as notes/slurm-netns.md used; raise it for rates
#                   of several gbit)
# Needs root and iproute2 (ip, tc). Exit 2: usage; 1: a command failed, its message on stderr.
set -euo pipefail

PREFIX=${LP_RAILS_NS:-lp-rail}
NET=${LP_RAILS_NET:-10.77}
BURST=${LP_RAILS_BURST:-64kb}
NS_I="$PREFIX-i"
NS_T="$PREFIX-t"
MAX_RAILS=64

usage() {
  echo "usage: rails-netns.sh up N | down | throttle RAIL RATE | unthrottle RAIL | stats" >&2
  exit 2
}

die() {
  echo "rails-netns.sh: $*" >&2
  exit 1
}

# (Not `ip netns list | grep -q`: under pipefail, grep leaving early can fail the pipe.)
ns_exists() {
  [ -e "/run/netns/$1" ]
}

# Whether rail K's initiator end has a tbf at its root.
throttled() {
  [[ "$(tc -n "$NS_I" qdisc show dev "lpri$1" root)" == "qdisc tbf "* ]]
}

# The rails that exist now, by index, ascending (from the initiator ends' names).
rails() {
  ns_exists "$NS_I" || return 0
  ip -o -n "$NS_I" link show | sed -n 's/^[0-9]*: lpri\([0-9]*\)[@:].*/\1/p' | sort -n
}

require_rail() {
  [[ "$1" =~ ^[0-9]+$ ]] || die "rail '$1' is not a rail number"
  ns_exists "$NS_I" && ip -n "$NS_I" link show "lpri$1" >/dev/null 2>&1 \
    || die "no rail $1 (rails now: $(rails | tr '\n' ' ')); run: rails-netns.sh up N"
}

# One rail's link, created whole in the two namespaces (never in the root namespace, where a
# concurrent run could hold the same interface name), addressed and up. Safe to repeat.
rail_up() {
  local k=$1
  if ! ip -n "$NS_I" link show "lpri$k" >/dev/null 2>&1; then
    ip link add "lpri$k" netns "$NS_I" type veth peer name "lprt$k" netns "$NS_T"
  fi
  ip -n "$NS_I" addr replace "$NET.$k.1/24" dev "lpri$k"
  ip -n "$NS_T" addr replace "$NET.$k.2/24" dev "lprt$k"
  ip -n "$NS_I" link set "lpri$k" up
  ip -n "$NS_T" link set "lprt$k" up
}

up() {
  local n=$1 ns k
  [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] && [ "$n" -le "$MAX_RAILS" ] || die "up $n: N must be 1..$MAX_RAILS"
  for ns in "$NS_I" "$NS_T"; do
    ns_exists "$ns" || ip netns add "$ns"
    ip -n "$ns" link set lo up
  done
  for ((k = 0; k < n; k++)); do
    rail_up "$k"
  done
  # Rails beyond N from an earlier `up`: deleting one end deletes the pair.
  for k in $(rails); do
    [ "$k" -lt "$n" ] || ip -n "$NS_I" link del "lpri$k"
  done
}

down() {
  local ns
  for ns in "$NS_I" "$NS_T"; do
    if ns_exists "$ns"; then
      ip netns del "$ns"
    fi
  done
}

throttle() {
  local k=$1 rate=$2
  require_rail "$k"
  # replace: a second throttle changes the rate instead of failing on the first one's qdisc.
  tc -n "$NS_I" qdisc replace dev "lpri$k" root tbf rate "$rate" burst "$BURST" latency 50ms \
    || die "throttle $k $rate: tc refused it (is '$rate' a tc rate such as 50mbit?)"
}

unthrottle() {
  local k=$1
  require_rail "$k"
  if throttled "$k"; then
    tc -n "$NS_I" qdisc del dev "lpri$k" root
  fi
}

stats() {
  local k tx rx q
  for k in $(rails); do
    # ip netns exec mounts the namespace's own /sys: its links' counters.
    tx=$(ip netns exec "$NS_I" cat "/sys/class/net/lpri$k/statistics/tx_bytes")
    rx=$(ip netns exec "$NS_I" cat "/sys/class/net/lpri$k/statistics/rx_bytes")
    q=none
    if command -v tc >/dev/null && throttled "$k"; then q=tbf; fi
    echo "rail=$k link=lpri$k tx_bytes=$tx rx_bytes=$rx qdisc=$q"
  done
}

[ "$(id -u)" = 0 ] || die "needs root (network namespaces, veth, tc)"
command -v ip >/dev/null || die "needs iproute2's ip"
case "${1:-}" in
up) [ $# -eq 2 ] || usage; up "$2" ;;
down) [ $# -eq 1 ] || usage; down ;;
throttle) [ $# -eq 3 ] || usage; command -v tc >/dev/null || die "needs iproute2's tc"; throttle "$2" "$3" ;;
unthrottle) [ $# -eq 2 ] || usage; command -v tc >/dev/null || die "needs iproute2's tc"; unthrottle "$2" ;;
stats) [ $# -eq 1 ] || usage; stats ;;
*) usage ;;
esac
