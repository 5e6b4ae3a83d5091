#!/usr/bin/env bash
# The README's set-up, tried as a brand-new user would: a clean Debian 12 root (debootstrap --variant=minbase), given
# only `make` and this host's certificate authorities and apt/pip settings (so that it reaches the same package
# registries), a clean clone of this repository's HEAD, then `make demo` and `make test` with nothing else installed.
# A green CI can hide a missing install step (a package installed by hand on the machines the tests ran on); this
# cannot. Prints how long each step took; the logs stay in the root's /work.
#
#   scripts/fresh-machine-check.sh              # needs root (or sudo) and debootstrap; about 40-60 min on 2 cores
#   FRESH_ROOT=/var/tmp/fresh KEEP_ROOT=1 ...   # where to build the root, and keep it afterwards (default: removed)
#   FRESH_STEPS="demo"                          # only some of the README's commands (default: "demo test")
# Commit first: the check clones HEAD, as CI does.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
sudo=$([ "$(id -u)" = 0 ] || echo sudo)
command -v debootstrap >/dev/null || { echo "fresh-machine-check: needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }
root=${FRESH_ROOT:-$(mktemp -d /var/tmp/cryptaccel-fresh.XXXXXX)}
# mktemp makes the directory 0700; as the chroot's / it would keep every other user out of everything (the tests
# that run the tool as `nobody` could not even load libcrypto). A real machine's / is 0755.
chmod 0755 "$root"
steps=${FRESH_STEPS:-demo test}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

mounted=()
cleanup() {
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do $sudo umount -l "${mounted[i]}" 2>/dev/null || true; done
  if [ -z "${KEEP_ROOT:-}" ]; then $sudo rm -rf --one-file-system "$root"; else echo "root kept: $root"; fi
}
trap cleanup EXIT
bind() { $sudo mkdir -p "$root$1"; $sudo mount --bind "$1" "$root$1"; mounted+=("$root$1"); }
in_root() { $sudo chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive ${pip_env[@]+"${pip_env[@]}"} bash -c "$1"; }
stamp() { date -u +%H:%M:%S; }

start=$SECONDS
echo "[$(stamp)] debootstrap --variant=minbase bookworm into $root"
$sudo debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 ||
  { tail -20 "$root.debootstrap.log"; exit 1; }
echo "[$(stamp)] root ready in $((SECONDS - start)) s"

# This host's registries and certificate authorities, nothing else: apt sources and settings, pip's configuration and
# PIP_* variables, the CA bundle (minbase has no ca-certificates package; pip and git need it).
$sudo rm -f "$root/etc/apt/sources.list"
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources /etc/apt/apt.conf.d/*; do
  [ -f "$f" ] && $sudo cp "$f" "$root$f"
done
for f in /etc/pip.conf /etc/ssl/certs/ca-certificates.crt /usr/local/share/ca-certificates/*; do
  [ -f "$f" ] && { $sudo mkdir -p "$root$(dirname "$f")"; $sudo cp -L "$f" "$root$f"; }
done  # (the local CAs too: installing ca-certificates in the root rebuilds the bundle from them)
pip_env=()
while IFS= read -r line; do pip_env+=("$line"); done < <(env | grep -E '^(PIP_|https?_proxy=|HTTPS?_PROXY=|no_proxy=|NO_PROXY=)' | grep -v '^PIP_FIND_LINKS=' || true)
$sudo cp -L /etc/resolv.conf "$root/etc/resolv.conf"
bind /proc; bind /sys; bind /dev; bind /dev/pts

# The one line the README documents for a machine without make.
t=$SECONDS
in_root "apt-get update -qq && apt-get install -y -qq --no-install-recommends make >/dev/null"
echo "[$(stamp)] apt-get install make: $((SECONDS - t)) s"

$sudo mkdir -p "$root/work"
$sudo git clone -q "$repo" "$root/work/cryptaccel"
echo "[$(stamp)] cloned $(git -C "$repo" rev-parse --short HEAD)"
status=0
for step in $steps; do
  t=$SECONDS
  if in_root "cd /work/cryptaccel && make $step" >"$root/work/make-$step.log" 2>&1; then
    echo "[$(stamp)] make $step: passed in $((SECONDS - t)) s"
  else
    status=1
    echo "[$(stamp)] make $step: FAILED after $((SECONDS - t)) s; last lines of $root/work/make-$step.log:"
    tail -40 "$root/work/make-$step.log"
    KEEP_ROOT=${KEEP_ROOT:-1}
    break
  fi
done
echo "[$(stamp)] fresh-machine check: $([ $status = 0 ] && echo passed || echo FAILED) in $((SECONDS - start)) s"
exit $status
