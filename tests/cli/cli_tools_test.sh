#!/usr/bin/env bash
# The dromedary command's tools as a user runs them: version, init, the man pages and the bash
# completion (both printed from the CLI's definition: checked against --help here), and
# `run --dev` reloading routes on save.
#   tests/cli/cli_tools_test.sh BUILD_BIN_DIR
set -uo pipefail
bin="$(cd "$1" && pwd)/dromedary"
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
failures=0
check() {  # check NAME EXIT-CODE
  if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1"; failures=$((failures + 1)); fi
}

# version: one line; --json with the build's metadata.
"$bin" version | grep -Eq "^dromedary [0-9]+\.[0-9]+\.[0-9]+ \(commit [^)]+\)$"
check "version prints version and commit" $?
"$bin" version --json > "$tmp/v.json"
python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))
for key in ("version", "commit", "compiler", "buildType", "system", "components", "languages"):
    assert key in v, key
assert "timer" in v["components"] and "kafka" in v["components"], v["components"]
assert "simple" in v["languages"]
assert v["modules"]["kafka"]["schemes"] == ["kafka"], v["modules"]
assert v["modules"]["kafka"]["file"].endswith("/dromedary-kafka.so"), v["modules"]
' "$tmp/v.json"
check "version --json has version, commit, compiler, build type and components" $?

# init: a working route file, YAML or XML by its name; never over an existing one.
(cd "$tmp" && "$bin" init orders.yaml > "$tmp/out" 2>&1)
check "init orders.yaml" $?
"$bin" validate "$tmp/orders.yaml" > /dev/null 2>&1; check "the YAML init writes is valid" $?
"$bin" init orders.xml --directory "$tmp/xml" > /dev/null 2>&1
"$bin" validate "$tmp/xml/orders.xml" > /dev/null 2>&1; check "the XML init writes is valid" $?
timeout 30 "$bin" run "$tmp/xml/orders.xml" --max-messages 1 > "$tmp/out" 2>&1
grep -q "Hello from orders" "$tmp/out"; check "the XML route runs" $?
(cd "$tmp" && "$bin" init orders.yaml > "$tmp/out" 2>&1)
code=$?
[ $code -eq 1 ] && grep -q "orders.yaml exists (--force replaces it)" "$tmp/out"
check "init refuses to overwrite (exit $code)" $?
"$bin" init orders.json > /dev/null 2>&1
[ $? -eq 2 ]; check "init refuses an extension that is not a route file's" $?

# Man pages: one per subcommand of --help, each naming every option its --help names.
"$bin" man "$tmp/man" > /dev/null; check "man writes the pages" $?
subcommands=$("$bin" --help | awk '/^Subcommands:/ {on=1; next} on && NF {print $1}')
[ -n "$subcommands" ]; check "--help lists subcommands" $?
for sub in $subcommands; do
  page="$tmp/man/dromedary-$sub.1"
  [ -f "$page" ] || { check "a man page for $sub" 1; continue; }
  sed 's/\\-/-/g' "$page" > "$tmp/page"
  missing=""
  for opt in $("$bin" "$sub" --help | grep -oE -- "--[a-z][a-z-]+" | sort -u); do
    grep -q -- "$opt" "$tmp/page" || missing="$missing $opt"
  done
  [ -z "$missing" ]; check "dromedary-$sub.1 names every option of '$sub --help'$missing" $?
  grep -q "^dromedary-$sub \\\\- " "$page" || grep -q "^dromedary\\\\-$sub \\\\- " "$page"
  check "dromedary-$sub.1 has a NAME line" $?
  grep -q "dromedary\\\\-$sub" "$tmp/man/dromedary.1"; check "dromedary.1 lists $sub" $?
done
pages=$(ls "$tmp/man" | grep -c "^dromedary-")
[ "$pages" -eq "$(echo "$subcommands" | wc -w)" ]
check "no man page for a subcommand --help does not list ($pages pages)" $?
if command -v man > /dev/null; then
  MANWIDTH=100 man -l "$tmp/man/dromedary-run.1" 2>&1 | grep -q -- "--max-messages"
  check "man renders dromedary-run.1" $?
fi

