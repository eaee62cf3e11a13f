#!/usr/bin/env bash
# bench/instructions.sh SCENARIO [BUILD_DIR]: instructions per exchange, counted by callgrind.
# Runs the scenario for N1 and N2 exchanges and divides the difference, so set-up and warm-up
# cancel out. The figure does not move with machine noise: use it to track the hot path.
# --fair-sched=yes: valgrind's default lock lets a busy thread starve the others, and the
# clock's ticker thread (src/core/coarse_clock.h) must run for readers to take their usual path.
set -euo pipefail
scenario=${1:?usage: bench/instructions.sh SCENARIO [BUILD_DIR]}
build=${2:-build}
n1=${N1:-2000}
n2=${N2:-12000}
program=""
for p in "$build"/bin/dromedary_bench_*; do
  if "$p" --list-scenarios | grep -qx "$scenario"; then program=$p; fi
done
[ -n "$program" ] || { echo "no benchmark program has scenario '$scenario'" >&2; exit 2; }
count() {
  local out
  out=$(mktemp)
  valgrind --tool=callgrind --fair-sched=yes --callgrind-out-file="$out" "$program" \
    --scenario="$scenario" --exchanges="$1" > /dev/null 2>&1
  # The total instruction count (Ir) of the whole run.
  awk '/^summary:/ {print $2}' "$out"
  rm -f "$out"
}
i1=$(count "$n1")
i2=$(count "$n2")
python3 -c "print(f'$scenario: {($i2 - $i1) / ($n2 - $n1):.1f} instructions per exchange')"
