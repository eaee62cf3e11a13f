#!/usr/bin/env bash
# scripts/try-route-files.sh [-b BUILD_DIR] ROOT...: tries every folder of route files under
# each ROOT the way a new user would (Camel's example repositories, checked out outside the
# tree: camel-examples, camel-jbang-examples, camel-kamelets-examples, camel-k-examples).
# Each folder holding *.yaml, *.yml or *.xml files is validated as one integration, with the
# folder also searched for Kamelets (--kamelets); prints OK or FAIL and the first error for
# each (SKIP for folders holding no route files: tests, containers, manifests), then the
# counts and the most common first words of the errors.
#   git clone https://github.com/apache/camel-kamelets-examples /tmp/kx
#   scripts/try-route-files.sh /tmp/kx
set -uo pipefail
build=build
if [ "${1:-}" = "-b" ]; then build=$2; shift 2; fi
[ $# -gt 0 ] || { echo "usage: $0 [-b BUILD_DIR] ROOT..." >&2; exit 2; }
bin="$build/bin/dromedary"
[ -x "$bin" ] || { echo "no $bin: build first" >&2; exit 2; }
results=$(mktemp)
trap 'rm -f "$results"' EXIT
for root in "$@"; do
  find "$root" -type f \( -name '*.yaml' -o -name '*.yml' -o -name '*.xml' \) \
    -not -path '*/.git/*' -not -path '*/target/*' -not -name 'pom.xml' -printf '%h\n' |
    sort -u | while read -r dir; do
      # The verdict line (valid: N routes), else the error: log lines (a WARN that a database
      # the files name cannot be reached now) are neither.
      all=$(timeout 30 "$bin" validate "$dir" --kamelets "$dir" 2>&1)
      out=$(grep -m1 '^valid:' <<< "$all" ||
        grep -v -E '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:.]+ +(TRACE|DEBUG|INFO|WARN) |^\s' <<< "$all" |
        head -1)
      if [[ "$out" == valid:* ]]; then
        echo "OK   $dir: $out"
      elif [[ "$out" == *"no route files in"* ]]; then
        echo "SKIP $dir: ${out#dromedary: }"  # test, container or manifest folders
      else
        echo "FAIL $dir: ${out#dromedary: }"
      fi
    done
done | tee "$results"
ok=$(grep -c '^OK' "$results")
failed=$(grep -c '^FAIL' "$results")
echo
skipped=$(grep -c '^SKIP' "$results")
echo "$ok of $((ok + failed)) folders validate ($skipped more hold no route files)"
echo "most common reasons (first words of the first error):"
grep '^FAIL' "$results" | sed -E 's/^FAIL [^:]*: //; s/ at [^ ]*:[0-9]+:[0-9]+.*//; s/'"'"'[^'"'"']*'"'"'/X/g' | cut -c1-40 |
  sort | uniq -c | sort -rn | head -15
