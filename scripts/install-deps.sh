#!/usr/bin/env bash
# Installs the Debian 12 packages the build needs, skipping those already present.
# Runs apt-get only when something is missing (and then needs root).
#   scripts/install-deps.sh [--tests]   (--tests: also what the tests need beyond the build:
#                                        chromium and node for the console's browser tests)
set -euo pipefail
packages=(cmake ninja-build g++ pkg-config libgtest-dev libgmock-dev libbenchmark-dev
          libfmt-dev libspdlog-dev libre2-dev libcli11-dev libyaml-cpp-dev libpugixml-dev
          libconcurrentqueue-dev libboost-dev nlohmann-json3-dev libsqlite3-dev libjq-dev libcurl4-openssl-dev openssl libsimdjson-dev librdkafka-dev libpq-dev
          libqpid-proton-cpp12-dev
          prometheus
          dpkg-dev systemd
          valgrind python3)
if [ "${1:-}" = "--tests" ]; then
  # By command: a machine may have node and npm from elsewhere (NodeSource bundles npm, and
  # Debian's npm would then not install).
  command -v chromium > /dev/null || packages+=(chromium)
  { command -v node && command -v npm; } > /dev/null || packages+=(nodejs npm)
  command -v curl > /dev/null || packages+=(curl)
fi
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
