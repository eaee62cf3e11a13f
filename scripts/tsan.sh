#!/usr/bin/env bash
# Runs test programs under ThreadSanitizer.
#   scripts/tsan.sh PROGRAM [PROGRAM...]   e.g. scripts/tsan.sh dromedary_component_kafka_tests
# Builds them in build-tsan/ (Debug, -O1, -fsanitize=thread), preloads scripts/tsan/c11_threads.c
# (librdkafka's C11 threads and locks made visible to TSan), runs each, and prints its tests'
# outcome and the number of TSan reports; the full output is in build-tsan/PROGRAM.tsan.log.
# Known reports that are not ours: moodycamel's queues (TSan cannot see through their fences)
# and memory librdkafka frees after a reference count it keeps with uninstrumented atomics.
# Tests that need servers (PostgreSQL, brokers) need them started as their scripts say.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TSAN_BUILD_DIR:-$root/build-tsan}"
[ $# -gt 0 ] || { sed -n 2,9p "$0"; exit 2; }
flags="-O1 -g -fsanitize=thread"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread \
  -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread > /dev/null
cmake --build "$build" --target "$@" dromedary-kafka-cluster
gcc -shared -fPIC -O1 "$root/scripts/tsan/c11_threads.c" -o "$build/c11_threads.so" -lpthread
status=0
for program in "$@"; do
  log="$build/$program.tsan.log"
  rc=0
  LD_PRELOAD="$build/c11_threads.so" TSAN_OPTIONS="halt_on_error=0 ${TSAN_OPTIONS:-}" \
    "$build/bin/$program" > "$log" 2>&1 || rc=$?
  reports=$(grep -c "WARNING: ThreadSanitizer" "$log" || true)
  outcome=$(grep -E "^\[  (PASSED|FAILED) " "$log" | tr '\n' ' ')
  echo "$program: exit $rc, ${outcome:-no test summary}, $reports TSan reports ($log)"
  [ "$rc" -eq 0 ] || [ "$rc" -eq 66 ] || status=1  # 66: TSan reported; anything else failed
done
exit $status
