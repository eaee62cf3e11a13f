#!/usr/bin/env bash
# The dromedary command as a user runs it: exit codes, limits, signals, error messages.
#   tests/cli/cli_test.sh BUILD_BIN_DIR SOURCE_DIR
set -uo pipefail
bin="$(cd "$1" && pwd)/dromedary"
src="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
# A port free on loopback now (the kernel's choice; a fixed one may be a broker's beside).
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
failed_checks=()
# A failed check shows the end of the last run's output ($tmp/out, where most checks read): CI
# keeps only this test's output, and a failure that does not repeat must explain itself.
check() {  # check NAME CONDITION-EXIT-CODE
  if [ "$2" -eq 0 ]; then echo "ok   $1"; return; fi
  echo "FAIL $1"
  failures=$((failures + 1))
  failed_checks+=("$1")
  if [ -f "$tmp/out" ]; then echo "--- the last 40 lines of $tmp/out:"; tail -n 40 "$tmp/out"; echo "---"; fi
}

# validate: every example is valid; a broken file fails with exit 1 and file:line:column.
"$bin" validate "$src/examples/hello" "$src/examples/spring-xml" "$src/examples/error-handling" \
  "$src/examples/batch-orders" "$src/examples/templates" "$src/examples/rest" \
  "$src/examples/file-drop" "$src/examples/kamelets" "$src/examples/http-client" \
  "$src/examples/kafka" "$src/examples/sql" > "$tmp/out" 2>&1
check "validate examples exits 0" $?
cat > "$tmp/broken.yaml" <<'YAML'
- from:
    uri: direct:a
    steps:
      - setheader:
          name: x
          constant: y
YAML
"$bin" validate "$tmp/broken.yaml" > "$tmp/out" 2>&1
code=$?
[ $code -eq 1 ]; check "validate broken file exits 1 (got $code)" $?
grep -q "unknown step 'setheader' at $tmp/broken.yaml:4:9; did you mean 'setHeader'?" "$tmp/out"
check "validate prints file:line:column and a suggestion" $?
cat > "$tmp/badoption.yaml" <<'YAML'
- from:
    uri: direct:a
    steps:
      - to: "direct:b?timout=5"
YAML
"$bin" validate "$tmp/badoption.yaml" > "$tmp/out" 2>&1
code=$?
[ $code -eq 1 ] && grep -q "badoption.yaml:4:9: unknown option 'timout'" "$tmp/out"
check "validate resolves endpoints (bad option at file:line:column)" $?

# run --max-messages and --max-seconds end with exit 0.
timeout 60 "$bin" run "$src/examples/hello" --max-messages 4 > "$tmp/out" 2>&1
code=$?
[ $code -eq 0 ] && grep -q "stopping: --max-messages 4 reached" "$tmp/out"
check "run --max-messages exits 0 (got $code)" $?
grep -q "Hello from Dromedary #1" "$tmp/out"
check "run reads application.properties beside the routes" $?
# What the command line gives wins over application.properties: --properties, then --prop.
printf 'hello.greeting = from a file\nhello.period = 100\n' > "$tmp/override.properties"
timeout 60 "$bin" run "$src/examples/hello" --max-messages 2 --properties "$tmp/override.properties" \
  > "$tmp/out" 2>&1
grep -q "Hello from a file #1" "$tmp/out"
check "run --properties wins over application.properties" $?
timeout 60 "$bin" run "$src/examples/hello" --max-messages 2 --properties "$tmp/override.properties" \
  --prop "hello.greeting=from the command line" > "$tmp/out" 2>&1
grep -q "Hello from the command line #1" "$tmp/out"
check "run --prop wins over every properties file" $?
"$bin" validate "$src/examples/hello" --prop novalue > "$tmp/out" 2>&1
code=$?
[ $code -ne 0 ] && grep -q "\-\-prop expects KEY=VALUE, not 'novalue'" "$tmp/out"
check "a --prop without = is refused (got $code)" $?
timeout 60 "$bin" run "$src/examples/spring-xml" --max-seconds 0.5 > "$tmp/out" 2>&1
code=$?
[ $code -eq 0 ] && grep -q "stopping: --max-seconds 0.5 reached" "$tmp/out"
check "run --max-seconds exits 0 (got $code)" $?
grep -q 'ignored <bean id="jmsConnectionFactory">' "$tmp/out"
check "run reports the Spring beans it skipped" $?

# The error-handling example: onException rejects, redelivery then the dead letter queue.
timeout 60 "$bin" run "$src/examples/error-handling" --max-messages 7 > "$tmp/out" 2>&1
code=$?
[ $code -eq 0 ] && grep -q "order 3 rejected: Cannot convert body" "$tmp/out" &&
  grep -q "dead letter: 5 (No consumers available on endpoint: direct://warehouse)" "$tmp/out"
