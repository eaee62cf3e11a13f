#!/usr/bin/env bash
# At-least-once across a crash: a `dromedary run` killed with SIGKILL while a file's exchange
# is in the route leaves the file (and its marker lock) in the inbox; the next run deletes
# the orphan lock, consumes the file once, writes it out, and only then moves it to .camel.
#   components/file/test/file_crash_test.sh BUILD_BIN_DIR
set -uo pipefail
bin="$1/dromedary"
tmp=$(mktemp -d)
child=""
trap '[ -n "$child" ] && kill -9 "$child" 2>/dev/null; rm -rf "$tmp"' EXIT
failures=0
check() {  # check NAME CONDITION-EXIT-CODE
  if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1"; failures=$((failures + 1)); fi
}

mkdir -p "$tmp/inbox"
printf 'order 1\n' > "$tmp/inbox/order-1.txt"
cat > "$tmp/route.yaml" <<YAML
- route:
    id: orders
    from:
      uri: file:$tmp/inbox
      parameters: {initialDelay: 0, delay: 50, readLock: markerFile, idempotent: true}
      steps:
        - log: "started \${file:name}"
        - delay: {constant: "{{pause}}"}
        - to: file:$tmp/outbox
        - log: "finished \${file:name}"
YAML
echo "pause = 60000" > "$tmp/slow.properties"
echo "pause = 0" > "$tmp/fast.properties"

# Run 1: killed while the exchange waits in the route.
"$bin" run "$tmp/route.yaml" --properties "$tmp/slow.properties" > "$tmp/run1.log" 2>&1 &
child=$!
for _ in $(seq 1 200); do grep -q "started order-1.txt" "$tmp/run1.log" && break; sleep 0.05; done
grep -q "started order-1.txt" "$tmp/run1.log"
check "run 1 took the file into its route" $?
kill -9 "$child"
wait "$child" 2>/dev/null
child=""
[ -f "$tmp/inbox/order-1.txt" ] && [ -f "$tmp/inbox/order-1.txt.camelLock" ] && [ ! -e "$tmp/outbox" ]
check "after SIGKILL the file and its lock are still in the inbox, nothing written" $?

# Run 2: the orphan lock goes, the file is consumed once and moved only after it was written.
timeout 30 "$bin" run "$tmp/route.yaml" --properties "$tmp/fast.properties" --max-messages 1 \
  > "$tmp/run2.log" 2>&1
code=$?
[ $code -eq 0 ] && [ "$(grep -c 'started order-1.txt' "$tmp/run2.log")" -eq 1 ] &&
  [ "$(cat "$tmp/outbox/order-1.txt")" = "order 1" ] && [ -f "$tmp/inbox/.camel/order-1.txt" ] &&
  [ ! -e "$tmp/inbox/order-1.txt" ] && [ ! -e "$tmp/inbox/order-1.txt.camelLock" ]
check "run 2 consumed the file once, wrote it, then moved it (got $code)" $?
[ $failures -eq 0 ] || { echo "--- run 1"; cat "$tmp/run1.log"; echo "--- run 2"; cat "$tmp/run2.log"; }
exit $failures
