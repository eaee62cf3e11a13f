#!/usr/bin/env bash
# Installs the Debian 12 packages the build needs, skipping those already present.
# Runs apt-get only when something is missing (and then needs root).
set -euo pipefail
packages=(cmake ninja-build g++ pkg-config libgtest-dev libgmock-dev libbenchmark-dev
          libfmt-dev libspdlog-dev libre2-dev libcli11-dev libyaml-cpp-dev libpugixml-dev
          libconcurrentqueue-dev libboost-dev nlohmann-json3-dev libsqlite3-dev libjq-dev libcurl4-openssl-dev openssl libsimdjson-dev librdkafka-dev libpq-dev
          libqpid-proton-cpp12-dev
          prometheus
          libsystemd-dev dpkg-dev systemd
          valgrind python3)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
