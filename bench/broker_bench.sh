#!/usr/bin/env bash
# Runs the broker benchmark (bench/broker_request_reply.cc) against the test brokers that
# scripts/amqp-brokers.sh starts on loopback, then stops them.
#   bench/broker_bench.sh [BUILD_DIR] [-- extra arguments, e.g. --batches 50]
# Default: Qpid Proton's example broker (BROKER=proton); BROKER=rabbitmq for RabbitMQ.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
shift || true
[ "${1:-}" = "--" ] && shift
export DROMEDARY_BROKER_DIR=${DROMEDARY_BROKER_DIR:-$build/brokers}
"$root/scripts/amqp-brokers.sh" start > /dev/null
trap '"$root/scripts/amqp-brokers.sh" stop' EXIT
if [ "${BROKER:-proton}" = rabbitmq ]; then
  args=(--url "amqp://127.0.0.1:${DROMEDARY_RABBITMQ_PORT:-25680}" --queue-prefix /queue/)
else
  args=(--url "amqp://127.0.0.1:${DROMEDARY_PROTON_BROKER_PORT:-25682}")
fi
"$build/bin/dromedary_broker_bench" "${args[@]}" "$@"
