#!/usr/bin/env bash
# How loading route files grows with their size: generates YAML and XML route files of about
# 1, 4 and 16 MB (routes of a few steps each, on direct: endpoints), runs `dromedary validate`
# on each, and prints seconds and peak RSS, and both per MB, so the slope shows.
#   bench/load_routes.sh [BUILD_DIR] [SIZES_MB...]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
shift || true
sizes=("${@:-1 4 16}")
[ $# -eq 0 ] && sizes=(1 4 16)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" "${sizes[@]}" <<'PY'
import sys
out, sizes = sys.argv[1], [int(x) for x in sys.argv[2:]]
for mb in sizes:
    target = mb * 1024 * 1024
    with open(f"{out}/routes-{mb}mb.yaml", "w") as y:
        n = 0
        while y.tell() < target:
            y.write(f"""- route:
    id: r{n}
    from:
      uri: direct:in{n}
      steps:
        - setHeader:
            name: kind
            simple: "${{header.type}}-{n}"
        - filter:
            simple: "${{header.kind}} != 'skip'"
            steps:
              - log: "route {n}: ${{body}}"
              - to: mock:out{n}
""")
            n += 1
    with open(f"{out}/routes-{mb}mb.xml", "w") as x:
        x.write("<routes>\n")
        n = 0
        while x.tell() < target:
            x.write(f"""  <route id="r{n}">
    <from uri="direct:in{n}"/>
    <setHeader name="kind"><simple>${{header.type}}-{n}</simple></setHeader>
    <filter>
      <simple>${{header.kind}} != 'skip'</simple>
      <log message="route {n}: ${{body}}"/>
      <to uri="mock:out{n}"/>
    </filter>
  </route>
""")
            n += 1
        x.write("</routes>\n")
PY
printf '%-22s %8s %10s %10s %12s\n' file MB seconds "s/MB" "peak RSS MB/MB"
for f in "$dir"/*; do
  mb=$(python3 -c "import os; print(f'{os.path.getsize(\"$f\") / 1048576:.1f}')")
  /usr/bin/time -f '%e %M' -o "$dir/time.txt" "$build/bin/dromedary" validate "$f" > /dev/null 2>&1 \
    || { echo "$(basename "$f"): validate failed" >&2; continue; }
  read -r seconds kb < "$dir/time.txt"
  python3 -c "s=$seconds; m=$mb; r=$kb/1024; print(f'{\"$(basename "$f")\":22s} {m:8.1f} {s:10.2f} {s/m:10.3f} {r/m:12.1f}')"
done