check "run examples/error-handling: onException and the dead letter channel (got $code)" $?

# The split/aggregate example: lines of each document logged, then put back together.
timeout 60 "$bin" run "$src/examples/batch-orders" --max-messages 3 > "$tmp/out" 2>&1
code=$?
[ $code -eq 0 ] && grep -q "line 0 of 3 in batch 1: A-1,1" "$tmp/out" &&
  grep -qF 'batch 1 complete (size): ["A-1,1","B-1,2","C-1,3"]' "$tmp/out"
check "run examples/batch-orders: split then aggregate (got $code)" $?

# The file example, in a folder of its own: files written, picked up once complete, written
# again to the outbox, and moved to .done only after that.
mkdir -p "$tmp/file-drop"
(cd "$tmp/file-drop" && timeout 60 "$bin" run "$src/examples/file-drop" --max-messages 6) \
  > "$tmp/out" 2>&1
code=$?
[ $code -eq 0 ] && grep -q "picked up order-1.csv (14 bytes" "$tmp/out" &&
  [ "$(cat "$tmp/file-drop/target/file-drop/outbox/order-1.txt")" = "$(printf 'sku,qty\nA-1,1')" ] &&
  [ -f "$tmp/file-drop/target/file-drop/inbox/.done/order-1.csv" ]
check "run examples/file-drop: files in, out, and moved once done (got $code)" $?

# The sql example on a fresh SQLite file: orders stored, each shipped once (onConsume), and a
# second run ships only the new ones.
SHOP_DB="$tmp/shop.db" timeout 60 "$bin" run "$src/examples/sql" --max-messages 10 > "$tmp/out" 2>&1
code=$?
[ $code -eq 0 ] && grep -q "shipping order 1: widget" "$tmp/out" &&
  [ "$(grep -c "shipping order 1:" "$tmp/out")" = 1 ]
check "run examples/sql: orders stored in SQLite and each shipped once (got $code)" $?

# The Kamelets example: a Pipe and a route made of shipped Kamelets and one of its own, with a
# property from application.properties.
timeout 60 "$bin" run "$src/examples/kamelets" --max-messages 12 > "$tmp/out" 2>&1
code=$?
[ $code -eq 0 ] && grep -q "Started hello-pipe (kamelet://timer-source/timer-source-1)" "$tmp/out" &&
  grep -q "Headers: {Content-Type=text/plain, via=insert-header-action-1}, BodyType: String, Body: Hello Dromedary!]" "$tmp/out" &&
  grep -q "route : Exchange\[ExchangePattern: InOnly, BodyType: String, Body: Bonjour tick!\]" "$tmp/out"
check "run examples/kamelets: a Pipe and a route of Kamelets (got $code)" $?
# The http client example: a route calling an API this process serves, a 404 handled.
http_port=$(free_port)
HTTP_PORT=$http_port timeout 60 "$bin" run "$src/examples/http-client" --max-messages 6 \
  > "$tmp/out" 2>&1
code=$?
[ $code -eq 0 ] && [ "$(grep -c "tea: 12 in stock (HTTP 200)" "$tmp/out")" -eq 2 ] &&
  [ "$(grep -c "no such item rum: HTTP 404, unknown item rum" "$tmp/out")" -eq 2 ]
check "run examples/http-client: JSON from an HTTP API, a 404 handled (got $code)" $?
# The Kafka example against the test cluster (librdkafka's mock cluster, stopped by PID):
# orders keyed by customer, billed through a consumer group, audited with their place.
"$(dirname "$bin")/dromedary-kafka-cluster" --topic orders:3 --topic invoices:3 \
  --bootstrap-file "$tmp/kafka.txt" < /dev/null > /dev/null 2>&1 &
kafka_pid=$!
for _ in $(seq 100); do [ -s "$tmp/kafka.txt" ] && break; sleep 0.1; done
KAFKA_BROKERS=$(cat "$tmp/kafka.txt") timeout 60 "$bin" run "$src/examples/kafka" \
  --max-messages 15 > "$tmp/out" 2>&1
code=$?
kill "$kafka_pid"; wait "$kafka_pid" 2>/dev/null
[ $code -eq 0 ] && [ "$(grep -c "audit : invoice for order [1-5] (customer-[1-5]) from invoices" "$tmp/out")" -eq 5 ]
check "run examples/kafka: orders billed through a consumer group (got $code)" $?
# The same cluster through Kamelets: a Pipe from timer-source to kafka-not-secured-sink and
# one from kafka-source (no authentication) to log-sink.
mkdir -p "$tmp/kafka-pipes"
cat > "$tmp/kafka-pipes/in.yaml" <<'YAML'
apiVersion: camel.apache.org/v1
kind: Pipe
metadata:
  name: ticks-in
