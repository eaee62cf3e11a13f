#!/usr/bin/env bash
# Runs a libFuzzer target (clang, ASan+UBSan) for SECONDS (default 300):
#   scripts/fuzz.sh simple_parser|uri_parser|yaml_routes|xml_routes|http_request|json_text|json_path [SECONDS]
# New interesting inputs go to build-fuzz/corpus-NAME; a crash is written to build-fuzz/ as
# crash-<hash>: copy it into fuzz/corpus/<corpus>/ (it then replays in `make test`), fix it.
# SECONDS 0 builds the target and stops; FUZZ_PREBUILT=1 runs it without configuring or
# building (scripts/fuzz-all.sh runs two at once on one build).
set -euo pipefail
name="${1:?usage: scripts/fuzz.sh simple_parser|uri_parser|yaml_routes|xml_routes|http_request|json_text|json_path [SECONDS]}"
seconds="${2:-300}"
case "$name" in
  simple_parser) corpus=simple; max_len=256 ;;
  uri_parser) corpus=uri; max_len=1024 ;;
  yaml_routes) corpus=yaml; max_len=4096 ;;
  xml_routes) corpus=xml; max_len=4096 ;;
  http_request) corpus=http; max_len=8192 ;;
  json_text) corpus=json; max_len=4096 ;;
  json_path) corpus=jsonpath; max_len=512 ;;
  *) echo "unknown fuzz target '$name'" >&2; exit 2 ;;
esac
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build-fuzz"
if [ "${FUZZ_PREBUILT:-0}" != 1 ]; then
  missing=()
  for p in clang libclang-rt-14-dev; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "installing ${missing[*]} (clang and libFuzzer)"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER=clang++ -DDROMEDARY_FUZZ=ON -DDROMEDARY_BUILD_TESTS=OFF \
    -DDROMEDARY_BUILD_BENCH=OFF >/dev/null
  cmake --build "$build" --target "${name}_fuzzer"
fi
[ "$seconds" = 0 ] && exit 0
mkdir -p "$build/corpus-$name"
cd "$build"
exec "./bin/${name}_fuzzer" -max_total_time="$seconds" -max_len="$max_len" -timeout=5 \
  -rss_limit_mb=2048 -print_final_stats=1 "corpus-$name" "$root/fuzz/corpus/$corpus"
