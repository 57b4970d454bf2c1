#!/usr/bin/env bash
# Linkproof's prerequisite check: what a run needs on this machine, what is missing, and the
# package that brings it for this system. Run by the main job (scripts/setup.sh, from
# scripts/conformance.sh and scripts/agent.sh) and shipped in the release bundle as
# libexec/prereq.sh, run by `bin/linkproof check [--gpu] [--install]`.
#
#   prereq.sh [--gpu] [--install | --no-install] [--bundle]
#     --gpu         GPU points are wanted: a GPU runtime (NVIDIA's libcuda.so.1 or ROCm's
#                   libamdhip64) is required
#     --install     install what is missing and may be installed, through sudo when not root
#                   (also LINKPROOF_INSTALL=1); as root it installs without being asked
#     --no-install  only check, even as root
#     --bundle      running from the release bundle (also LINKPROOF_BUNDLE=1, or found by itself
#                   when ../runtime/bin/java and ../bin/linkproof are beside it): the bundle has its
#                   own Java runtime, so no JDK and no Maven are needed
#
# What it checks, and how each outcome counts:
#   JDK 25 or later (source checkout only; scripts/lib/jdk25.sh's search, with javac)  error if missing
#   Maven, `mvn` on the PATH (source checkout only)                                    error if missing
#   libibverbs.so.1 and at least one provider (/etc/libibverbs.d/*.driver, or
#     libibverbs/lib*-rdmav*.so beside the library)                                  warning: verbs points skip
#   UCX, libucp.so.0                                                                  warning: ucx points skip
#     and, where there is verbs, its RDMA transport ucx/libuct_ib.so.0 beside it     warning: ucx without RDMA
#   libfabric, libfabric.so.1 (the API of AWS EFA and of Ultra Ethernet NICs)         warning: libfabric points skip
#   with --gpu: libcuda.so.1 (NVIDIA's driver) or libamdhip64.so (ROCm)               error if missing
#   RDMA devices under /sys/class/infiniband                                          a note only
# tcp needs nothing, so a machine with warnings only is ready (exit 0); exit 1 when something
# required is missing, 2 on a usage error.
#
# Libraries are looked for the way the dynamic loader finds them, without dpkg or rpm: in
# LD_LIBRARY_PATH, ldconfig's cache (ldconfig -p), the directories of /etc/ld.so.conf.d and the
# default ones. A MOFED or DOCA-OFED install (ofed_info -s, /usr/bin/ofed_info, /opt/mellanox/doca)
# provides verbs, its providers and UCX: with it nothing is installed over it (no distribution
# rdma-core, libibverbs or UCX), and what it lacks is named as MOFED's. HPC-X ($HPCX_UCX_DIR,
# $HPCX_DIR, /opt/hpcx*) provides UCX (not verbs: it runs on the system's or MOFED's): its
# ucx/lib/libucp.so.0 counts, with how to put it on the loader's path when it is not there. AWS's EFA
# installer provides libfabric in /opt/amazon/efa/lib (or lib64), outside the loader's path: it counts
# the same way. MOFED/DOCA-OFED ship no libfabric, but the distribution's links the distribution's
# libibverbs, so none is installed over MOFED either.
#
# Installing: only when root or --install, never with --no-install, with apt-get (Debian, Ubuntu)
# or dnf (RHEL, Rocky, Alma, Fedora; yum where there is no dnf), and only these packages:
#   Debian/Ubuntu: maven, libibverbs1, ibverbs-providers, libucx0, libfabric1
#   RHEL/Rocky:    maven, rdma-core, libibverbs, ucx, ucx-ib (UCX's RDMA transports, which Debian's
#                  libucx0 has in it: its libuct_ib.so.0 beside libucp is checked), libfabric
# Never a JDK (Debian 12 has no JDK 25 package; Temurin's comes from Adoptium's repository), never a
# GPU runtime (the vendor's), never a scheduler, a browser or a test tool, never over MOFED/DOCA.
#
# For tests, every file path probed is read under $LINKPROOF_PREREQ_ROOT (default none), and the
# commands it asks (id, ldconfig, ofed_info, mvn, sudo, apt-get, dnf, yum) are found on the PATH,
# so a test can simulate a system with stubs. It needs nothing else than bash: no coreutils.
set -uo pipefail
shopt -s nullglob extglob

