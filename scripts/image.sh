#!/usr/bin/env bash
# Linkproof's container image, built and run on this machine without a registry and without a
# container runtime.
#
#   scripts/image.sh build [--bundle TAR]
#   scripts/image.sh run [--image OCI_TAR] [--entrypoint PATH] [-e KEY=VALUE]... [-v HOST_DIR:DIR]...
#                        [--timeout SECONDS] [-- ARGS...]
#   scripts/image.sh check [--skip-unavailable] [--bundle TAR]
#   scripts/image.sh containerfile [--bundle TAR]
#
# build: the image image/Containerfile describes, made from Debian's packages (no public image
#   registry is reachable here). mmdebstrap builds a minimal bookworm root file system (minbase,
#   docs and man pages left out, as debian:bookworm-slim is made) with exactly the packages of
#   image/packages.txt and the user linkproof (uid 1000); that tar is cached in .cache/image/
#   under a key of packages.txt and this recipe, and made again when either changes or when it is
#   older than LINKPROOF_IMAGE_MAX_AGE_DAYS (default 7: Debian's security updates). buildah makes
#   it the base layer (localhost/linkproof-base:KEY-TIME, kept in buildah's storage), adds the
#   bundle, unpacked, at /opt/linkproof as a second layer, sets the user, working directory,
#   environment, entry point, command and labels the Containerfile sets, commits
#   localhost/linkproof:VERSION and writes the OCI archive target/image/linkproof-VERSION-oci.tar.
#   Nothing is redone when the base, the bundle, the git revision and this script are unchanged.
#   The bundle: --bundle TAR, else distribution/target/linkproof-*-linux-$(uname -m).tar.gz (made
#   by mvn -B -pl distribution -am package -DskipTests); the version is the one in its name.
# run: runs the image's entry point for real. Not with `podman run`: on this machine kind crun
#   cannot set the container's resource limits (crun: setrlimit RLIMIT_NPROC: Operation not
#   permitted, also with --ulimit host). So this does what a runtime does, with util-linux and
#   coreutils:
#     unshare --mount --pid --fork --kill-child timeout DEADLINE image.sh __container ...
#   and there, in the new mount and pid namespaces: a tmpfs for the root, the layers of the OCI
#   archive unpacked on it (index.json, manifest, layers; digests checked, whiteouts applied),
#   /proc of the new pid namespace, a /dev of null, zero, full, random, urandom, tty and shm plus
#   the host's RDMA and GPU device nodes where there are any (/dev/infiniband, /dev/nvidia*,
#   /dev/kfd, /dev/dri: as --device), /sys read-only, a tmpfs /tmp, the host's /etc/hosts,
#   /etc/resolv.conf and /etc/hostname, the -v bind mounts; then the image config's Entrypoint
#   and Cmd (ARGS after -- replace Cmd, --entrypoint replaces Entrypoint) with its Env, User and
#   WorkingDir:
#     chroot --userspec=UID:GID --groups= ROOT env -i -C WORKDIR ENV... ENTRYPOINT CMD...
#   The network is the host's (as --network host, which the fabric needs anyway). Every mount,
#   the root's tmpfs among them, exists only in the container's mount namespace and vanishes with
#   it; timeout is the pid namespace's first process, so when it ends, at the deadline (TERM, KILL
#   10 s later) or when the entry point ends, the kernel ends every other process there; and
#   unshare's --kill-child ends it if unshare is killed. TERM or INT to this script stops the
#   container the same way. Exits with the entry point's status (124 past the deadline, --timeout,
#   default 600 s, the unpacking included). Needs root, as the test command has.
# check: builds (cached) and asserts: the image and image/Containerfile agree (packages, user,
#   working directory, environment, entry point, command, labels), in the Containerfile's text and
#   in the built image's config; the image's packages are installed and it runs as linkproof
#   (1000); `linkproof version` prints the version; `linkproof check` finds libibverbs, its
#   providers and UCX; `linkproof run --select <a tcp class of the suite>` passes and writes
#   Allure results and JUnit XML; a `linkproof agent` in one container answers a `linkproof
#   transfer` initiator in another, and stops on TERM. Exits non-zero with the reason at the first
#   failure; leaves nothing running or mounted. --skip-unavailable (scripts/test.sh's way): without
#   root or without mmdebstrap, buildah or jq, say so and exit 0, as the other tests that need
#   the test infrastructure skip.
# containerfile: builds image/Containerfile itself here (buildah build --isolation chroot: its RUN
#   steps need no container runtime) on a debian:bookworm-slim made the way Debian's is (mmdebstrap
#   minbase, docs left out; cached like the base), and asserts that it is the image `build` makes:
#   the same packages at the same versions, user, files under /opt/linkproof and config. Not part
#   of check: its apt-get downloads the packages again each time.
set -euo pipefail
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
cd "$(dirname "$0")/.."
repo=$PWD