# Bash completion: subcommands, then each one's options.
"$bin" completion bash > "$tmp/completion.bash"; check "completion bash" $?
complete_words() {  # complete_words WORD... : what <TAB> offers after them
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _dromedary;
           echo "${COMPREPLY[*]}"' _ "$tmp/completion.bash" "$@"
}
[ "$(complete_words dromedary ru)" = "run" ]; check "completes a subcommand" $?
complete_words dromedary run --max | grep -q -- "--max-messages"
check "completes run's options" $?
[ "$(complete_words dromedary get he)" = "health" ]; check "completes get's choices" $?

# run --dev: an edit reloads the route; a broken edit is reported and the old route runs on.
cat > "$tmp/dev.yaml" <<'YAML'
- route:
    id: tick
    from:
      uri: timer:tick?period=50&delay=0
      steps:
        - log: "version one"
YAML
"$bin" run --dev "$tmp/dev.yaml" > "$tmp/dev.log" 2>&1 &
pid=$!
wait_for() {  # wait_for PATTERN: up to 10 s for it in the log
  for _ in $(seq 200); do grep -q -- "$1" "$tmp/dev.log" && return 0; sleep 0.05; done
  return 1
}
wait_for "version one"; check "run --dev starts the route" $?
sed -i 's/version one/version two/' "$tmp/dev.yaml"
wait_for "version two"; check "an edit reloads the route" $?
grep -q "reloaded in .* ms: changed tick; 0 kept" "$tmp/dev.log"; check "the reload is logged" $?
sed -i 's/log:/lgo:/' "$tmp/dev.yaml"
wait_for "the running routes are kept: unknown step 'lgo' at $tmp/dev.yaml:6:11"
check "a broken edit names file:line:column and keeps the route" $?
lines=$(grep -c "version two" "$tmp/dev.log"); sleep 0.3
[ "$(grep -c "version two" "$tmp/dev.log")" -gt "$lines" ]; check "the old route runs on" $?
sed -i 's/lgo:/log:/; s/version two/version three/' "$tmp/dev.yaml"
wait_for "version three"; check "the fixed file loads" $?
kill -s INT $pid; wait $pid; code=$?; pid=
[ $code -eq 0 ]; check "run --dev stops on SIGINT with exit 0 (got $code)" $?

# Tracing: the trace log in run's output, and `dromedary trace` reading the backlog tracer.
mkdir -p "$tmp/traced"
cat > "$tmp/traced/routes.yaml" <<'EOF'
- route:
    id: ticks
    from:
      uri: timer:t?period=100
      steps:
        - setBody: {constant: traced-body}
        - to: direct:sink
- route:
    id: sink
    from: {uri: direct:sink, steps: [{log: "got ${body}"}]}
EOF
printf 'camel.main.tracing=true\ncamel.trace.enabled=true\ncamel.trace.removeOnDump=false\n' \
  > "$tmp/traced/application.properties"
tport=$((20000 + ($$ + 7) % 20000))
"$bin" run "$tmp/traced" --management-port $tport --max-seconds 6 > "$tmp/traced.log" 2>&1 &
pid=$!
for _ in $(seq 50); do
  "$bin" trace --url "http://127.0.0.1:$tport" --route sink > "$tmp/trace.txt" 2>&1 &&
    grep -q "traced-body" "$tmp/trace.txt" && break
  sleep 0.1
done
grep -q -- "---> \[sink/sink\] \[from\[direct:sink\]\] (.*routes.yaml:10) .*Body: traced-body" \
  "$tmp/trace.txt" && ! grep -q "ticks/" "$tmp/trace.txt"
check "trace --route prints that route's traced messages" $?
timeout --preserve-status -s INT 1.5 "$bin" trace --url "http://127.0.0.1:$tport" -f \
  > "$tmp/follow.txt" 2>&1
code=$?
[ $code -eq 0 ] && [ "$(grep -c '\*--> \[ticks/ticks\]' "$tmp/follow.txt")" -ge 2 ]
check "trace --follow prints new messages until SIGINT, then exits 0 (got $code)" $?
"$bin" top --url "http://127.0.0.1:$tport" -n 2 --interval 0.5 > "$tmp/top.txt" 2>&1
code=$?
[ $code -eq 0 ] && [ "$(grep -c '^ROUTE  *NODE  *PROCESSOR  *TOTAL' "$tmp/top.txt")" -eq 2 ] &&
  tail -n 5 "$tmp/top.txt" | grep -Eq '^ticks  .*timer:t\?period=100 +[0-9]+ +0 +0 +[1-9]' &&
  grep -Eq '^ +setBody1 +setBody\[constant\{traced-body\}\]' "$tmp/top.txt"