spec:
  source:
    ref: {kind: Kamelet, apiVersion: camel.apache.org/v1, name: timer-source}
    properties: {message: tick, period: 100, repeatCount: 3}
  sink:
    ref: {kind: Kamelet, apiVersion: camel.apache.org/v1, name: kafka-not-secured-sink}
    properties: {topic: orders, bootstrapServers: "{{env:KAFKA_BROKERS}}"}
YAML
cat > "$tmp/kafka-pipes/out.yaml" <<'YAML'
apiVersion: camel.apache.org/v1
kind: Pipe
metadata:
  name: ticks-out
spec:
  source:
    ref: {kind: Kamelet, apiVersion: camel.apache.org/v1, name: kafka-source}
    properties: {topic: orders, bootstrapServers: "{{env:KAFKA_BROKERS}}", consumerGroup: pipes, autoOffsetReset: earliest}
  sink:
    ref: {kind: Kamelet, apiVersion: camel.apache.org/v1, name: log-sink}
YAML
rm -f "$tmp/kafka.txt"
"$(dirname "$bin")/dromedary-kafka-cluster" --topic orders:2 --bootstrap-file "$tmp/kafka.txt" \
  < /dev/null > /dev/null 2>&1 &
kafka_pid=$!
for _ in $(seq 100); do [ -s "$tmp/kafka.txt" ] && break; sleep 0.1; done
# Eighteen route completions: each of the three ticks completes three routes into the topic
# (the Pipe's, the timer Kamelet's, the sink Kamelet's) and three out of it to the log. Not a
# time limit: joining the group can take seconds on a loaded machine.
KAFKA_BROKERS=$(cat "$tmp/kafka.txt") timeout 60 "$bin" run "$tmp/kafka-pipes" --max-messages 18 \
  > "$tmp/out" 2>&1
code=$?
kill "$kafka_pid"; wait "$kafka_pid" 2>/dev/null
[ $code -eq 0 ] && [ "$(grep -c "log-sink : Exchange.*Body: tick" "$tmp/out")" -eq 3 ]
check "run Pipes of the Kafka Kamelets: timer -> kafka-not-secured-sink, kafka-source -> log (got $code)" $?
"$bin" kamelets --kamelets "$src/examples/kamelets" greeter-action > "$tmp/out" 2>&1 &&
  grep -q "| greeting | string |  | yes | The word before the name. |" "$tmp/out" &&
  "$bin" kamelets > "$tmp/out" 2>&1 && grep -q "| timer-source | source | Timer Source |" "$tmp/out"
check "kamelets lists the shipped Kamelets and one's properties" $?

# The templates example: two routes from one template; pollEnrich takes their readings.
timeout 60 "$bin" run "$src/examples/templates" --max-messages 12 > "$tmp/out" 2>&1
code=$?
[ $code -eq 0 ] && grep -q "loaded 3 routes from 1 file" "$tmp/out" &&
  grep -q "Started cellar (timer://cellar?delay=0&includeMetadata=true&period=150)" "$tmp/out" &&
  grep -Eq "report: (kitchen reading 1 C|cellar reading 1 F)" "$tmp/out"
check "run examples/templates: templated routes and pollEnrich (got $code)" $?

# The REST example: rest verbs on platform-http, answered over a real socket (bash's
# /dev/tcp: no HTTP client needed). --max-messages counts route completions: 2 per request
# (the rest route and its direct route) and the seda route of the POST: 7.
http() {  # http PORT METHOD PATH [BODY]: the raw response
  local body="${4:-}"
  exec 3<>"/dev/tcp/127.0.0.1/$1" || return 1
  printf '%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %s\r\nConnection: close\r\n\r\n%s' \
    "$2" "$3" "${#body}" "$body" >&3
  cat <&3
  exec 3<&-
}
rest_port=$(free_port)
REST_PORT=$rest_port timeout 60 "$bin" run "$src/examples/rest" --max-messages 7 > "$tmp/rest" 2>&1 &
rest=$!
for _ in $(seq 300); do  # up to 30 s to start listening on a loaded machine
  http $rest_port GET /api/orders/7 > "$tmp/get" 2>/dev/null && break
  sleep 0.1
done
http $rest_port GET /api/orders/abc > "$tmp/bad" 2>/dev/null
http $rest_port POST /api/orders '{"item": "tea"}' > "$tmp/post" 2>/dev/null
wait $rest
code=$?
[ $code -eq 0 ] && grep -q '{"id": 7, "status": "shipped"}' "$tmp/get" &&
  grep -q "HTTP/1.1 400 Bad Request" "$tmp/bad" && grep -q "HTTP/1.1 201 Created" "$tmp/post" &&
  grep -q 'processing order {"item": "tea"}' "$tmp/rest"
