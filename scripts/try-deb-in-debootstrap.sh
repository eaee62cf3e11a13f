#!/usr/bin/env bash
# The README's install section, tried on a fresh Debian 12 root (debootstrap, as root; it
# downloads a minimal system from deb.debian.org, ~5 minutes): the .deb installed with apt,
# which pulls its runtime dependencies, the dromedary user made, a route initialised into
# /etc/dromedary/routes and validated, the service's command run as the dromedary user, and
# the unit verified by the root's own systemd. Not part of `make test` (network and time);
# tests/packaging/package_test.sh checks the package without a root.
#   scripts/try-deb-in-debootstrap.sh path/to/dromedary_*.deb [ROOT_DIR]
set -euo pipefail
deb=$(realpath "$1")
root=${2:-/tmp/dromedary-debootstrap}
if [ ! -x "$root/usr/bin/apt-get" ]; then
  command -v debootstrap > /dev/null || apt-get install -y -qq debootstrap
  debootstrap --variant=minbase --include=systemd,man-db bookworm "$root" http://deb.debian.org/debian
fi
cp "$deb" "$root/tmp/"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }
in_root apt-get install -y -qq man-db "/tmp/$(basename "$deb")"
in_root getent passwd dromedary
in_root dromedary version
in_root dromedary init hello.yaml --directory /etc/dromedary/routes --force
in_root dromedary validate /etc/dromedary/routes --properties /etc/dromedary/application.properties
in_root systemd-analyze verify /usr/lib/systemd/system/dromedary.service
# The service's ExecStart, as its user, stopped after three messages.
in_root setpriv --reuid=dromedary --regid=dromedary --init-groups \
  dromedary run /etc/dromedary/routes --properties /etc/dromedary/application.properties \
  --max-messages 3
in_root man -w dromedary-run
echo "the README's install section works on a fresh Debian 12 root ($root)"
