#!/usr/bin/env bash
# wrk against the platform-http server: GET /ping (bench/wrk/ping.yaml) from 50 connections.
#   bench/wrk.sh [BUILD_DIR] [SECONDS] [RUNS]
# Prints wrk's summary for each run; record them in bench/RESULTS.md.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
seconds="${2:-10}"
runs="${3:-3}"
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 2; }
port=$((20000 + RANDOM % 12000))  # below the ephemeral ports (32768-)
props=$(mktemp)
printf 'camel.server.host=127.0.0.1\ncamel.server.port=%s\n' "$port" > "$props"
"$build/bin/dromedary" run "$root/bench/wrk/ping.yaml" --properties "$props" > /dev/null 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -f "$props"' EXIT
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:$port/ping" >/dev/null 2>&1 && break
  sleep 0.05
done
wrk -t2 -c50 -d2s "http://127.0.0.1:$port/ping" > /dev/null  # warm-up
for i in $(seq "$runs"); do
  echo "run $i:"
  wrk -t2 -c50 -d"${seconds}s" "http://127.0.0.1:$port/ping"
done