check "top -n 2 shows routes and processors with their rate (got $code)" $?
"$bin" trace --last --route ticks --url "http://127.0.0.1:$tport" > "$tmp/last.txt" 2>&1
code=$?
[ $code -eq 0 ] && grep -Eq '^[0-9:.]+ ok +\[ticks\] .* Body: traced-body$' "$tmp/last.txt"
check "trace --last prints the flight recorder's recent exchanges (got $code)" $?
kill -s USR2 $pid
for _ in $(seq 50); do grep -q "dromedary.flightRecorder : route ticks: last" "$tmp/traced.log" && break; sleep 0.1; done
grep -q "dromedary.flightRecorder : route ticks: last [0-9]* completed, last 0 failed" "$tmp/traced.log"
check "SIGUSR2 logs every route's flight recorder and the run goes on" $?
"$bin" get inflight --url "http://127.0.0.1:$tport" > "$tmp/inflight.txt" 2>&1
code=$?
[ $code -eq 0 ] && grep -q "^ROUTE  *NODE  *PROCESSOR  *INFLIGHT" "$tmp/inflight.txt"
check "get inflight prints the routes and steps with exchanges in flight (got $code)" $?
# Long enough for two rounds on a loaded machine (a fetch that took a second made it one).
timeout --preserve-status -s INT 2.5 "$bin" get routes --watch --interval 0.3 \
  --url "http://127.0.0.1:$tport" > "$tmp/watch.txt" 2>&1
code=$?
[ $code -eq 0 ] && [ "$(grep -c '^ID  *FROM' "$tmp/watch.txt")" -ge 2 ]
check "get --watch shows it again until SIGINT, then exits 0 (got $code)" $?
"$bin" top --sort fastest > "$tmp/top.txt" 2>&1
[ $? -eq 2 ]; check "top --sort takes mean, max, total or rate only" $?
kill -s TERM $pid; wait $pid; pid=
grep -q "org.apache.camel.Tracing : \*--> \[ticks       \] \[from\[timer:t?period=100\]" \
  "$tmp/traced.log"
check "camel.main.tracing logs each exchange in Camel's trace shape" $?
"$bin" trace --url "http://127.0.0.1:$tport" > "$tmp/trace.txt" 2>&1
[ $? -eq 1 ] && grep -q "cannot reach" "$tmp/trace.txt"
check "trace against nothing exits 1" $?

# get circuit-breaker: a breaker that opens after two failed calls.
mkdir -p "$tmp/breaker"
cat > "$tmp/breaker/routes.yaml" <<'EOF'
- route:
    id: guarded
    from:
      uri: timer:t?period=50
      steps:
        - circuitBreaker:
            id: cb
            resilience4jConfiguration: {minimumNumberOfCalls: 2, slidingWindowSize: 2}
            steps:
              - throwException: {exceptionType: java.io.IOException, message: down}
            onFallback:
              steps:
                - setBody: {constant: fallback}
EOF
bport=$((20000 + ($$ + 11) % 20000))
"$bin" run "$tmp/breaker" --management-port $bport --max-seconds 6 > "$tmp/breaker.log" 2>&1 &
pid=$!
for _ in $(seq 50); do
  "$bin" get circuit-breaker --url "http://127.0.0.1:$bport" > "$tmp/cb.txt" 2>&1 &&
    grep -Eq '^guarded +cb +OPEN +2 +0 +2 +[1-9][0-9]* +100$' "$tmp/cb.txt" && break
  sleep 0.1
done
grep -q "^ROUTE  *ID  *STATE  *PENDING  *SUCCESS  *FAIL  *REJECT  *FAILURE(%)" "$tmp/cb.txt" &&
  grep -Eq '^guarded +cb +OPEN +2 +0 +2 +[1-9][0-9]* +100$' "$tmp/cb.txt"
check "get circuit-breaker shows each breaker's state and calls" $?
kill -s TERM $pid; wait $pid; pid=

[ $failures -eq 0 ] || { echo "$failures check(s) failed"; cat "$tmp/dev.log"; exit 1; }
