#!/bin/sh
# Install the Debian packages named as arguments that are not installed yet.
# Runs apt-get update once, and only when something is missing, so a warm
# machine stays fast.  Needs root (or sudo) only when it installs.
missing=""
for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
        || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
$SUDO apt-get update -qq || exit 1
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