# ---- The image: image/Containerfile says the same (`check` compares them) ----------------------
readonly PACKAGES=image/packages.txt CONTAINERFILE=image/Containerfile
readonly IMAGE=localhost/linkproof
readonly USER_NAME=linkproof USER_UID=1000
readonly IMAGE_USER=1000:1000 IMAGE_WORKDIR=/home/linkproof
readonly IMAGE_ENV=(PATH=/opt/linkproof/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8)
readonly IMAGE_ENTRYPOINT='["/opt/linkproof/bin/linkproof"]' IMAGE_CMD='["run"]'
readonly LABEL_TITLE=linkproof
readonly LABEL_DESCRIPTION="Linkproof: conformance tests of RDMA, UCX, GPU and TCP data transfers; the bundle with rdma-core and UCX"
# The base system: what debian:bookworm-slim is (minbase, docs and man pages left out), from
# Debian's mirror, with the updates and security suites an `apt-get update` there would see.
readonly SUITE=bookworm
readonly MIRROR=${LINKPROOF_IMAGE_MIRROR:-http://deb.debian.org/debian}
readonly SECURITY_MIRROR=${LINKPROOF_IMAGE_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
readonly MMDEBSTRAP_OPTS=(--variant=minbase --mode=root --format=tar
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright'
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*'
  --dpkgopt='path-exclude=/usr/share/groff/*' --dpkgopt='path-exclude=/usr/share/lintian/*'
  --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-include=/usr/share/locale/locale.alias')
# The Containerfile's useradd, as the last step of mmdebstrap.
readonly USER_HOOK="chroot \"\$1\" useradd --uid $USER_UID --user-group --create-home --shell /bin/bash $USER_NAME"
readonly CACHE=.cache/image OUT=target/image
# The suite class `check` runs: RDMA-WRITE semantics over tcp on loopback (the loopback profile),
# 44 points in about 5 s here.
readonly CHECK_SELECT=${LINKPROOF_IMAGE_CHECK_SELECT:-dev.linkproof.conformance.WriteCorrectness}

say() { echo "image: $*"; }
die() { echo "image: $*" >&2; exit 1; }
need() { for t in "$@"; do command -v "$t" >/dev/null || die "needs $t (Debian package: $(pkg_of "$t"))"; done; }
pkg_of() { case $1 in mmdebstrap|buildah|jq) echo "$1" ;; unshare|mount) echo util-linux ;; *) echo coreutils ;; esac; }
# The packages of image/packages.txt, one a line.
packages() { sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e 's/^[[:space:]]*//' "$PACKAGES" | grep -v '^$'; }
revision() { git -C "$repo" rev-parse HEAD 2>/dev/null || echo unknown; }
labels() { # KEY=VALUE lines, for VERSION and REVISION
  printf '%s\n' "org.opencontainers.image.title=$LABEL_TITLE" \
    "org.opencontainers.image.description=$LABEL_DESCRIPTION" \
    "org.opencontainers.image.version=$1" "org.opencontainers.image.revision=$2"
}
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }

