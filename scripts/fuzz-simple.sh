#!/usr/bin/env bash
# Fuzzes the Simple parser with libFuzzer (clang, ASan+UBSan) for SECONDS (default 300).
#   scripts/fuzz-simple.sh [SECONDS]
# New interesting inputs go to build-fuzz/corpus; a crash is written to build-fuzz/ as
# crash-<hash>: copy it into fuzz/corpus/simple/ (it then replays in `make test`) and fix it.
set -euo pipefail
seconds="${1:-300}"
root="$(cd "$(dirname "$0")/.." && pwd)"
if ! command -v clang++ >/dev/null; then
  echo "installing clang and libFuzzer"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get install -y -qq --no-install-recommends clang libclang-rt-14-dev
fi
build="$root/build-fuzz"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++ -DDROMEDARY_FUZZ=ON -DDROMEDARY_BUILD_TESTS=OFF \
  -DDROMEDARY_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" --target simple_parser_fuzzer
mkdir -p "$build/corpus"
cd "$build"
exec ./bin/simple_parser_fuzzer -max_total_time="$seconds" -max_len=256 -timeout=5 \
  -rss_limit_mb=2048 -print_final_stats=1 corpus "$root/fuzz/corpus/simple"
