#!/usr/bin/env bash
# make bench: runs every benchmark program (build/bin/dromedary_bench_*), writes Google
# Benchmark JSON to build/bench/*.json, then prints one markdown table beside Camel's figures,
# and the mt_10 scaling figures measured in alternating 1- and 2-thread slices.
set -euo pipefail
build=${1:-build}
mkdir -p "$build/bench"
reps=${BENCH_REPETITIONS:-5}
for program in "$build"/bin/dromedary_bench_*; do
  name=$(basename "$program")
  echo "running $name ($reps repetitions)..." >&2
  "$program" --benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true \
    --benchmark_out="$build/bench/$name.json" --benchmark_out_format=json > /dev/null
done
python3 "$(dirname "$0")/../bench/report.py" "$build"/bench/*.json
echo
for scenario in mt_10 mt_10_stats; do
  "$build/bin/dromedary_bench_routing" --scaling="$scenario" --pairs="${BENCH_PAIRS:-20}"
done
echo
# Kafka through routes beside librdkafka's bare clients (its own test cluster, no service).
if [ -x "$build/bin/dromedary_kafka_bench" ]; then
  "$build/bin/dromedary_kafka_bench" --records 100000 --cluster "$build/bin/dromedary-kafka-cluster"
fi
# SQL through routes beside a bare libpq client and pgbench, on a private PostgreSQL server.
if [ -x "$build/bin/dromedary_sql_bench" ]; then
  export DROMEDARY_PG_DIR=/tmp/dromedary-postgresql-bench DROMEDARY_PG_PORT=25433
  "$(dirname "$0")/postgresql.sh" start > /dev/null
  "$build/bin/dromedary_sql_bench" --url "$("$(dirname "$0")/postgresql.sh" url)" || true
  "$(dirname "$0")/postgresql.sh" stop
fi