# ---- build -------------------------------------------------------------------------------------
find_bundle() {
  local found=()
  shopt -s nullglob
  found=(distribution/target/linkproof-*-linux-"$(uname -m)".tar.gz)
  shopt -u nullglob
  ((${#found[@]})) || die "no bundle: build it (mvn -B -pl distribution -am package -DskipTests) or pass --bundle TAR"
  ((${#found[@]} == 1)) || die "several bundles in distribution/target (${found[*]}): pass --bundle TAR"
  echo "${found[0]}"
}

# A Debian root file system as a cached tar, and its image in buildah's storage: rootfs_layer NAME
# [MMDEBSTRAP_OPTION...] sets rootfs (.cache/image/NAME-KEY.tar) and base (localhost/linkproof-NAME:KEY-TIME).
rootfs_layer() {
  local name=$1 recipe key started
  shift
  recipe=$(printf '%s\n' "$SUITE" "$MIRROR" "$SECURITY_MIRROR" "$(uname -m)" "${MMDEBSTRAP_OPTS[@]}" "$@")
  key=$(sha256sum <<<"$recipe" | cut -c1-16)
  rootfs=$CACHE/$name-$key.tar
  if [ -f "$rootfs" ] && [ -z "$(find "$rootfs" -mtime +"${LINKPROOF_IMAGE_MAX_AGE_DAYS:-7}")" ]; then
    say "$name: cached ($rootfs, $(mb "$(stat -c %s "$rootfs")"))"
  else
    started=$SECONDS
    say "$name: mmdebstrap $SUITE ..."
    rm -f "$rootfs.part"
    mmdebstrap --quiet "${MMDEBSTRAP_OPTS[@]}" "$@" "$SUITE" "$rootfs.part" \
      "deb $MIRROR $SUITE main" "deb $MIRROR $SUITE-updates main" "deb $SECURITY_MIRROR $SUITE-security main" \
      || die "mmdebstrap failed (is $MIRROR reachable? LINKPROOF_IMAGE_MIRROR names another mirror)"
    mv "$rootfs.part" "$rootfs"
    find "$CACHE" -maxdepth 1 -name "$name-*.tar" ! -path "$rootfs" -delete
    say "$name: built in $((SECONDS - started)) s ($(mb "$(stat -c %s "$rootfs")"))"
  fi
  base=localhost/linkproof-$name:$key-$(stat -c %Y "$rootfs")
  if ! buildah inspect --type image "$base" >/dev/null 2>&1; then
    started=$SECONDS
    container=$(buildah from scratch)
    buildah add --quiet "$container" "$rootfs" / >/dev/null
    buildah config --os linux --arch "$(go_arch)" "$container"
    buildah commit --quiet --rm "$container" "$base" >/dev/null
    container=
    say "$name: image $base (committed in $((SECONDS - started)) s)"
  fi
}

# Drops the images of older recipes of localhost/linkproof-NAME but BASE, once nothing uses them.
drop_older() {
  local old
  for old in $(buildah images --noheading --format '{{.Name}}:{{.Tag}}' 2>/dev/null \
      | grep -F "localhost/linkproof-$1:" | grep -vxF "$2"); do
    buildah rmi "$old" >/dev/null 2>&1 || true
  done
}
go_arch() { case $(uname -m) in x86_64) echo amd64 ;; aarch64) echo arm64 ;; ppc64le) echo ppc64le ;; *) uname -m ;; esac; }

cmd_build() {
  local bundle= name version started=$SECONDS
  while (($#)); do
    case $1 in
      --bundle) bundle=${2:?--bundle needs a file}; shift 2 ;;
      *) die "build: unknown argument $1 (usage: scripts/image.sh build [--bundle TAR])" ;;
    esac
  done
  [ "$(id -u)" -eq 0 ] || die "build needs root (mmdebstrap's root mode, buildah's storage)"
  need mmdebstrap buildah jq
  bundle=${bundle:-$(find_bundle)}
  [ -f "$bundle" ] || die "no bundle at $bundle"
  name=$(basename "$bundle")
  [[ $name =~ ^linkproof-(.+)-linux-([^-]+)\.tar\.gz$ ]] || die "$name is not named linkproof-VERSION-linux-ARCH.tar.gz"
  version=${BASH_REMATCH[1]}
  [ "${BASH_REMATCH[2]}" = "$(uname -m)" ] || die "$name is for ${BASH_REMATCH[2]}, this machine is $(uname -m)"
  mkdir -p "$CACHE" "$OUT"
  exec 9>"$CACHE/build.lock"
  flock 9 # one build at a time on this machine

  container= work=
  trap 'build_cleanup' EXIT
  rootfs_layer base --include="$(packages | paste -sd,)" --customize-hook="$USER_HOOK"

  local archive=$OUT/linkproof-$version-oci.tar tag=$IMAGE:$version stamp rev
  built_archive=$archive built_version=$version built_bundle=$bundle
  rev=$(revision)
  stamp=$(printf '%s\n' "$base" "$(sha256sum <"$bundle")" "$(sha256sum <"$self")" "$rev")
  if [ -f "$archive" ] && [ "$(cat "$archive.inputs" 2>/dev/null)" = "$stamp" ] \
      && buildah inspect --type image "$tag" >/dev/null 2>&1; then
    say "up to date: $tag, $archive ($(mb "$(stat -c %s "$archive")")) in $((SECONDS - started)) s"
    build_cleanup
    trap - EXIT
    return 0
  fi

  # The bundle's layer: its one top directory, linkproof-VERSION/, at /opt/linkproof.
  work=$(mktemp -d "$OUT/bundle.XXXXXX")
  tar -xzf "$bundle" -C "$work" --no-same-owner
  [ -x "$work/linkproof-$version/bin/linkproof" ] \
    || die "$name has no linkproof-$version/bin/linkproof: not a Linkproof bundle"
  chmod 0755 "$work/linkproof-$version"

  local old args=() kv
  old=$(buildah inspect --type image --format '{{.FromImageID}}' "$tag" 2>/dev/null || true)
  container=$(buildah from --pull=never --quiet "$base")
  buildah add --quiet --chown 0:0 "$container" "$work/linkproof-$version" /opt/linkproof >/dev/null
  for kv in "${IMAGE_ENV[@]}"; do args+=(--env "$kv"); done
  while IFS= read -r kv; do args+=(--label "$kv"); done < <(labels "$version" "$rev")
  buildah config "${args[@]}" --user "$IMAGE_USER" --workingdir "$IMAGE_WORKDIR" \
    --entrypoint "$IMAGE_ENTRYPOINT" --cmd "$IMAGE_CMD" "$container"
  buildah commit --quiet --rm "$container" "$tag" >/dev/null
  container=
  rm -f "$archive" "$archive.inputs"
  buildah push --quiet "$tag" "oci-archive:$archive.part:$tag"
  mv "$archive.part" "$archive"
  echo "$stamp" >"$archive.inputs"
  # The image this one replaced under the tag, if nothing else names it now.
  if [ -n "$old" ] && [ "$old" != "$(buildah inspect --type image --format '{{.FromImageID}}' "$tag")" ]; then
    buildah rmi "$old" >/dev/null 2>&1 || true
  fi
  drop_older base "$base"
  local layers
  layers=$(tar -xOf "$archive" index.json | jq -r '.manifests[0].digest' | sed 's/:/\//' \
    | xargs -I{} tar -xOf "$archive" blobs/{} | jq -r '[.layers[].size] | map(tostring) | join(" ")')
  say "built $tag in $((SECONDS - started)) s: $archive, $(mb "$(stat -c %s "$archive")")" \
    "(layers: $(for s in $layers; do printf '%s; ' "$(mb "$s")"; done | sed 's/; $//') compressed)"
  build_cleanup
  trap - EXIT
}

build_cleanup() {
  [ -z "${container:-}" ] || buildah rm "$container" >/dev/null 2>&1 || true
  [ -z "${work:-}" ] || rm -rf "$work"
  rm -f "$OUT"/*.part
  exec 9>&- # the build lock, which the containers check starts next must not hold
}

# ---- run ---------------------------------------------------------------------------------------
default_archive() {
  local found=() f
  shopt -s nullglob
  for f in "$OUT"/linkproof-*-oci.tar; do
    [[ $f == *-containerfile-oci.tar ]] || found+=("$f") # (containerfile's is run by --image only)
  done
  shopt -u nullglob
  ((${#found[@]})) || die "no image in $OUT: scripts/image.sh build first (or --image OCI_TAR)"
  ls -t "${found[@]}" | head -n 1
}

# A path inside the root that stays inside it (no symlink leads out): the path on the host.
inside() {
  local p
  p=$(realpath -m "$root/$1")
  [[ $p == "$root" || $p == "$root"/* ]] || die "$1 leads out of the image's root ($p)"
  echo "$p"
}

blob() { # DIGEST -> the blob's file, its digest checked
  local f=$oci/blobs/${1%%:*}/${1#*:}
  [ -f "$f" ] || die "the archive has no blob $1"
  [ "${1%%:*}" = sha256 ] || die "digest $1: only sha256 is supported"
  [ "$(sha256sum <"$f" | cut -d' ' -f1)" = "${1#*:}" ] || die "blob $1 does not match its digest"
  echo "$f"
}

# Unpacks the OCI archive $1 into $work: sets oci, root and config (the image config's file).
unpack_image() {
  local archive=$1 desc media layer f n=0 entry dir base
  oci=$work/oci root=$work/root
  mkdir -p "$oci" "$root"
  tar -xf "$archive" -C "$oci" || die "cannot read the OCI archive $archive"
  [ -f "$oci/index.json" ] || die "$archive has no index.json: not an OCI archive"
  desc=$(jq -c '.manifests[0]' "$oci/index.json")
  while :; do # an index may point at another index: follow its first manifest for this machine
    media=$(jq -r '.mediaType' <<<"$desc")
    f=$(blob "$(jq -r '.digest' <<<"$desc")")
    case $media in
      application/vnd.oci.image.index.v1+json|application/vnd.docker.distribution.manifest.list.v2+json)
        desc=$(jq -c --arg a "$(go_arch)" '[.manifests[] | select(.platform == null or .platform.architecture == $a)][0]' "$f")
        [ "$desc" != null ] || die "the image index has no manifest for $(go_arch)" ;;
      application/vnd.oci.image.manifest.v1+json|application/vnd.docker.distribution.manifest.v2+json) break ;;
      *) die "unknown manifest type $media" ;;
    esac
  done
  cp "$(blob "$(jq -r '.config.digest' "$f")")" "$work/config.json"
  config=$work/config.json
  while IFS=$'\t' read -r media layer; do
    n=$((n + 1))
    layer=$(blob "$layer")
    case $media in
      *tar+gzip|*tar.gzip) decompress=(gzip -dc) ;;
      *tar+zstd) decompress=(zstd -dcq) ;;
      *layer.v1.tar|*rootfs.diff.tar) decompress=(cat) ;;
      *) die "layer $n: unknown media type $media" ;;
    esac
    # Whiteouts first (what this layer deletes from the ones below), then its files.
    while IFS= read -r entry; do
      entry=${entry#./}
      dir=$(dirname "$entry") base=$(basename "$entry")
      if [ "$base" = .wh..wh..opq ]; then
        find "$(inside "$dir")" -mindepth 1 -maxdepth 1 -exec rm -rf {} +
      else
        rm -rf "$(inside "$dir/${base#.wh.}")"
      fi
    done < <("${decompress[@]}" <"$layer" | tar -t | grep -E '(^|/)\.wh\.' || true)
    "${decompress[@]}" <"$layer" | tar -x -C "$root" --numeric-owner --same-owner --same-permissions \
      --keep-directory-symlink --exclude='.wh.*' || die "layer $n: cannot unpack"
  done < <(jq -r '.layers[] | [.mediaType, .digest] | @tsv' "$f")
  ((n)) || die "the image has no layers"
  chmod 0755 "$root"
  rm -rf "$oci"
}

# Resolves the image's User (name, uid, name:group, uid:gid) in its own /etc/passwd and /etc/group:
# sets uid, gid and home.
resolve_user() {
  local spec=$1 user=${1%%:*} group= line
  [[ $spec == *:* ]] && group=${spec#*:}
  uid= gid= home=/
  [ -n "$user" ] || user=0
  line=$(awk -F: -v u="$user" '$1 == u || $3 == u { print; exit }' "$root/etc/passwd" 2>/dev/null || true)
  if [ -n "$line" ]; then
    IFS=: read -r _ _ uid gid _ home _ <<<"$line"
  elif [[ $user =~ ^[0-9]+$ ]]; then
    uid=$user gid=0
  else
    die "the image's user $user is not in its /etc/passwd"
  fi
  if [ -n "$group" ]; then
    if [[ $group =~ ^[0-9]+$ ]]; then gid=$group
    else
      gid=$(awk -F: -v g="$group" '$1 == g { print $3; exit }' "$root/etc/group" 2>/dev/null || true)
      [ -n "$gid" ] || die "the image's group $group is not in its /etc/group"
    fi
  fi
}

cmd_run() {
  local image= entrypoint= deadline=600 env_extra=() volumes=() args=() have_args=false v
  while (($#)); do
    case $1 in
      --image) image=${2:?--image needs an OCI archive}; shift 2 ;;
      --entrypoint) entrypoint=${2:?--entrypoint needs a path}; shift 2 ;;
      -e) [[ ${2:-} == *=* ]] || die "-e needs KEY=VALUE"; env_extra+=("$2"); shift 2 ;;
      -v) [[ ${2:-} =~ ^/[^:]*:/[^:]*$ ]] || die "-v needs HOST_DIR:DIR (both absolute)"; volumes+=("$2"); shift 2 ;;
      --timeout) [[ ${2:-} =~ ^[0-9]+$ ]] || die "--timeout needs seconds"; deadline=$2; shift 2 ;;
      --) shift; args=("$@"); have_args=true; break ;;
      *) die "run: unknown argument $1 (usage: scripts/image.sh run [--image OCI_TAR] [--entrypoint PATH] [-e KEY=VALUE]... [-v HOST_DIR:DIR]... [--timeout SECONDS] [-- ARGS...])" ;;
    esac
  done
  [ "$(id -u)" -eq 0 ] || die "run needs root (mount and pid namespaces, chroot)"
  need jq unshare chroot timeout
  image=$(realpath "${image:-$(default_archive)}")
  for v in ${volumes[@]+"${volumes[@]}"}; do [ -d "${v%%:*}" ] || die "-v $v: no directory ${v%%:*}"; done

  # The root's mount point. What is mounted on it exists only in the container's mount namespace.
  work=$(mktemp -d "${TMPDIR:-/tmp}/linkproof-image.XXXXXX") child=
  trap 'run_cleanup' EXIT
  trap 'run_signal TERM' TERM
  trap 'run_signal INT' INT
  # timeout is the pid namespace's first process: past the deadline it stops the entry point
  # (TERM, then KILL 10 s later), and when it ends the kernel ends every other process there.
  unshare --mount --pid --fork --kill-child \
    timeout --kill-after=10 "$deadline" "$self" __container "$work" "$image" "$entrypoint" "$have_args" \
      "${#volumes[@]}" ${volumes[@]+"${volumes[@]}"} "${#env_extra[@]}" ${env_extra[@]+"${env_extra[@]}"} \
      ${args[@]+"${args[@]}"} &
  child=$!
  local rc=0
  wait "$child" || rc=$?
  child=
  [ "$rc" -ne 124 ] || echo "image: the deadline of $deadline s passed: stopped" >&2
  return "$rc"
}

# Stops the container: TERM to its processes (timeout passes it on), KILL 10 s later at the latest.
run_signal() {
  if [ -n "${child:-}" ]; then
    local init
    init=$(pgrep -P "$child" -x timeout || true)
    if [ -n "$init" ]; then kill -TERM "$init" 2>/dev/null || true; else kill -KILL "$child" 2>/dev/null || true; fi
    wait "$child" 2>/dev/null || true
    child=
  fi
  [ "$1" = INT ] && exit 130 || exit 143
}

run_cleanup() {
  local rc=$?
  if [ -n "${child:-}" ]; then kill -KILL "$child" 2>/dev/null || true; wait "$child" 2>/dev/null || true; fi
  [ -z "${work:-}" ] || rm -rf --one-file-system "$work"
  exit "$rc"
}

# Inside the new mount and pid namespaces (under timeout): the root on a tmpfs of this mount
# namespace (unpacking to memory is 5 times faster here than to disk, and nothing is left when the
# namespace ends), the image's layers, the container's mounts, then the entry point under chroot.
cmd_container() {
  local image entrypoint have_args n volumes=() env_extra=() args
  work=$1 image=$2 entrypoint=$3 have_args=$4 n=$5
  shift 5
  volumes=("${@:1:n}")
  shift "$n"
  n=$1
  shift
  env_extra=("${@:1:n}")
  shift "$n"
  args=("$@")
  # Only ever in the namespaces run makes, where the mounts below vanish with the mount namespace:
  # process 2 of a new pid namespace, whose first process is timeout (on a host, 2 is kthreadd).
  [ "$$" -eq 2 ] && [ "$PPID" -eq 1 ] \
    || die "__container is run's inside: it runs only in the namespaces scripts/image.sh run makes"

  mount -t tmpfs -o mode=0755 linkproof-root "$work"
  unpack_image "$image"

  local argv=() cmd env=() e p workdir
  if [ -n "$entrypoint" ]; then argv=("$entrypoint")
  else mapfile -t argv < <(jq -r '.config.Entrypoint // [] | .[]' "$config"); fi
  if $have_args; then argv+=(${args[@]+"${args[@]}"})
  elif [ -z "$entrypoint" ]; then mapfile -t cmd < <(jq -r '.config.Cmd // [] | .[]' "$config"); argv+=(${cmd[@]+"${cmd[@]}"}); fi
  ((${#argv[@]})) || die "the image has neither Entrypoint nor Cmd, and no arguments were given"
  resolve_user "$(jq -r '.config.User // ""' "$config")"
  mapfile -t env < <(jq -r '.config.Env // [] | .[]' "$config")
  printf '%s\n' ${env[@]+"${env[@]}"} | grep -q '^HOME=' || env+=("HOME=$home")
  env+=("HOSTNAME=$(cat /proc/sys/kernel/hostname)" ${env_extra[@]+"${env_extra[@]}"})
  workdir=$(jq -r '.config.WorkingDir // "" | if . == "" then "/" else . end' "$config")
  mkdir -p "$(inside "$workdir")"

  # Mount points are never symlinks (a symlink would lead the mount out of the root).
  for e in /proc /dev /sys /tmp /etc/hosts /etc/resolv.conf /etc/hostname ${volumes[@]+"${volumes[@]#*:}"}; do
    p=$(inside "$e")
    [ ! -L "$p" ] || rm -f "$p"
    case $e in /proc|/dev|/sys|/tmp) mkdir -p "$p" ;; esac
  done
  mount -t proc -o nosuid,nodev,noexec proc "$root/proc" # this pid namespace's processes
  mount -t tmpfs -o nosuid,mode=0755,size=1m linkproof-dev "$root/dev"
  for n in null zero full random urandom tty; do
    touch "$root/dev/$n"
    mount --bind "/dev/$n" "$root/dev/$n"
  done
  ln -s /proc/self/fd "$root/dev/fd"
  ln -s /proc/self/fd/0 "$root/dev/stdin"
  ln -s /proc/self/fd/1 "$root/dev/stdout"
  ln -s /proc/self/fd/2 "$root/dev/stderr"
  mkdir "$root/dev/shm"
  mount -t tmpfs -o nosuid,nodev,mode=1777 linkproof-shm "$root/dev/shm"
  for e in /dev/infiniband /dev/kfd /dev/dri /dev/nvidia*; do # the fabric's and the GPUs' devices, as --device
    [ -e "$e" ] || continue
    if [ -d "$e" ]; then mkdir -p "$root$e"; else touch "$root$e"; fi
    mount --rbind "$e" "$root$e"
  done
  mount --rbind /sys "$root/sys"
  mount -o remount,bind,ro "$root/sys"
  mount -t tmpfs -o nosuid,nodev,mode=1777 linkproof-tmp "$root/tmp"
  for e in /etc/hosts /etc/resolv.conf /etc/hostname; do
    [ -f "$e" ] || continue
    touch "$root$e"
    mount --bind -o ro "$e" "$root$e"
  done
  for e in ${volumes[@]+"${volumes[@]}"}; do
    mkdir -p "$root${e#*:}"
    mount --bind "${e%%:*}" "$root${e#*:}"
  done
  exec chroot --userspec="$uid:$gid" --groups= "$root" /usr/bin/env -i -C "$workdir" ${env[@]+"${env[@]}"} "${argv[@]}"
}

# ---- check -------------------------------------------------------------------------------------
fail() { echo "image check: FAILED: $*" >&2; exit 1; }
ok() { echo "image check: ok: $*"; }

# The final stage of the Containerfile: INSTRUCTION ARGUMENTS lines.
containerfile_final() {
  awk '/^FROM /{ n = NR } { line[NR] = $0 } END { for (i = n; i <= NR; i++) print line[i] }' "$CONTAINERFILE" \
    | grep -E '^[A-Z]+ '
}

check_containerfile() { # $1: the image config (JSON)
  local config=$1 version=$2 rev=$3 final want got
  final=$(containerfile_final)
  grep -qx 'ARG BASE=debian:bookworm-slim' "$CONTAINERFILE" && grep -qxF 'FROM ${BASE}' <<<"$final" \
    || fail "the Containerfile's image is not FROM \${BASE}, by default debian:bookworm-slim"
  grep -qx "COPY $PACKAGES /tmp/packages.txt" <<<"$final" \
    && grep -q "sed -e 's/#.\*//' /tmp/packages.txt | xargs apt-get install -y --no-install-recommends" "$CONTAINERFILE" \
    || fail "the Containerfile does not install $PACKAGES as this script reads it"
  grep -q "useradd --uid $USER_UID --user-group --create-home --shell /bin/bash $USER_NAME\$" "$CONTAINERFILE" \
    || fail "the Containerfile's user is not $USER_NAME, uid $USER_UID, as the mmdebstrap hook makes it"
  for want in "ENTRYPOINT $IMAGE_ENTRYPOINT" "CMD $IMAGE_CMD" "USER $IMAGE_USER" "WORKDIR $IMAGE_WORKDIR"; do
    grep -qxF "$want" <<<"$final" || fail "the Containerfile lacks '$want', which this script sets"
  done
  want=$(printf 'ENV %s\n' "${IMAGE_ENV[@]}" | sort)
  got=$(grep '^ENV ' <<<"$final" | sort)
  [ "$want" = "$got" ] || fail "the Containerfile's ENV lines differ from this script's:"$'\n'"$got"$'\n'"vs"$'\n'"$want"
  want=$(labels '${VERSION}' '${REVISION}' | sort)
  got=$(grep '^LABEL ' <<<"$final" | sed -E 's/^LABEL ([^=]+)="(.*)"$/\1=\2/' | sort)
  [ "$want" = "$got" ] || fail "the Containerfile's labels differ from this script's:"$'\n'"$got"$'\n'"vs"$'\n'"$want"
  ok "image/Containerfile and scripts/image.sh agree: packages, user, workdir, env, entrypoint, cmd, labels"

  # The built image's config says the same.
  [ "$(jq -c '.config.Entrypoint' "$config")" = "$(jq -c . <<<"$IMAGE_ENTRYPOINT")" ] || fail "the image's Entrypoint is $(jq -c '.config.Entrypoint' "$config")"
  [ "$(jq -c '.config.Cmd' "$config")" = "$(jq -c . <<<"$IMAGE_CMD")" ] || fail "the image's Cmd is $(jq -c '.config.Cmd' "$config")"
  [ "$(jq -r '.config.User' "$config")" = "$IMAGE_USER" ] || fail "the image's User is $(jq -r '.config.User' "$config")"
  [ "$(jq -r '.config.WorkingDir' "$config")" = "$IMAGE_WORKDIR" ] || fail "the image's WorkingDir is $(jq -r '.config.WorkingDir' "$config")"
  [ "$(jq -r '.config.Env[]' "$config" | sort)" = "$(printf '%s\n' "${IMAGE_ENV[@]}" | sort)" ] || fail "the image's Env is $(jq -c '.config.Env' "$config")"
  # (buildah adds io.buildah.version; the OCI labels are the ones that must agree)
  [ "$(jq -r '.config.Labels | to_entries[] | select(.key | startswith("org.opencontainers.")) | "\(.key)=\(.value)"' "$config" | sort)" \
      = "$(labels "$version" "$rev" | sort)" ] \
    || fail "the image's labels are $(jq -c '.config.Labels' "$config")"
  ok "the image's config: entrypoint $(jq -c '.config.Entrypoint' "$config"), cmd $(jq -c '.config.Cmd' "$config"), user $IMAGE_USER, labels"
}

cmd_check() {
  local started=$SECONDS t archive version rev config out why= tool # (tmp: global, for the EXIT trap)
  if [ "${1:-}" = --skip-unavailable ]; then
    shift
    [ "$(id -u)" -eq 0 ] || why="not root"
    for tool in mmdebstrap buildah jq unshare; do
      command -v "$tool" >/dev/null || why="${why:+$why; }no $tool"
    done
    if [ -n "$why" ]; then
      echo "image check: SKIPPED ($why): building and running the image needs root and Debian's" \
        "mmdebstrap, buildah and jq (scripts/setup.sh --test installs them as root)"
      return 0
    fi
  fi
  [ "$(id -u)" -eq 0 ] || die "check needs root"
  cmd_build "$@" # (not in a condition: that would turn set -e off inside it)
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/linkproof-image-check.XXXXXX") agent_pid=
  trap 'check_cleanup' EXIT
  archive=$built_archive version=$built_version
  rev=$(revision)
  config=$tmp/config.json
  tar -xOf "$archive" "blobs/sha256/$(tar -xOf "$archive" index.json | jq -r '.manifests[0].digest' | cut -d: -f2)" \
    | jq -r '.config.digest' | cut -d: -f2 | xargs -I{} tar -xOf "$archive" blobs/sha256/{} >"$config"
  check_containerfile "$config" "$version" "$rev"

  t=$SECONDS
  "$self" run --image "$archive" --timeout 120 --entrypoint /bin/sh -- -c \
      'id; dpkg-query -W -f "\${db:Status-Abbrev} \${Package}\n" "$@"' sh $(packages) >"$tmp/inside" 2>&1 \
    || fail "the image's shell did not run: $(cat "$tmp/inside")"
  grep -q "^uid=$USER_UID($USER_NAME) gid=$USER_UID($USER_NAME)" "$tmp/inside" \
    || fail "the image does not run as $USER_NAME ($USER_UID): $(head -n 1 "$tmp/inside")"
  for p in $(packages); do
    grep -qE "^ii +$p(:[a-z0-9]+)?\$" "$tmp/inside" || fail "package $p is not installed in the image: $(cat "$tmp/inside")"
  done
  ok "runs as $USER_NAME ($USER_UID); the $(packages | wc -l) packages of $PACKAGES are installed ($((SECONDS - t)) s)"

  t=$SECONDS
  "$self" run --image "$archive" --timeout 120 -- version >"$tmp/version" 2>&1 || fail "linkproof version failed: $(cat "$tmp/version")"
  grep -qF "$version" "$tmp/version" || fail "linkproof version does not print $version: $(cat "$tmp/version")"
  ok "linkproof version: $(head -n 1 "$tmp/version") ($((SECONDS - t)) s)"

  t=$SECONDS
  "$self" run --image "$archive" --timeout 120 -- check >"$tmp/check" 2>&1 || fail "linkproof check failed:"$'\n'"$(cat "$tmp/check")"
  grep -q 'ok: libibverbs: ' "$tmp/check" && grep -q 'ok: verbs providers: ' "$tmp/check" && grep -q 'ok: UCX: ' "$tmp/check" \
    || fail "linkproof check does not find libibverbs, its providers and UCX:"$'\n'"$(cat "$tmp/check")"
  ok "linkproof check finds libibverbs, its providers and UCX ($((SECONDS - t)) s):"
  grep -E 'ok: (libibverbs|UCX): ' "$tmp/check" | sed 's/^/    /'


  t=$SECONDS
  out=$tmp/out
  mkdir -p "$out" && chown "$USER_UID:$USER_UID" "$out"
  "$self" run --image "$archive" --timeout 420 -v "$out:/tmp/out" -- run --select "$CHECK_SELECT" --out /tmp/out >"$tmp/run" 2>&1 \
    || fail "linkproof run --select $CHECK_SELECT failed:"$'\n'"$(tail -n 40 "$tmp/run")"
  grep -qE '^linkproof run: [1-9][0-9]* passed, 0 failed' "$tmp/run" \
    || fail "linkproof run --select $CHECK_SELECT passed nothing:"$'\n'"$(tail -n 40 "$tmp/run")"
  compgen -G "$out/allure-results/*-result.json" >/dev/null || fail "linkproof run left no Allure results in allure-results/"
  compgen -G "$out/junit/*.xml" >/dev/null || fail "linkproof run left no JUnit XML in junit/"
  ok "linkproof run --select $CHECK_SELECT ($((SECONDS - t)) s): $(grep -m1 -E '^linkproof run: [0-9]+ passed' "$tmp/run" | sed 's/^linkproof run: //');" \
    "$(ls "$out/allure-results" | grep -c -- '-result.json$') Allure results, JUnit XML: $(cd "$out/junit" && ls | paste -sd' ')"

  t=$SECONDS
  local token line port
  token=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
  "$self" run --image "$archive" --timeout 300 -e "LINKPROOF_TOKEN=$token" -- agent --port 0 >"$tmp/agent" 2>&1 &
  agent_pid=$!
  for _ in $(seq 1 120); do
    line=$(grep -m1 '^linkproof-agent ready ' "$tmp/agent" || true)
    [ -z "$line" ] && kill -0 "$agent_pid" 2>/dev/null || break
    sleep 0.5
  done
  [ -n "$line" ] || fail "the agent did not say it was ready:"$'\n'"$(cat "$tmp/agent")"
  port=$(sed -E 's/.* port=([0-9]+).*/\1/' <<<"$line")
  "$self" run --image "$archive" --timeout 180 -e "LINKPROOF_TOKEN=$token" -- transfer --peer "127.0.0.1:$port" --size 4KiB,1MiB --iters 50 \
      >"$tmp/transfer" 2>&1 || fail "linkproof transfer against the agent failed:"$'\n'"$(cat "$tmp/transfer")"$'\n'"agent:"$'\n'"$(cat "$tmp/agent")"
  ok "linkproof agent (port $port) answered linkproof transfer in another container ($((SECONDS - t)) s):"
  sed 's/^/    /' "$tmp/transfer"
  kill -TERM "$agent_pid"
  wait "$agent_pid" 2>/dev/null || true
  agent_pid=
  grep -q '^linkproof-agent: stopped' "$tmp/agent" \
    || fail "the agent did not stop on TERM by itself:"$'\n'"$(tail -n 5 "$tmp/agent")"
  ok "the agent stopped on TERM: $(grep -m1 '^linkproof-agent: stopped' "$tmp/agent")"

  local left
  left=$(findmnt -rn -o TARGET | grep -c '/linkproof-image\.' || true)
  [ "$left" -eq 0 ] || fail "$left mount(s) of the image's roots are left"
  left=$(for r in /proc/[0-9]*/root; do readlink "$r" 2>/dev/null; done | grep -c '/linkproof-image\.' || true)
  [ "$left" -eq 0 ] || fail "$left process(es) are left running in the image's roots"
  ok "nothing left running or mounted; done in $((SECONDS - started)) s"
}

# ---- containerfile -----------------------------------------------------------------------------
# What an image's file system and config say, for comparing two images: its packages with their
# versions, its user, the files of /opt/linkproof with their modes and owners, and its config.
image_facts() { # OCI_ARCHIVE OUT_PREFIX
  local manifest
  "$self" run --image "$1" --timeout 120 --entrypoint /bin/sh -- -c \
    'id; dpkg-query -W -f "\${Package} \${Version}\n" | sort; find /opt/linkproof -printf "%p %M %U:%G %s\n" | sort' \
    >"$2.files" 2>&1 || fail "$1 does not run: $(cat "$2.files")"
  manifest=$(tar -xOf "$1" index.json | jq -r '.manifests[0].digest' | cut -d: -f2)
  tar -xOf "$1" "blobs/sha256/$(tar -xOf "$1" "blobs/sha256/$manifest" | jq -r '.config.digest' | cut -d: -f2)" \
    | jq -S '.config | .Labels |= with_entries(select(.key | startswith("org.opencontainers.")))' >"$2.config"
}

cmd_containerfile() {
  local started=$SECONDS t version tag archive2 # (tmp, ctx: global, for the EXIT trap)
  [ "$(id -u)" -eq 0 ] || die "containerfile needs root"
  cmd_build "$@"
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/linkproof-image-check.XXXXXX") agent_pid= ctx=
  trap 'check_cleanup' EXIT
  version=$built_version
  # debian:bookworm-slim, made as Debian's docker images are made: minbase, docs left out.
  rootfs_layer slim
  drop_older slim "$base"
  # Its own context: the Containerfile's two inputs, whatever the bundle's path.
  ctx=$(mktemp -d "$OUT/context.XXXXXX")
  mkdir "$ctx/image"
  cp "$PACKAGES" "$ctx/image/"
  cp "$built_bundle" "$ctx/"
  tag=$IMAGE-containerfile:$version archive2=$OUT/linkproof-$version-containerfile-oci.tar
  t=$SECONDS
  buildah build --quiet --pull=never --isolation chroot -f "$CONTAINERFILE" --build-arg "BASE=$base" \
      --build-arg "BUNDLE=$(basename "$built_bundle")" --build-arg "VERSION=$version" --build-arg "REVISION=$(revision)" \
      -t "$tag" "$ctx" >"$tmp/build" 2>&1 || fail "buildah build -f $CONTAINERFILE failed:"$'\n'"$(tail -n 30 "$tmp/build")"
  rm -f "$archive2"
  buildah push --quiet "$tag" "oci-archive:$archive2:$tag"
  buildah rmi "$tag" >/dev/null 2>&1 || true # the archive is what is compared
  ok "image/Containerfile built with buildah (isolation chroot) on $base in $((SECONDS - t)) s: $archive2, $(mb "$(stat -c %s "$archive2")")"
  image_facts "$built_archive" "$tmp/script"
  image_facts "$archive2" "$tmp/containerfile"
  diff -u "$tmp/script.files" "$tmp/containerfile.files" >"$tmp/diff" \
    || fail "the two images differ in packages, user or /opt/linkproof (- image.sh, + Containerfile):"$'\n'"$(cat "$tmp/diff")"
  diff -u "$tmp/script.config" "$tmp/containerfile.config" >"$tmp/diff" \
    || fail "the two images' configs differ (- image.sh, + Containerfile):"$'\n'"$(cat "$tmp/diff")"
  ok "the two images agree: $(grep -c '^[a-z0-9][^ ]* [^ ]*$' "$tmp/script.files") packages at the same versions, the user, the files of /opt/linkproof, the config"
  ok "done in $((SECONDS - started)) s"
}

check_cleanup() {
  local rc=$?
  [ -z "${ctx:-}" ] || rm -rf "$ctx"
  if [ -n "${agent_pid:-}" ]; then kill -TERM "$agent_pid" 2>/dev/null || true; wait "$agent_pid" 2>/dev/null || true; fi
  [ -z "${tmp:-}" ] || rm -rf "$tmp"
  exit "$rc"
}

case "${1:-}" in
  build) shift; cmd_build "$@" ;;
  run) shift; cmd_run "$@" ;;
  check) shift; cmd_check "$@" ;;
  containerfile) shift; cmd_containerfile "$@" ;;
  __container) shift; cmd_container "$@" ;; # run's inside, in the container's namespaces
  *) echo "usage: scripts/image.sh build [--bundle TAR] | run [--image OCI_TAR] [--entrypoint PATH] [-e KEY=VALUE]... [-v HOST_DIR:DIR]... [--timeout SECONDS] [-- ARGS...] | check [--skip-unavailable] [--bundle TAR] | containerfile [--bundle TAR]" >&2
     exit 2 ;;
esac
