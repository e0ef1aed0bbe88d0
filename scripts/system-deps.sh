#!/usr/bin/env bash
# The Debian packages the suite needs beyond Python: chromium (the catalog's browser tests),
# npm (the official AsyncAPI schema), podman, buildah, runc and debootstrap (the
# container test builds a Debian base image and the sample's image; see
# scripts/container-base.sh), slapd and ldap-utils (the IAM's LDAP federation tests run a
# real directory), and xmlsec1 (pysaml2 signs and verifies the IAM's SAML messages with
# it). Installed with apt-get when missing (as root); otherwise one line says what to
# install.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)
command -v podman >/dev/null 2>&1 || missing+=(podman)
command -v buildah >/dev/null 2>&1 || missing+=(buildah)
[ -x /usr/sbin/runc ] || missing+=(runc)
[ -x /usr/sbin/debootstrap ] || missing+=(debootstrap)
command -v xmlsec1 >/dev/null 2>&1 || missing+=(xmlsec1)
[ -x /usr/sbin/slapd ] || missing+=(slapd)
command -v ldapmodify >/dev/null 2>&1 || missing+=(ldap-utils)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "error: the tests need the Debian packages: ${missing[*]} (apt-get install -y ${missing[*]})" >&2
  exit 1
fi
echo "installing Debian packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
