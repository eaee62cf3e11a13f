#!/usr/bin/env bash
# Starts and stops the AMQP 1.0 brokers the amqp component's tests and benchmark talk to,
# as plain background processes on 127.0.0.1 (no init scripts, no systemd):
#   - RabbitMQ with its rabbitmq_amqp1_0 plugin (one-way, exclusive replies, consumers,
#     redelivery, reconnect): port $DROMEDARY_RABBITMQ_PORT (25680);
#   - Qpid Proton's example broker, compiled from Debian's examples package (temporary,
#     i.e. dynamic, reply queues, which RabbitMQ lacks): port $DROMEDARY_PROTON_BROKER_PORT
#     (25682).
# Usage: scripts/amqp-brokers.sh start|stop|restart-rabbitmq|stop-rabbitmq|start-rabbitmq|
#        delete-queue NAME | rabbitmq-connections
# State (data, logs, PIDs) lives in $DROMEDARY_BROKER_DIR (default /tmp/dromedary-brokers);
# everything started is stopped by PID. Installs the packages when missing (needs root).
set -euo pipefail
DIR=${DROMEDARY_BROKER_DIR:-/tmp/dromedary-brokers}
RABBIT_PORT=${DROMEDARY_RABBITMQ_PORT:-25680}
RABBIT_DIST_PORT=$((RABBIT_PORT + 1))
PROTON_PORT=${DROMEDARY_PROTON_BROKER_PORT:-25682}
EXAMPLES=/usr/share/proton/examples/cpp

install_packages() {
  local missing=()
  for p in rabbitmq-server libqpid-proton-cpp12-dev libqpid-proton11-dev-examples g++; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

rabbit_env() {
  export HOME=$DIR/rabbit/home RABBITMQ_NODENAME=dromedary-test@localhost \
    RABBITMQ_CONFIG_FILE=$DIR/rabbit/rabbitmq.conf \
    RABBITMQ_ENABLED_PLUGINS_FILE=$DIR/rabbit/enabled_plugins \
    RABBITMQ_MNESIA_BASE=$DIR/rabbit/mnesia RABBITMQ_LOG_BASE=$DIR/rabbit/log \
    RABBITMQ_PID_FILE=$DIR/rabbit/rabbitmq.pid RABBITMQ_DIST_PORT=$RABBIT_DIST_PORT \
    ERL_EPMD_ADDRESS=127.0.0.1 ERL_EPMD_PORT=${DROMEDARY_EPMD_PORT:-25683} \
    RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}" \
    PATH=/usr/lib/rabbitmq/bin:$PATH
}

start_rabbitmq() {
  mkdir -p "$DIR/rabbit/home" "$DIR/rabbit/mnesia" "$DIR/rabbit/log"
  echo '[rabbitmq_amqp1_0].' > "$DIR/rabbit/enabled_plugins"
  printf 'listeners.tcp.1 = 127.0.0.1:%s\nloopback_users = none\n' "$RABBIT_PORT" \
    > "$DIR/rabbit/rabbitmq.conf"
  (rabbit_env; rabbitmq-server > "$DIR/rabbit/console.log" 2>&1 &)
  (
    rabbit_env
    for _ in $(seq 1 240); do
      rabbitmqctl -q await_startup --timeout 60 > /dev/null 2>&1 && exit 0
      sleep 0.25
    done
    echo "RabbitMQ did not start; see $DIR/rabbit/console.log" >&2
    exit 1
  )
}

stop_rabbitmq() {
  [ -f "$DIR/rabbit/rabbitmq.pid" ] || return 0
  local pid
  pid=$(cat "$DIR/rabbit/rabbitmq.pid")
  (rabbit_env; rabbitmqctl -q stop > /dev/null 2>&1) || kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 120); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$DIR/rabbit/rabbitmq.pid"
}

stop_epmd() {
  # The Erlang port mapper the first node spawned outlives the broker: stop it by PID.
  local port=${DROMEDARY_EPMD_PORT:-25683} pid
  pid=$(ss -ltnpH "sport = :$port" 2>/dev/null | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2)
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi
}

start_proton_broker() {
  mkdir -p "$DIR/proton"
  local bin=$DIR/proton/broker
  if [ ! -x "$bin" ] || [ "$EXAMPLES/broker.cpp" -nt "$bin" ]; then
    g++ -std=c++17 -O1 -I"$EXAMPLES" "$EXAMPLES/broker.cpp" -o "$bin" -lqpid-proton-cpp -lpthread
  fi
  "$bin" -a "127.0.0.1:$PROTON_PORT" > "$DIR/proton/console.log" 2>&1 &
  echo $! > "$DIR/proton/broker.pid"
  for _ in $(seq 1 100); do
    grep -q "listening" "$DIR/proton/console.log" 2>/dev/null && return 0
    sleep 0.05
  done
  echo "the Proton example broker did not start; see $DIR/proton/console.log" >&2
  return 1
}

stop_proton_broker() {
  [ -f "$DIR/proton/broker.pid" ] || return 0
  kill "$(cat "$DIR/proton/broker.pid")" 2>/dev/null || true
  rm -f "$DIR/proton/broker.pid"
}

case "${1:-}" in
  start)
    install_packages
    stop_proton_broker; stop_rabbitmq
    rm -rf "$DIR/rabbit/mnesia"  # a fresh broker: no queues left from an earlier run
    start_proton_broker
    start_rabbitmq
    echo "brokers ready: RabbitMQ amqp://127.0.0.1:$RABBIT_PORT, Proton broker amqp://127.0.0.1:$PROTON_PORT"
    ;;
  stop) stop_proton_broker; stop_rabbitmq; stop_epmd ;;
  stop-rabbitmq) stop_rabbitmq ;;
  start-rabbitmq) start_rabbitmq ;;
  restart-rabbitmq) stop_rabbitmq; start_rabbitmq ;;
  delete-queue)
    # Deletes a RabbitMQ queue while it is consumed (tests of a link the broker takes away).
    (rabbit_env; rabbitmqctl -q delete_queue "${2:?usage: $0 delete-queue NAME}") ;;
  rabbitmq-connections)
    # How many TCP connections RabbitMQ's AMQP port has now (as the kernel sees them:
    # rabbitmqctl does not list the AMQP 1.0 plugin's connections).
    ss -tnH state established "( sport = :$RABBIT_PORT )" | grep -c . || true ;;
  *) echo "usage: $0 start|stop|start-rabbitmq|stop-rabbitmq|restart-rabbitmq|delete-queue NAME|rabbitmq-connections" >&2; exit 2 ;;
esac
