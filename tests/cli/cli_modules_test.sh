#!/usr/bin/env bash
# Component modules as the dromedary program uses them (docs/modules.md): the program does not
# link the heavy libraries, loads a module when a route first uses its scheme, and says which
# module is missing, and where it looked, at the route's file:line:column.
#   tests/cli/cli_modules_test.sh BUILD_BIN_DIR MODULE_DIR SOURCE_DIR
set -uo pipefail
bin="$(cd "$1" && pwd)/dromedary"
modules_dir="$(cd "$2" && pwd)"
src="$3"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
check() {  # check NAME CONDITION-EXIT-CODE
  if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1"; failures=$((failures + 1)); fi
}

# The program itself needs none of the modules' libraries.
libs=$(ldd "$bin")
! grep -Eq "libcurl|libpq|librdkafka|libqpid-proton|libgnutls|libkrb5" <<<"$libs"
check "the program links no module's library" $?
for m in amqp httpclient kafka sql stream; do
  [ -f "$modules_dir/dromedary-$m.so" ]
  check "the module dromedary-$m.so is built" $?
done

# A route of in-process components maps no module's library; one that calls out over HTTP does.
cat > "$tmp/local.yaml" <<'YAML'
- from:
    uri: timer:tick?period=50
    steps:
      - log: "tick ${header.CamelTimerCounter}"
YAML
cat > "$tmp/remote.yaml" <<'YAML'
- from:
    uri: timer:tick?period=50&repeatCount=1
    steps:
      - to: "http://127.0.0.1:9/never?throwExceptionOnFailure=false"
YAML
maps_of() {  # maps_of FILE: the shared objects a running `dromedary run FILE` has mapped
  "$bin" run "$1" --max-seconds 3 > "$tmp/run.out" 2>&1 &
  local pid=$!
  sleep 1
  cat "/proc/$pid/maps" > "$tmp/maps"
  kill "$pid" 2> /dev/null
  wait "$pid" 2> /dev/null
  cat "$tmp/maps"
}
! maps_of "$tmp/local.yaml" | grep -Eq "libcurl|dromedary-httpclient"
check "a route of in-process components loads no module" $?
maps_of "$tmp/remote.yaml" | grep -q "dromedary-httpclient.so"
check "a route that calls out over HTTP loads the httpclient module" $?

# Memory: validating one route takes ~10 MB, not the ~18 MB it took with every library linked.
kb=$( { /usr/bin/time -f '%M' "$bin" validate "$tmp/local.yaml" > /dev/null; } 2>&1 | tail -1)
[ "$kb" -lt 14000 ]
check "validate of one route peaks under 14 MB (${kb} KB)" $?

# Listing a module's component loads it for its options.
"$bin" components kafka > "$tmp/out" 2>&1
check "components kafka lists the module's options" $?
grep -q "brokers" "$tmp/out"
check "components kafka names the brokers option" $?

# The program copied alone: in-process routes still run; a module's route fails at its line,
# naming the module and the folders searched; DROMEDARY_MODULE_PATH names the folder.
mkdir -p "$tmp/alone/bin"
cp "$bin" "$tmp/alone/bin/"
cat > "$tmp/kafka.yaml" <<'YAML'
- from:
    uri: direct:in
    steps:
      - to: kafka:orders?brokers=127.0.0.1:9092
YAML
"$tmp/alone/bin/dromedary" validate "$tmp/local.yaml" > "$tmp/out" 2>&1
check "the program alone validates in-process routes" $?
"$tmp/alone/bin/dromedary" validate "$tmp/kafka.yaml" > "$tmp/out" 2>&1
code=$?
[ $code -eq 1 ] && grep -q "kafka.yaml:4:9" "$tmp/out" \
  && grep -q "the module dromedary-kafka.so is in none of the module folders" "$tmp/out"
check "a missing module fails at the route's line, naming the module (exit $code)" $?
DROMEDARY_MODULE_PATH="$modules_dir" "$tmp/alone/bin/dromedary" validate "$tmp/kafka.yaml" \
  > "$tmp/out" 2>&1
check "DROMEDARY_MODULE_PATH names the modules' folder" $?

# The modules' exception types are the program's own: a clause naming them compiles without
# any module (routes written for Camel's error handling of http, sql and kafka).
cat > "$tmp/onexception.yaml" <<'YAML'
- routeConfiguration:
    onException:
      - onException:
          exception:
            - org.apache.camel.http.base.HttpOperationFailedException
            - java.sql.SQLException
            - org.apache.kafka.common.KafkaException
          handled: {constant: true}
          steps:
            - log: "failed: ${exception.message}"
- from:
    uri: timer:tick?period=50
    steps:
      - log: "tick"
YAML
"$tmp/alone/bin/dromedary" validate "$tmp/onexception.yaml" > "$tmp/out" 2>&1
check "onException names the modules' exception types without their modules" $?

# Every example that uses a module validates (each loads its module).
"$bin" validate "$src/examples/kafka" "$src/examples/sql" "$src/examples/http-client" \
  > "$tmp/out" 2>&1
check "the examples that use modules validate" $?

[ $failures -eq 0 ] && echo "all passed" || echo "$failures failed"
exit $((failures > 0))
