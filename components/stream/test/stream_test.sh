#!/usr/bin/env bash
# stream:in and stream:out through `dromedary run`: lines piped in come out transformed, a
# last line without a new line counts, groupLines joins lines, and a prompt is written.
#   components/stream/test/stream_test.sh BUILD_BIN_DIR
set -uo pipefail
bin="$1/dromedary"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
check() {  # check NAME CONDITION-EXIT-CODE
  if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1"; failures=$((failures + 1)); fi
}

cat > "$tmp/echo.yaml" <<'YAML'
- from:
    uri: stream:in
    parameters: {initialPromptDelay: 0, promptMessage: "order? "}
    steps:
      - transform: {simple: "got ${body}"}
      - to: stream:out
YAML
printf 'alpha\nbeta\r\ngamma' | timeout 20 "$bin" run "$tmp/echo.yaml" --max-messages 3 \
  --log-level WARN > "$tmp/out" 2>&1
code=$?
[ $code -eq 0 ] && grep -qx "order? got alpha" "$tmp/out" && grep -qx "order? got beta" "$tmp/out" &&
  grep -qx "order? got gamma" "$tmp/out"
check "lines in, transformed lines out, with the prompt (got $code)" $?

cat > "$tmp/group.yaml" <<'YAML'
- from:
    uri: stream:in?groupLines=2
    steps:
      - transform: {simple: "[${body}]"}
      - to: stream:err
YAML
printf '1\n2\n3\n4\n' | timeout 20 "$bin" run "$tmp/group.yaml" --max-messages 2 --log-level WARN \
  2> "$tmp/err" > /dev/null
code=$?
[ $code -eq 0 ] && [ "$(cat "$tmp/err")" = "$(printf '[1\n2]\n[3\n4]')" ]
check "groupLines joins lines; stream:err writes to standard error (got $code)" $?

printf '' | timeout 20 "$bin" validate "$tmp/echo.yaml" > /dev/null 2>&1
check "the route file validates" $?

# A line whose exchange outlasts the shutdown timeout does not hold the stop: SIGTERM during
# a 20 s delay ends the process after the 1 s timeout (exit 1: the stop was forced).
cat > "$tmp/slow.yaml" <<'YAML'
- from:
    uri: stream:in
    steps:
      - delay: {constant: 20000}
      - to: stream:out
YAML
printf 'camel.main.shutdownTimeout=1\n' > "$tmp/slow.properties"
mkfifo "$tmp/slow.in"
(printf 'one\n'; exec sleep 30) > "$tmp/slow.in" &
writer_pid=$!
timeout 40 "$bin" run "$tmp/slow.yaml" --properties "$tmp/slow.properties" \
  < "$tmp/slow.in" > "$tmp/out" 2>&1 &
run_pid=$!  # timeout's: it passes the signal on to dromedary
# Started, then a second for the line to reach the delay (a fixed 2 s was not enough on a
# loaded machine: the stop came before the line was read, and nothing outlasted it).
for _ in $(seq 100); do grep -q "Started route1" "$tmp/out" && break; sleep 0.1; done
sleep 1
start=$(date +%s)
kill -TERM "$run_pid"
wait "$run_pid"
took=$(( $(date +%s) - start ))
kill "$writer_pid" 2>/dev/null; wait "$writer_pid" 2>/dev/null
[ "$took" -le 6 ] && grep -q "Timeout occurred during graceful shutdown" "$tmp/out"
check "a line outlasting the shutdown timeout does not hold the stop (took ${took}s)" $?
cat > "$tmp/bad.yaml" <<'YAML'
- from:
    uri: stream:sideways
    steps:
      - to: stream:out
YAML
"$bin" run "$tmp/bad.yaml" > "$tmp/out" 2>&1
[ $? -ne 0 ] && grep -q "unknown stream 'sideways'" "$tmp/out"
check "an unknown stream is refused naming it" $?
# stream:http: a server on 127.0.0.1 that streams lines with pauses and keeps the response
# open between them (as camel-kamelets-examples' http-streaming server does); each line is an
# exchange as it arrives. The server is stopped by its PID.
cat > "$tmp/server.py" <<'PY'
import http.server, sys, time
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        if self.path != "/ticks":
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for i in range(3):
            line = f"tick {i}\n".encode()
            self.wfile.write(b"%x\r\n%s\r\n" % (len(line), line))
            self.wfile.flush()
            time.sleep(0.3)
        self.wfile.write(b"0\r\n\r\n")
    def log_message(self, *args):
        pass
server = http.server.HTTPServer(("127.0.0.1", 0), H)
print(server.server_address[1], flush=True)
server.serve_forever()
PY
python3 "$tmp/server.py" > "$tmp/port" &
server_pid=$!
for _ in $(seq 50); do [ -s "$tmp/port" ] && break; sleep 0.1; done
port=$(cat "$tmp/port")
cat > "$tmp/http.yaml" <<YAML
- from:
    uri: stream:http
    parameters: {httpUrl: "http://127.0.0.1:$port/ticks"}
    steps:
      - transform: {simple: "got \${body}"}
      - to: stream:out
YAML
timeout 20 "$bin" run "$tmp/http.yaml" --max-messages 3 --log-level WARN > "$tmp/out" 2>&1
code=$?
[ $code -eq 0 ] && [ "$(cat "$tmp/out")" = "$(printf 'got tick 0\ngot tick 1\ngot tick 2')" ]
check "stream:http gives each line of a streamed response as it comes (got $code)" $?
cat > "$tmp/http-missing.yaml" <<YAML
- from:
    uri: stream:http
    parameters: {httpUrl: "http://127.0.0.1:$port/nothing", scanStream: true, scanStreamDelay: 200}
    steps:
      - to: stream:out
YAML
timeout 20 "$bin" run "$tmp/http-missing.yaml" --max-seconds 1 > "$tmp/out" 2>&1
[ "$(grep -c "stream:http http://127.0.0.1:$port/nothing: HTTP 404 (asking again)" "$tmp/out")" -eq 1 ]
check "a failed stream:http is logged once and, with scanStream, asked again" $?
kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null
printf -- '- from:\n    uri: stream:http\n    steps: [{to: stream:out}]\n' > "$tmp/nourl.yaml"
"$bin" validate "$tmp/nourl.yaml" > "$tmp/out" 2>&1
grep -q "needs httpUrl" "$tmp/out"
check "stream:http without httpUrl is refused" $?

[ $failures -eq 0 ] || cat "$tmp/out"
exit $failures
