#!/usr/bin/env bash
# Every libFuzzer target for SECONDS each (default 60), two at a time (the machine's two cores),
# as CI runs them: scripts/fuzz-all.sh [SECONDS]. Each starts from its checked-in corpus
# (fuzz/corpus/<name>: seeds and past findings). A crash, leak, timeout or abort fails the run;
# the input is left in build-fuzz/ (crash-*, leak-*, timeout-*) and the target's log is printed:
# copy the input into fuzz/corpus/<corpus>/ (it then replays in `make test`) and fix it.
set -uo pipefail
seconds="${1:-60}"
root="$(cd "$(dirname "$0")/.." && pwd)"
targets=(simple_parser uri_parser yaml_routes xml_routes http_request json_text json_path)
# Configured and built once (clang, ASan+UBSan; clang installed when missing), then run.
"$root/scripts/fuzz.sh" "${targets[0]}" 0 || exit 1
cmake --build "$root/build-fuzz" --target $(printf '%s_fuzzer ' "${targets[@]}") || exit 1
failed=()
run() {  # run NAME: the target for $seconds, its log in build-fuzz/fuzz-NAME.log
  FUZZ_PREBUILT=1 "$root/scripts/fuzz.sh" "$1" "$seconds" > "$root/build-fuzz/fuzz-$1.log" 2>&1
}
for ((i = 0; i < ${#targets[@]}; i += 2)); do
  pids=()
  for name in "${targets[@]:i:2}"; do
    run "$name" &
    pids+=("$!:$name")
  done
  for entry in "${pids[@]}"; do
    if wait "${entry%%:*}"; then
      echo "fuzz ${entry#*:}: clean for ${seconds} s ($(grep -o 'Done [0-9]* runs' \
        "$root/build-fuzz/fuzz-${entry#*:}.log"))"
    else
      failed+=("${entry#*:}")
    fi
  done
done
for name in "${failed[@]}"; do
  echo "fuzz $name FAILED; the end of build-fuzz/fuzz-$name.log:"
  tail -40 "$root/build-fuzz/fuzz-$name.log"
done
[ ${#failed[@]} -eq 0 ]