R=${LINKPROOF_PREREQ_ROOT:-}
HERE=${BASH_SOURCE[0]%/*}
[ "$HERE" = "${BASH_SOURCE[0]}" ] && HERE=.

usage() {
  echo "usage: prereq.sh [--gpu] [--install | --no-install] [--bundle]"
}
truthy() { [[ ${1:-} == @(1|true|yes) ]]; }

gpu=0 install=0 noinstall=0 bundle=0
truthy "${LINKPROOF_INSTALL:-}" && install=1
truthy "${LINKPROOF_BUNDLE:-}" && bundle=1
for a in "$@"; do
  case $a in
    --gpu) gpu=1 ;;
    --install) install=1 ;;
    --no-install) noinstall=1 ;;
    --bundle) bundle=1 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
if ((!bundle)) && [ -x "$HERE/../runtime/bin/java" ] && [ -e "$HERE/../bin/linkproof" ]; then bundle=1; fi

say() { printf 'prereq: %s\n' "$*"; }

# ---- the system: distribution family, package manager, MOFED/DOCA-OFED, HPC-X
os_id= os_like= os_name=
if [ -r "$R/etc/os-release" ]; then
  while IFS='=' read -r k v; do
    v=${v#\"}; v=${v%\"}
    case $k in ID) os_id=$v ;; ID_LIKE) os_like=$v ;; PRETTY_NAME) os_name=$v ;; esac
  done < "$R/etc/os-release"
fi
family=unknown
case " $os_id $os_like " in
  *" debian "*|*" ubuntu "*) family=debian ;;
  *" rhel "*|*" fedora "*|*" centos "*|*" rocky "*|*" almalinux "*) family=rhel ;;
  *) if command -v apt-get >/dev/null; then family=debian
     elif command -v dnf >/dev/null || command -v yum >/dev/null; then family=rhel; fi ;;
esac
pm=
case $family in
  debian) command -v apt-get >/dev/null && pm=apt-get ;;
  rhel) if command -v dnf >/dev/null; then pm=dnf; elif command -v yum >/dev/null; then pm=yum; fi ;;
esac

mofed=
if command -v ofed_info >/dev/null; then
  mofed=$(ofed_info -s 2>/dev/null)
elif [ -x "$R/usr/bin/ofed_info" ]; then
  mofed=$("$R/usr/bin/ofed_info" -s 2>/dev/null)
fi
mofed=${mofed%%$'\n'*}; mofed=${mofed%:}
if [ -z "$mofed" ] && { [ -e "$R/usr/bin/ofed_info" ] || command -v ofed_info >/dev/null; }; then mofed="MOFED (ofed_info)"; fi
if [ -z "$mofed" ] && [ -d "$R/opt/mellanox/doca" ]; then mofed="DOCA-OFED (/opt/mellanox/doca)"; fi

hpcx=() # HPC-X's UCX library directories, as the system sees them
[ -n "${HPCX_UCX_DIR:-}" ] && [ -d "$R$HPCX_UCX_DIR" ] && hpcx+=("$HPCX_UCX_DIR/lib")
[ -n "${HPCX_DIR:-}" ] && [ -d "$R$HPCX_DIR" ] && hpcx+=("$HPCX_DIR/ucx/lib")
for d in "$R"/opt/hpcx "$R"/opt/hpcx-*; do [ -d "$d" ] && hpcx+=("${d#"$R"}/ucx/lib"); done

# ---- where the dynamic loader looks
case ${HOSTTYPE:-} in
  x86_64) multiarch=x86_64-linux-gnu ;;
  aarch64) multiarch=aarch64-linux-gnu ;;
  powerpc64le|ppc64le) multiarch=powerpc64le-linux-gnu ;;
  *) multiarch=${HOSTTYPE:-x86_64}-linux-gnu ;;
esac
llp=()
IFS=: read -ra llp <<< "${LD_LIBRARY_PATH:-}"
sysdirs=()
for f in "$R"/etc/ld.so.conf.d/*.conf; do
  while read -r line; do
    [[ $line == /* ]] && sysdirs+=("$line")
  done < "$f"
done
sysdirs+=(/lib64 /usr/lib64 "/lib/$multiarch" "/usr/lib/$multiarch" /lib /usr/lib)
ldcache=
ldc=$(command -v ldconfig) || ldc=
if [ -z "$ldc" ]; then
  for c in "$R/sbin/ldconfig" "$R/usr/sbin/ldconfig"; do [ -x "$c" ] && { ldc=$c; break; }; done
fi
[ -n "$ldc" ] && ldcache=$("$ldc" -p 2>/dev/null)

# find_lib NAME: sets found (the path) and found_where, when the loader would find NAME.
find_lib() {
  local d line
  found= found_where=
  for d in "${llp[@]}"; do
    [ -n "$d" ] && [ -e "$R$d/$1" ] && { found=$d/$1; found_where="LD_LIBRARY_PATH"; return 0; }
  done
  while IFS= read -r line; do
    line=${line##+([[:space:]])}
    if [[ $line == "$1 ("*"=> "* ]]; then found=${line##*=> }; found_where="ldconfig's cache"; return 0; fi
  done <<< "$ldcache"
  for d in "${sysdirs[@]}"; do
    [ -e "$R$d/$1" ] && { found=$d/$1; found_where="$d"; return 0; }
  done
  return 1
}
# find_in NAME DIR...: sets found to the first DIR/NAME there is.
find_in() {
  local n=$1 d
  shift
  found=
  for d in "$@"; do [ -e "$R$d/$n" ] && { found=$d/$n; return 0; }; done
  return 1
}
join() { # SEPARATOR WORD...
  local sep=$1 out=${2:-} w
  shift 2 || return 0
  for w in "$@"; do out+=$sep$w; done
  echo "$out"
}

# The package names, for this family (both where it is not known).
hint() { # DEBIAN_PACKAGES RHEL_PACKAGES
  case $family in
    debian) echo "apt-get install $1" ;;
    rhel) echo "dnf install $2" ;;
    *) echo "apt-get install $1 (Debian, Ubuntu) or dnf install $2 (RHEL, Rocky)" ;;
  esac
}
pkgs() { # DEBIAN_PACKAGES RHEL_PACKAGES: queue them for installing
  case $family in
    debian) queue+=($1) ;;
    rhel) queue+=($2) ;;
  esac
}

# ---- the checks; probe fills lines, errors, warnings and queue
probe() {
  lines=() errors=0 warnings=0 queue=()
  ok() { lines+=("ok: $*"); }
  note() { lines+=("note: $*"); }
  warn() { lines+=("warning: $*"); warnings=$((warnings + 1)); }
  err() { lines+=("error: $*"); errors=$((errors + 1)); }
  local skipped="points skip with their reason; tcp still runs"

  if ((bundle)); then
    ok "Java: the bundle's own runtime (no JDK or Maven needed)"
  else
    local jdk major
    if ! . "$HERE/jdk25.sh" 2>/dev/null; then
      err "$HERE/jdk25.sh is missing: run prereq.sh from scripts/lib of a checkout, or with --bundle from the bundle"
    elif jdk=$(find_jdk25 prereq 2>/dev/null); then
      major=$(jdk_major "$jdk/bin/java")
      if [ -x "$jdk/bin/javac" ]; then
        ok "JDK $major at ${jdk#"$R"}"
      else
        err "JDK: ${jdk#"$R"} has java $major but no javac (a runtime, not a JDK); install a JDK 25 or later: $(jdk_hint)"
      fi
    else
      err "JDK: no JDK 25 or later under /usr/lib/jvm, and JAVA_HOME (${JAVA_HOME:-unset}) is not one; install one: $(jdk_hint); or point JAVA_HOME at one"
    fi
    if command -v mvn >/dev/null; then
      local v
      v=$(mvn -B -v 2>/dev/null) || v=
      v=${v%%$'\n'*}; v=${v//$'\e'\[*([0-9;])m/}
      ok "Maven: ${v:-$(command -v mvn)}"
    else
      err "Maven: mvn is not on the PATH; install it: $(hint maven maven)"
      pkgs maven maven
    fi
  fi

  local verbs=0 of=${mofed:+ (from $mofed)}
  if find_lib libibverbs.so.1; then
    verbs=1
    ok "libibverbs: $found ($found_where)$of"
  elif [ -n "$mofed" ]; then
    warn "libibverbs: libibverbs.so.1 is not found although $mofed is installed; nothing is installed over MOFED/DOCA: check its installation (ofed_info, ldconfig); verbs $skipped"
  else
    warn "libibverbs: libibverbs.so.1 is not found; verbs $skipped; install it: $(hint 'libibverbs1 ibverbs-providers' 'rdma-core libibverbs')"
    pkgs 'libibverbs1 ibverbs-providers' 'rdma-core libibverbs'
  fi
  local providers=() f n d
  for f in "$R"/etc/libibverbs.d/*.driver; do n=${f##*/}; providers+=("${n%.driver}"); done
  if ((${#providers[@]} == 0)); then
    local dirs=("${sysdirs[@]}")
    [ -n "$found" ] && ((verbs)) && dirs=("${found%/*}" "${dirs[@]}")
    for d in "${llp[@]}" "${dirs[@]}"; do
      for f in "$R$d"/libibverbs/lib*-rdmav*.so; do n=${f##*/lib}; providers+=("${n%%-rdmav*}"); done
      ((${#providers[@]})) && break
    done
  fi
  if ((${#providers[@]})); then
    ok "verbs providers: $(join ' ' "${providers[@]}")"
  elif [ -n "$mofed" ]; then
    warn "verbs providers: none (no /etc/libibverbs.d/*.driver, no libibverbs/*-rdmav*.so) although $mofed is installed; nothing is installed over MOFED/DOCA: check its installation; verbs $skipped"
  elif ((verbs)); then
    warn "verbs providers: none (no /etc/libibverbs.d/*.driver, no libibverbs/*-rdmav*.so): libibverbs finds no device without one; verbs $skipped; install them: $(hint ibverbs-providers libibverbs)"
    pkgs ibverbs-providers libibverbs
  fi
  local devs=()
  for d in "$R"/sys/class/infiniband/*; do devs+=("${d##*/}"); done
  if ((${#devs[@]})); then ok "RDMA devices: $(join ' ' "${devs[@]}")"; else note "no RDMA device (/sys/class/infiniband is empty or absent): verbs points will skip"; fi

  local ucp=
  if find_lib libucp.so.0; then
    ucp=$found
    ok "UCX: $found ($found_where)$of"
  elif ((${#hpcx[@]})) && find_in libucp.so.0 "${hpcx[@]}"; then
    local top=${found%/ucx/lib/libucp.so.0}
    [ "$top" = "$found" ] && top=${found%/lib/libucp.so.0}
    ucp=$found
    ok "UCX: HPC-X's $found, which the dynamic loader does not search: before a run, source $top/hpcx-init.sh and run hpcx_load, or add ${found%/*} to LD_LIBRARY_PATH (or -Dlinkproof.ucx.library=$found)"
  elif [ -n "$mofed" ]; then
    warn "UCX: libucp.so.0 is not found; $mofed is installed, so no distribution UCX is installed over it: install MOFED's ucx package, or HPC-X; ucx $skipped"
  else
    local nor=
    ((${#hpcx[@]})) && nor=" (nor in HPC-X: ${hpcx[*]})"
    warn "UCX: libucp.so.0 is not found$nor; ucx $skipped; install it: $(hint libucx0 'ucx ucx-ib')"
    pkgs libucx0 'ucx ucx-ib'
  fi
  # UCX's RDMA transports are a module beside libucp (RHEL packages it apart, as ucx-ib): without it
  # the ucx points run over tcp and shared memory only, even on an RDMA NIC.
  if [ -n "$ucp" ] && { ((verbs)) || [ -n "$mofed" ]; } && [ ! -e "$R${ucp%/*}/ucx/libuct_ib.so.0" ]; then
    if [ -n "$mofed" ]; then
      warn "UCX: no RDMA transport beside $ucp (${ucp%/*}/ucx/libuct_ib.so.0): the ucx points cannot use RDMA; install MOFED's ucx-ib"
    else
      warn "UCX: no RDMA transport beside $ucp (${ucp%/*}/ucx/libuct_ib.so.0): the ucx points cannot use RDMA; install it: $(hint libucx0 ucx-ib)"
      pkgs '' ucx-ib
    fi
  fi

  # libfabric: the libfabric transport's library, with its providers built in (shm, tcp, verbs, efa ...).
  local efa=()
  for d in "$R"/opt/amazon/efa/lib "$R"/opt/amazon/efa/lib64; do [ -d "$d" ] && efa+=("${d#"$R"}"); done
  if find_lib libfabric.so.1; then
    ok "libfabric: $found ($found_where)"
  elif ((${#efa[@]})) && find_in libfabric.so.1 "${efa[@]}"; then
    ok "libfabric: AWS EFA's $found, which the dynamic loader does not search: add ${found%/*} to LD_LIBRARY_PATH (or -Dlinkproof.libfabric.library=$found)"
  elif [ -n "$mofed" ]; then
    warn "libfabric: libfabric.so.1 is not found; $mofed is installed, so no distribution libfabric (which links the distribution's libibverbs) is installed over it: install your vendor's (AWS EFA's installer, your NIC vendor's); libfabric $skipped"
  else
    warn "libfabric: libfabric.so.1 is not found; libfabric $skipped; install it: $(hint libfabric1 libfabric)"
    pkgs libfabric1 libfabric
  fi

  if ((gpu)); then
    local cuda= hip= cudart= n
    find_lib libcuda.so.1 && cuda=$found
    for n in libamdhip64.so libamdhip64.so.6 libamdhip64.so.5; do
      if find_lib "$n" || find_in "$n" /opt/rocm/lib /opt/rocm/lib64; then hip=$found; break; fi
    done
    if [ -n "$cuda" ]; then ok "GPU runtime: NVIDIA's $cuda"; fi
    if [ -n "$hip" ]; then ok "GPU runtime: ROCm's $hip"; fi
    if [ -n "$cuda$hip" ] && [ ! -e "$R/dev/nvidiactl" ] && [ ! -e "$R/dev/kfd" ]; then
      note "no GPU device (/dev/nvidiactl, /dev/kfd): the GPU points will skip"
    fi
    if [ -z "$cuda$hip" ]; then
      local which=""
      for n in libcudart.so libcudart.so.12 libcudart.so.13 libcudart.so.11.0; do
        if find_lib "$n" || find_in "$n" /usr/local/cuda/lib64; then cudart=$found; break; fi
      done
      [ -e "$R/dev/nvidiactl" ] && which+=" (an NVIDIA GPU is here: /dev/nvidiactl)"
      [ -e "$R/dev/kfd" ] && which+=" (an AMD GPU is here: /dev/kfd)"
      [ -n "$cudart" ] && which+="; $cudart is the CUDA toolkit's runtime, but Linkproof binds the driver's libcuda.so.1"
      err "GPU runtime (--gpu): neither NVIDIA's libcuda.so.1 nor ROCm's libamdhip64.so is found${which}; install the vendor's: NVIDIA's driver with its CUDA library (cuda-drivers from NVIDIA's CUDA repository) or ROCm's HIP runtime (hip-runtime-amd from AMD's ROCm repository)"
    fi
  fi
}
jdk_hint() {
  case $family in
    debian) echo "apt-get install temurin-25-jdk (Adoptium's apt repository) or openjdk-25-jdk where the release has it" ;;
    rhel) echo "dnf install java-25-openjdk-devel (or temurin-25-jdk from Adoptium's repository)" ;;
    *) echo "temurin-25-jdk from Adoptium, or openjdk-25-jdk (Debian, Ubuntu) / java-25-openjdk-devel (RHEL, Rocky)" ;;
  esac
}

# ---- probe, install when it may, probe again
probe
installed=
if ((${#queue[@]})); then
  uid=$(id -u 2>/dev/null) || uid=
  sudo=() may=0 why=
  if ((noinstall)); then
    why="--no-install"
  elif [ "$uid" = 0 ]; then
    may=1
  elif ((install)); then
    if command -v sudo >/dev/null; then may=1 sudo=(sudo); else why="--install, but not root and no sudo"; fi
  else
    why="not root; run with --install to install with sudo"
  fi
  if ((may)) && [ -z "$pm" ]; then
    may=0 why="no apt-get or dnf on this ${os_name:-system}"
  fi
  if ((may)); then
    say "installing ${queue[*]} with ${sudo[*]:+sudo }$pm"
    rc=0
    case $pm in
      apt-get)
        if ((${#sudo[@]})); then
          sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq \
            && sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${queue[@]}" >/dev/null || rc=$?
        else
          DEBIAN_FRONTEND=noninteractive apt-get update -qq \
            && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${queue[@]}" >/dev/null || rc=$?
        fi ;;
      *) "${sudo[@]}" "$pm" install -y -q "${queue[@]}" >/dev/null || rc=$? ;;
    esac
    if ((rc)); then say "installing failed ($pm exit status $rc)"; else installed=${queue[*]}; fi
    probe
  else
    say "not installing (${why}): ${queue[*]}"
  fi
fi

say "system: ${os_name:-unknown} (${family}${pm:+, $pm})${mofed:+; $mofed}${hpcx:+; HPC-X}"
for l in "${lines[@]}"; do say "$l"; done
if ((${#queue[@]})) && [ -n "$pm" ]; then
  say "to install what is missing: ${uid:+$([ "$uid" = 0 ] || echo 'sudo ')}$pm install ${queue[*]}"
fi
if ((errors)); then
  say "not ready: $errors error(s), $warnings warning(s)${installed:+; installed: $installed}"
  exit 1
fi
extra=()
[ -n "$installed" ] && extra+=("installed: $installed")
((warnings)) && extra+=("$warnings warning(s)")
say "ready${extra:+ ($(join '; ' "${extra[@]}"))}"
exit 0
