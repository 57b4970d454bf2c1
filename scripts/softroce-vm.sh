#!/bin/bash
# Soft-RoCE (rdma_rxe) test VM for a host whose kernel has no RDMA (CONFIG_INFINIBAND unset) and no
# usable KVM: QEMU/TCG + Debian 12's own kernel 6.1 (extracted from linux-image-amd64, not installed)
# + a busybox initramfs built from Debian packages + a JDK 25 runtime jlinked from the host's JDK.
# Debian packages only; everything it builds is cached under $W (default ~/.cache/linkproof/softroce-vm).
# The kernel and the .debs are fetched once; the initramfs and the JRE are rebuilt when this script's
# content or the JDK's version (its java -version line) changes. Adapted from a script in the team's
# notes (not in this repository).
#
#   scripts/softroce-vm.sh                 build what is missing, boot, run the built-in verbs smoke test
#   scripts/softroce-vm.sh my-test.sh      same, but run my-test.sh inside the VM (as root, after rxe0 is up)
#   scripts/softroce-vm.sh --build-only    only build the image
#
# Used by conformance-tests' SoftRoceSuite (the verbs suite inside the VM) and by the VM benches (bench/verbs-*.sh, bench/vm-jit-modes.sh).
# Inside the VM: rxe0 on dummy0 (10.11.12.13, GID index 1 = RoCEv2 ::ffff:10.11.12.13),
# $SHARE mounted at /mnt/share (9p, read-write), a jlinked JRE at /opt/jre (PATH has it).
# With NIC=user,model=virtio-net-pci the guest also has eth0 (10.0.2.15) on QEMU's user network, where
# 10.0.2.2 reaches the host's 127.0.0.1 (SoftRoceSuite's agent on the VM's host); by default no NIC.
# The guest script's exit status becomes this script's exit status.
# Env: W (work dir), LINKPROOF_CACHE (W's parent when W is unset; default ~/.cache/linkproof), SHARE,
# JDK (a JDK 25; default the first under /usr/lib/jvm, else $JAVA_HOME if it is one), JRE_MODULES
# (""=no JRE), EXTRA_PKGS (more .debs for the guest, read when the .debs are first fetched), SMP,
# MEM, ACCEL, QEMU_TIMEOUT, KERNEL_PKG, KAPPEND, NIC (qemu -nic)
set -euo pipefail
W=${W:-${LINKPROOF_CACHE:-$HOME/.cache/linkproof}/softroce-vm}; SHARE=${SHARE:-$W/share}
# The guest's runtime is jlinked from a JDK 25; JAVA_HOME may be Maven's older JDK, so it is checked.
if [ -z "${JDK:-}" ]; then . "$(dirname "$(readlink -f "$0")")/lib/jdk25.sh"; JDK=$(find_jdk25 softroce-vm.sh); fi
# The test class path needs java.xml (JUnit's XML reports), java.sql/java.desktop (Jackson, AssertJ types),
# java.instrument and jdk.management (JUnit, AssertJ); nothing graphical is used.
JRE_MODULES=${JRE_MODULES-java.base,java.logging,java.management,java.xml,java.sql,java.desktop,java.instrument,java.naming,jdk.management,jdk.net,jdk.unsupported,jdk.zipfs}
# tsc=reliable: under multi-threaded TCG the guest kernel finds the vCPUs' TSCs "unsynchronized" and falls
# back to the emulated HPET, where every clock_gettime (System.nanoTime, which our timing loops and
# deadlines call) is an MMIO exit: 1.0 us per call measured in this VM, 80 ns on the TSC. TCG's TSC
# comes from one host clock for all vCPUs, so it is in fact synchronized; perftest reads it directly.
SMP=${SMP:-2}; MEM=${MEM:-4096}; KAPPEND=${KAPPEND-mitigations=off tsc=reliable}; QEMU_TIMEOUT=${QEMU_TIMEOUT:-3600}
ACCEL=${ACCEL:-tcg,thread=multi}; NIC=${NIC:-none}
SELF=$(readlink -f "$0")   # before the cd: the stamp below hashes this file
mkdir -p "$W" "$SHARE"; cd "$W"
ts() { echo "[host $(date +%T) +$(( $(date +%s) - T0 ))s] $*"; }; T0=$(date +%s)

