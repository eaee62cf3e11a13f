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
cat > "$tmp/bad.yaml" <<'YAML'
- from:
    uri: stream:sideways
    steps:
      - to: stream:out
YAML
"$bin" run "$tmp/bad.yaml" > "$tmp/out" 2>&1
[ $? -ne 0 ] && grep -q "unknown stream 'sideways'" "$tmp/out"
check "an unknown stream is refused naming it" $?
[ $failures -eq 0 ] || cat "$tmp/out"
exit $failures
