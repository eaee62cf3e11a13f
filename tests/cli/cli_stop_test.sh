#!/usr/bin/env bash
# Stopping the dromedary process as an operator does: signals while it loads, a shutdown that
# keeps its timeout (camel.main.shutdownTimeout) and says what it left, a second signal that
# forces the stop.
#   tests/cli/cli_stop_test.sh BUILD_BIN_DIR
set -uo pipefail
bin="$(cd "$1" && pwd)/dromedary"
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -9 $pid 2>/dev/null; rm -rf "$tmp"' EXIT
failures=0
check() {  # check NAME EXIT-CODE
  if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1"; failures=$((failures + 1)); fi
}
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
under() { awk -v t="$1" -v limit="$2" 'BEGIN { exit !(t < limit) }'; }  # under SECONDS LIMIT
# SIGTERM to $pid and wait for it: its exit code in $code, the seconds it took in $took.
terminate() {
  local start
  start=$(now)
  kill -s TERM $pid
  wait $pid
  code=$?
  took=$(elapsed "$start")
  pid=
}

# A route file large enough that loading it takes a while (20,000 routes).
python3 - "$tmp/big/routes.yaml" <<'PY'
import os, sys
os.makedirs(os.path.dirname(sys.argv[1]), exist_ok=True)
with open(sys.argv[1], "w") as f:
    for i in range(20000):
        f.write(f"- route:\n    id: r{i}\n    from:\n      uri: direct:r{i}\n      steps:\n"
                f"        - setHeader:\n            name: n\n"
                f"            simple: \"${{body}} {i}\"\n"
                f"        - log: \"${{header.n}}\"\n")
PY
for command in validate run; do
  "$bin" $command "$tmp/big" > "$tmp/out" 2>&1 &
  pid=$!
  sleep 0.3
  terminate
  [ $code -eq 143 ] && under "$took" 1 &&
    grep -q "SIGTERM before the routes started: stopped" "$tmp/out"
  check "$command stops on SIGTERM while it loads (exit $code after ${took}s)" $?
done

# A timer feeding a seda: route slower than it: the timer stops first, the queue drains until
# camel.main.shutdownTimeout (2 s), then what is left is reported by route and the process
# exits 1 (a forced stop), within the timeout and a second.
mkdir -p "$tmp/slow"
cat > "$tmp/slow/routes.yaml" <<'YAML'
- route:
    id: feed
    from:
      uri: timer:t?period=1&delay=0
      steps:
        - to: seda:q
- route:
    id: slow
    from:
      uri: seda:q
      steps:
        - delay:
            constant: 200
YAML
echo "camel.main.shutdownTimeout=2" > "$tmp/slow/application.properties"
"$bin" run "$tmp/slow" > "$tmp/out" 2>&1 &
pid=$!
sleep 1
terminate
[ $code -eq 1 ] && under "$took" 3
check "a stop keeps camel.main.shutdownTimeout=2 (exit $code after ${took}s)" $?
grep -q "route slow had [0-9]* inflight and pending exchanges; [0-9]* queued were left" \
  "$tmp/out"
check "what the timeout left is reported by route" $?
echo "camel.main.shutdownTimeout=soon" > "$tmp/slow/application.properties"
"$bin" run "$tmp/slow" > "$tmp/out" 2>&1
code=$?
[ $code -eq 1 ] && grep -q "camel.main.shutdownTimeout must be whole seconds" "$tmp/out"
check "a bad camel.main.shutdownTimeout is refused (exit $code)" $?

# A second SIGTERM during the graceful stop forces it.
cat > "$tmp/parked.yaml" <<'YAML'
- from:
    uri: timer:slow?delay=0&repeatCount=1
    steps:
      - log: "exchange parked"
      - delay:
          constant: 30000
YAML
"$bin" run "$tmp/parked.yaml" > "$tmp/out" 2>&1 &
pid=$!
# The route's own line: "started" also matched the context's startup lines, and under load the
# stop then came before the timer had fired (nothing in flight: exit 0).
for _ in $(seq 200); do grep -q "exchange parked" "$tmp/out" && break; sleep 0.05; done
kill -s TERM $pid
sleep 0.3
terminate
[ $code -eq 1 ] && under "$took" 1 &&
  grep -q "SIGTERM during the graceful stop: forced" "$tmp/out"
check "a second SIGTERM during the stop forces it (exit $code after ${took}s)" $?

[ $failures -eq 0 ] || { echo "$failures check(s) failed"; cat "$tmp/out"; exit 1; }
