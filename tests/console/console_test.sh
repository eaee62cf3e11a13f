#!/usr/bin/env bash
# The web console's browser tests: installs playwright-core from npm (into BUILD_DIR, once),
# starts `dromedary run` on this folder's routes with a management token, runs
# console_test.mjs against it in Debian's chromium, and stops it by PID. Screenshots are kept
# in BUILD_DIR/console-test/artifacts.
#   tests/console/console_test.sh BUILD_BIN_DIR BUILD_DIR
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$(cd "$1" && pwd)/dromedary"
work="$2/console-test"
mkdir -p "$work"
command -v chromium > /dev/null && command -v node > /dev/null ||
  { echo "chromium and node are needed (make test installs them)"; exit 1; }
cp "$here/package.json" "$work/"
# The version package.json pins (1.61: the last that runs on Debian 12's node 18), installed
# once and again only when the pin changes.
wanted=$(node -p "require('$here/package.json').dependencies['playwright-core']")
have=$(node -p "require('$work/node_modules/playwright-core/package.json').version" 2>/dev/null)
if [ "$have" != "$wanted" ]; then
  (cd "$work" && npm install --no-audit --no-fund --loglevel=error) || exit 1
fi
cp "$here/console_test.mjs" "$work/"
port=$((20000 + ($$ + 11) % 20000))
token="console-test-$$"
DROMEDARY_MANAGEMENT_TOKEN=$token "$bin" run "$here/routes.yaml" --management-port $port \
  --log-level WARN --max-seconds 120 > "$work/run.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null' EXIT
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:$port/api/health" > /dev/null && break
  sleep 0.1
done
node "$work/console_test.mjs" "http://127.0.0.1:$port" "$token" "$work/artifacts"
code=$?
[ $code -eq 0 ] || { echo "--- dromedary run:"; tail -20 "$work/run.log"; }
exit $code