# ---- 1. host tools (qemu, busybox, cpio, zstd, kmod for depmod/modprobe --show-depends)
if ! command -v qemu-system-x86_64 >/dev/null || ! [ -x /bin/busybox ] || ! command -v depmod >/dev/null \
   || ! command -v cpio >/dev/null || ! command -v zstd >/dev/null; then
  ts "apt-get install"
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
      qemu-system-x86 busybox-static cpio zstd kmod >/dev/null
fi

# ---- 2. kernel (Debian 12 linux-image, extracted, not installed)
KERNEL_PKG=${KERNEL_PKG:-$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-/{print $2; exit}')}
if [ ! -f kern/.ok ]; then
  ts "download + extract $KERNEL_PKG"
  rm -rf kern debs && mkdir -p kern debs
  (cd debs && apt-get download "$KERNEL_PKG" 2>&1 | grep -v '^W:' | tail -1)
  dpkg-deb -x debs/"$KERNEL_PKG"_*.deb kern
  depmod -b "$W/kern" "$(ls kern/lib/modules)"
  touch kern/.ok
fi
KVER=$(ls kern/lib/modules); VMLINUZ=kern/boot/vmlinuz-$KVER

# ---- 3. user space: rdma-core libs/providers, ibverbs-utils, perftest, iproute2 (rdma tool), kmod
PKGS="libibverbs1 ibverbs-providers ibverbs-utils perftest librdmacm1 rdmacm-utils libibumad3
 libnl-3-200 libnl-route-3-200 libpci3 libudev1 iproute2 libbpf1 libelf1 libmnl0 libcap2 libdb5.3
 libxtables12 libbsd0 libmd0 libtirpc3 libgssapi-krb5-2 libkrb5-3 libk5crypto3 libkrb5support0
 libkeyutils1 libcom-err2 libssl3 libselinux1 libpcre2-8-0 zlib1g libzstd1 liblzma5 libc6
 libgcc-s1 libcap-ng0 libaudit1 kmod libkmod2 libcrypt1
 libfabric1 libfabric-bin libatomic1 libpsm-infinipath1 libpsm2-2 libuuid1 libnuma1 ${EXTRA_PKGS:-}"
# Fetched again when the list changes (udebs/.ok holds the list they were fetched for).
if [ "$(cat udebs/.ok 2>/dev/null)" != "$(echo $PKGS)" ]; then
  ts "download user-space debs"
  rm -rf udebs && mkdir udebs && (cd udebs && apt-get download $PKGS 2>&1 | grep -v '^W:' | tail -1)
  echo $PKGS > udebs/.ok
  rm -f initrd.img initrd-full.img
fi

# What steps 4 and 5 build depends on this script and the JDK: rebuild when either changed, judged
# by content (a fresh clone gives the script a new mtime, which must not cost a rebuild).
STAMP="$(sha256sum "$SELF" | cut -c1-16) $("$JDK/bin/java" -version 2>&1 | head -n 1)"
if [ "$(cat .stamp 2>/dev/null)" != "$STAMP" ]; then rm -f initrd.img jre.cpio.zst initrd-full.img; fi

# ---- 4. initramfs
if [ ! -f initrd.img ]; then
  ts "build initramfs"
  R=initrd-root; rm -rf $R && mkdir -p $R/bin
  for d in udebs/*.deb; do dpkg-deb -x "$d" $R; done
  rm -rf $R/usr/share/{doc,man,locale,info,lintian,bug}
  # libfabric's psm provider links libpsm_infinipath.so.1, an alternatives link its package's
  # postinst makes (update-alternatives); unpacked .debs run no postinst.
  ln -sf /usr/lib/libpsm1/libpsm_infinipath.so.1.16 $R/usr/lib/x86_64-linux-gnu/libpsm_infinipath.so.1
  cp /bin/busybox $R/bin/busybox
  MODS="crc32_generic crc32-pclmul rdma_rxe ib_uverbs ib_umad rdma_ucm virtio_pci 9pnet_virtio 9p dummy virtio_net"
  for m in $(modprobe -d "$W/kern" -S "$KVER" --show-depends -a $MODS | awk '/^insmod/{print $2}' | sed "s|^$W/kern/||" | sort -u); do
    mkdir -p "$R/$(dirname "$m")"; cp "kern/$m" "$R/$m"; done
  cp kern/lib/modules/$KVER/modules.{order,builtin,builtin.modinfo} $R/lib/modules/$KVER/
  depmod -b "$W/$R" "$KVER"
  cat > $R/init <<'EOF'
#!/bin/busybox sh
/bin/busybox mkdir -p /bbin && /bin/busybox --install -s /bbin
export PATH=/opt/jre/bin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/bbin HOME=/root
mkdir -p /proc /sys /dev /tmp /run /root /mnt/share
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
mkdir -p /dev/pts /dev/shm; mount -t devpts devpts /dev/pts; mount -t tmpfs tmpfs /dev/shm; mount -t tmpfs tmpfs /tmp
up() { cut -d' ' -f1 /proc/uptime; }
echo "[vm $(up)s] init"
ip link set lo up
# A name the guest resolves without DNS: librdmacm's rdma_getaddrinfo (libfabric's verbs provider
# asks it for its own name's address) failed with EAGAIN (EAI_AGAIN) when only DNS could answer.
hostname softroce; mkdir -p /etc
printf '127.0.0.1 localhost\n10.11.12.13 softroce\n' > /etc/hosts; echo 'hosts: files dns' > /etc/nsswitch.conf
modprobe -a crc32_generic crc32-pclmul virtio_pci 9pnet_virtio 9p dummy rdma_rxe rdma_ucm ib_umad virtio_net
mount -t 9p -o trans=virtio,version=9p2000.L,msize=1048576,cache=none share /mnt/share || echo "[vm] no 9p share"
# RoCEv2 device on a dummy netdev: no QEMU NIC needed, same-host traffic is looped back inside rxe
ip link show dummy0 >/dev/null 2>&1 || ip link add dummy0 type dummy
ip addr add 10.11.12.13/24 dev dummy0; ip link set dummy0 up
ulimit -l unlimited
# libfabric's verbs;ofi_rxm sizes its verbs completion queue by the universe size: at the default
# 256 that is more than rxe's max_cqe (32767) and fi_enable fails (EINVAL); at 64 it fits.
export FI_UNIVERSE_SIZE=64
rdma link add rxe0 type rxe netdev dummy0 && echo "[vm $(up)s] rxe0 up" || { echo "[vm] rdma link add FAILED"; dmesg | tail; }
# QEMU's user network (NIC=user,...): fixed addresses, no DHCP client needed; rxe stays on dummy0 only
if ip link show eth0 >/dev/null 2>&1; then
  ip addr add 10.0.2.15/24 dev eth0; ip link set eth0 up; ip route add default via 10.0.2.2
  echo "[vm $(up)s] eth0 up (10.0.2.15, host 10.0.2.2)"
fi
G=$(sed -n 's/.*guest=\([^ ]*\).*/\1/p' /proc/cmdline)
if [ -n "$G" ] && [ -f "/mnt/share/$G" ]; then cd /mnt/share; sh "/mnt/share/$G"; rc=$?
else echo "[vm] no guest script, shell:"; setsid cttyhack sh; rc=$?; fi
echo "$rc" > /mnt/share/.guest.rc; sync
echo "[vm $(up)s] guest script rc=$rc, poweroff"; poweroff -f
EOF
  chmod 755 $R/init
  (cd $R && find . | cpio -o -H newc --quiet | zstd -q -1 -T0 -f -o ../initrd.img)
  rm -f initrd-full.img
fi

# ---- 5. optional JRE (jlink from the host JDK, with its own CDS archive), appended as 2nd cpio
# Rebuilt when its module list changes (jre.modules beside it): a cached JRE without a module the
# product came to use (jdk.net, say) would fail in the guest only.
if [ -f jre.cpio.zst ] && [ "$(cat jre.modules 2>/dev/null)" != "$JRE_MODULES" ]; then
  rm -f jre.cpio.zst initrd-full.img
fi
if [ -n "$JRE_MODULES" ] && [ -x "$JDK/bin/jlink" ] && [ ! -f jre.cpio.zst ]; then
  ts "jlink JRE ($JRE_MODULES)"
  rm -rf jre-root && mkdir -p jre-root/opt
  "$JDK/bin/jlink" --add-modules "$JRE_MODULES" --strip-debug --no-header-files --no-man-pages \
      --generate-cds-archive --output jre-root/opt/jre >/dev/null
  (cd jre-root && find . | cpio -o -H newc --quiet | zstd -q -1 -T0 -f -o ../jre.cpio.zst)
  echo "$JRE_MODULES" > jre.modules
  rm -f initrd-full.img
fi
if [ -n "$JRE_MODULES" ] && [ -f jre.cpio.zst ]; then
  [ -f initrd-full.img ] || cat initrd.img jre.cpio.zst > initrd-full.img; INITRD=initrd-full.img
else INITRD=initrd.img; fi
echo "$STAMP" > .stamp
[ "${1:-}" = "--build-only" ] && { ts "built $INITRD"; exit 0; }

# ---- 6. guest script
GS=${1:-}
if [ -z "$GS" ]; then
  GS=$W/smoke.sh
  cat > "$GS" <<'EOF'
up() { cut -d' ' -f1 /proc/uptime; }
set -e
rdma link; ibv_devices; ibv_devinfo -d rxe0
cat /sys/class/infiniband/rxe0/ports/1/gids/1
echo "== ibv_rc_pingpong @$(up)"
ibv_rc_pingpong -d rxe0 -g 1 -n 500 >/tmp/pp.srv 2>&1 & sleep 1
ibv_rc_pingpong -d rxe0 -g 1 -n 500 127.0.0.1; wait; cat /tmp/pp.srv
for t in ib_write_bw ib_read_bw ib_write_lat; do
  echo "== $t @$(up)"; $t -d rxe0 -x 1 -F >/tmp/$t.srv 2>&1 & sleep 1
  $t -d rxe0 -x 1 -F 127.0.0.1 | grep -A2 '#bytes'; wait
done
if command -v java >/dev/null; then echo "== java @$(up)"; java -XX:TieredStopAtLevel=1 -version; fi
echo "== smoke OK @$(up)"
EOF
fi
cp "$GS" "$SHARE/.guest.sh"; rm -f "$SHARE/.guest.rc"

ts "boot VM (TCG, $SMP vCPU, ${MEM}M, $INITRD)"
timeout "$QEMU_TIMEOUT" qemu-system-x86_64 -accel "$ACCEL" -cpu max -smp "$SMP" -m "$MEM" \
  -nographic -no-reboot -nic "$NIC" -kernel "$VMLINUZ" -initrd "$INITRD" \
  -append "console=ttyS0 quiet panic=-1 $KAPPEND guest=.guest.sh" \
  -virtfs local,path="$SHARE",mount_tag=share,security_model=none,id=share \
  </dev/null 2>&1 | sed -u -e 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1bc//g; s/\r//g' | grep -a --line-buffered -v -E '^\s*$|SeaBIOS|Booting from ROM|iPXE|Press Ctrl-B'
rc=$(cat "$SHARE/.guest.rc" 2>/dev/null || echo 125)
ts "VM finished, guest rc=$rc"; exit "$rc"