ok=$?; [ $ok -eq 0 ] || { echo "--- rest run:"; cat "$tmp/rest"; echo "--- get:"; cat "$tmp/get"; echo "--- bad:"; cat "$tmp/bad"; echo "--- post:"; cat "$tmp/post"; }
check "run examples/rest: GET, a 400 and a POST over HTTP (got $code)" $ok

# The management API: run --management-port, then `get` reads it; a dead URL exits 1.
port=$(free_port)
timeout 60 "$bin" run "$src/examples/hello" --management-port $port \
  > "$tmp/run-mgmt" 2>&1 &
mgmt=$!
for _ in $(seq 300); do
  "$bin" get health --url "http://127.0.0.1:$port" > "$tmp/health" 2>&1 && break
  sleep 0.1
done
grep -q "^UP$" "$tmp/health"
check "get health reads the management API (UP)" $?
"$bin" get routes --url "http://127.0.0.1:$port" > "$tmp/routes" 2>&1
code=$?
[ $code -eq 0 ] && grep -q "^hello .*Started" "$tmp/routes"
check "get routes prints the routes table (got $code)" $?
kill -s TERM $mgmt
wait $mgmt
"$bin" run "$src/examples/hello" --management-port 70000 > "$tmp/out" 2>&1
code=$?
[ $code -eq 2 ] && grep -q "management-port must be within 1..65535, not 70000" "$tmp/out"
check "a management port out of range is a usage error (got $code)" $?
"$bin" get routes --url "http://127.0.0.1:$port" > "$tmp/routes" 2>&1
code=$?
[ $code -eq 1 ] && grep -q "cannot reach http://127.0.0.1:$port" "$tmp/routes"
check "get against nothing exits 1 (got $code)" $?

# SIGTERM and SIGINT stop gracefully with exit 0.
for sig in TERM INT; do
  "$bin" run "$src/examples/hello" > "$tmp/out" 2>&1 &
  pid=$!
  for _ in $(seq 600); do grep -q "started in" "$tmp/out" && break; sleep 0.05; done
  kill -s $sig $pid
  wait $pid
  code=$?
  [ $code -eq 0 ] && grep -q "stopping: SIG$sig" "$tmp/out" && grep -q "shutdown in" "$tmp/out"
  check "run stops gracefully on SIG$sig (got $code)" $?
done

# SIGTERM while an exchange is in flight (parked in a delay): the stop waits for it.
cat > "$tmp/slow.yaml" <<'YAML'
- from:
    uri: timer:slow?delay=0&repeatCount=1
    steps:
      - log: "started"
      - delay:
          constant: 1500
      - log: "finished after the delay"
YAML
"$bin" run "$tmp/slow.yaml" > "$tmp/out" 2>&1 &
pid=$!
# Up to 30 s for the route to start: a loaded machine (a build beside it) has taken over 5.
for _ in $(seq 600); do grep -q "started" "$tmp/out" && break; sleep 0.05; done
kill -s TERM $pid
wait $pid
code=$?
[ $code -eq 0 ] && grep -q "finished after the delay" "$tmp/out"
check "SIGTERM drains the in-flight exchange before exiting (got $code)" $?

# A route that does not start: exit 1 and the reason.
cat > "$tmp/nostart.yaml" <<'YAML'
- from:
    uri: "timer:x?period=0"
YAML
"$bin" run "$tmp/nostart.yaml" > "$tmp/out" 2>&1
code=$?
[ $code -eq 1 ] && grep -q "period must be positive" "$tmp/out"
check "run exits 1 when a route does not start (got $code)" $?

# Without paths, run reads the current folder, as Camel JBang's `camel run` does.
mkdir -p "$tmp/empty" "$tmp/here"
(cd "$tmp/empty" && "$bin" run > "$tmp/out" 2>&1)
code=$?
[ $code -eq 1 ] && grep -q "no route files (\*.yaml, \*.yml, \*.xml) in '.'" "$tmp/out"
check "run without files in an empty folder exits 1 saying so (got $code)" $?
cp "$src/examples/hello/"* "$tmp/here/"
(cd "$tmp/here" && timeout 60 "$bin" run --max-messages 2 > "$tmp/out" 2>&1)
code=$?
[ $code -eq 0 ] && grep -q "Hello from Dromedary #1" "$tmp/out"
check "run without files runs the current folder's (got $code)" $?

# Usage errors exit 2.
"$bin" run "$src/examples/hello" --log-level LOUD > /dev/null 2>&1
code=$?
[ $code -eq 2 ]; check "an unknown log level exits 2 (got $code)" $?

[ $failures -eq 0 ] || { echo "$failures check(s) failed:"; printf '  %s\n' "${failed_checks[@]}"; exit 1; }
