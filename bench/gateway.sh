#!/usr/bin/env bash
# gateway: platform-http -> http: to a local backend (bench/wrk/gateway.yaml), under wrk,
# beside nginx proxying to the same backend in the same run. The backend is nginx too (a
# fixed 2-byte reply), so both proxies face the same server.
#   bench/gateway.sh [BUILD_DIR] [SECONDS] [RUNS] [CONNECTIONS] [THREADS]
# THREADS (default 1): nginx's worker_processes and the gateway's dromedary.server.ioThreads.
# Prints requests/s and latency percentiles of each proxy per run; record them in
# bench/RESULTS.md. Every process is stopped by its PID at the end.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
seconds="${2:-10}"
runs="${3:-3}"
connections="${4:-50}"
threads="${5:-1}"
for tool in wrk nginx curl; do
  command -v "$tool" >/dev/null || { echo "$tool is missing: apt-get install wrk nginx-light curl" >&2; exit 2; }
done
dir=$(mktemp -d)
base=$((20000 + RANDOM % 12000))  # below the ephemeral ports (32768-), which wrk's connections take
backend=$base; nginx_proxy=$((base + 1)); gateway=$((base + 2))
mkdir -p "$dir/logs"
cat > "$dir/nginx.conf" <<CONF
worker_processes $threads;
daemon off;
pid $dir/nginx.pid;
error_log $dir/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $dir/body; proxy_temp_path $dir/proxy;
  fastcgi_temp_path $dir/fcgi; uwsgi_temp_path $dir/uwsgi; scgi_temp_path $dir/scgi;
  upstream backend { server 127.0.0.1:$backend; keepalive 64; }
  server {
    listen 127.0.0.1:$backend;
    location / { return 200 "ok"; }
  }
  server {
    listen 127.0.0.1:$nginx_proxy;
    location / {
      proxy_pass http://backend;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }
}
CONF
nginx -c "$dir/nginx.conf" -p "$dir" &
nginx_pid=$!
printf 'camel.server.host=127.0.0.1\ncamel.server.port=%s\ngateway.backend=http://127.0.0.1:%s\ndromedary.server.ioThreads=%s\n' \
  "$gateway" "$backend" "$threads" > "$dir/gateway.properties"
"$build/bin/dromedary" run "$root/bench/wrk/gateway.yaml" --properties "$dir/gateway.properties" \
  > "$dir/gateway.log" 2>&1 &
gateway_pid=$!
trap 'kill $gateway_pid $nginx_pid 2>/dev/null; wait $gateway_pid $nginx_pid 2>/dev/null; rm -rf "$dir"' EXIT
for port in $nginx_proxy $gateway; do
  for _ in $(seq 100); do
    [ "$(curl -s "http://127.0.0.1:$port/x" 2>/dev/null)" = "ok" ] && break
    sleep 0.05
  done
  [ "$(curl -s "http://127.0.0.1:$port/x")" = "ok" ] || { echo "proxy on $port does not answer" >&2; cat "$dir/gateway.log" >&2; exit 1; }
done
summary() {  # summary NAME PORT
  wrk -t2 -c"$connections" -d"${seconds}s" --latency "http://127.0.0.1:$2/orders/7" |
    awk -v name="$1" '/Requests\/sec/ {rps=$2} /^ +50%/ {p50=$2} /^ +99%/ {p99=$2}
                      /Non-2xx/ {bad=$NF} END {printf "%-8s %10s req/s  p50 %8s  p99 %8s  non-2xx %s\n", name, rps, p50, p99, bad+0}'
}
wrk -t2 -c"$connections" -d2s "http://127.0.0.1:$nginx_proxy/x" > /dev/null  # warm-up
wrk -t2 -c"$connections" -d2s "http://127.0.0.1:$gateway/x" > /dev/null
for i in $(seq "$runs"); do
  echo "run $i ($connections connections, ${seconds}s each):"
  summary nginx $nginx_proxy
  summary gateway $gateway
done
