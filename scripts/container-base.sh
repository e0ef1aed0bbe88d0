#!/usr/bin/env bash
# The Python base image the container tests build on, made from Debian packages because no
# container registry is reachable in CI: debootstrap a minimal bookworm (python3 3.11,
# python3-venv, ca-certificates) and import it into podman. The machine's extra CA
# certificates (an egress proxy's) are trusted in the image, so pip and uv reach PyPI.
# The root file system is kept as a tarball in the cache: a rerun only imports it.
# Usage: scripts/container-base.sh [IMAGE]   (default localhost/eaf-python:3.11-bookworm)
set -euo pipefail
image="${1:-localhost/eaf-python:3.11-bookworm}"
here="$(cd "$(dirname "$0")" && pwd)"
export CONTAINERS_CONF="${CONTAINERS_CONF:-$here/containers.conf}"
podman image exists "$image" && exit 0
cache="${XDG_CACHE_HOME:-$HOME/.cache}/eaf-containers"
tarball="$cache/debian-bookworm-python3.tar"
if [ ! -f "$tarball" ]; then
  mkdir -p "$cache"
  rootfs="$(mktemp -d "$cache/rootfs.XXXXXX")"
  trap 'rm -rf "$rootfs"' EXIT
  debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates \
    bookworm "$rootfs" http://deb.debian.org/debian >"$cache/debootstrap.log"
  if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$rootfs/usr/local/share/ca-certificates/"
    chroot "$rootfs" update-ca-certificates >/dev/null 2>&1
  fi
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  tar -C "$rootfs" -cf "$tarball.partial" . && mv "$tarball.partial" "$tarball"
fi
podman import --quiet \
  --change "ENV SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt" \
  --change "ENV PIP_CERT=/etc/ssl/certs/ca-certificates.crt" \
  --change 'CMD ["python3"]' \
  "$tarball" "$image" >/dev/null
echo "built $image"
