#!/usr/bin/env bash
# Builds the libFuzzer harnesses (the `fuzz` preset: clang-19, ASan + UBSan) and runs each from its seed corpus for a
# fixed time (docs/fuzzing.md). Fails on the first crash, leak, sanitizer report or timeout, with the reproducer
# saved under build/fuzz/artifacts/<target>/ and the command to replay it printed.
#
#   scripts/fuzz.sh                       # every harness, 25 s each (the CI step)
#   scripts/fuzz.sh -t 3600 age_open      # one harness for an hour
#   FUZZ_JOBS=2 scripts/fuzz.sh -t 600    # libFuzzer workers per harness (default 1)
#
# New inputs found are kept in build/fuzz/corpus/<target>/ (not in the tree); merge the interesting ones into
# fuzz/corpus/<target>/ with `build/fuzz/fuzz/fuzz_<target> -merge=1 fuzz/corpus/<target> build/fuzz/corpus/<target>`.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=25
while getopts "t:" opt; do
  case $opt in
    t) seconds=$OPTARG ;;
    *) echo "usage: scripts/fuzz.sh [-t SECONDS] [TARGET...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz
bin=build/fuzz/fuzz
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for exe in "$bin"/fuzz_*; do targets+=("$(basename "$exe" | sed 's/^fuzz_//')"); done
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
for t in "${targets[@]}"; do
  exe=$bin/fuzz_$t
  [ -x "$exe" ] || { echo "fuzz: no harness $exe" >&2; exit 2; }
  seeds=fuzz/corpus/$t
  [ -d "$seeds" ] || { echo "fuzz: no seed corpus $seeds" >&2; exit 2; }
  work=build/fuzz/corpus/$t artifacts=build/fuzz/artifacts/$t
  mkdir -p "$work" "$artifacts"
  dict=()
  [ -f "fuzz/$t.dict" ] && dict=(-dict="../../fuzz/$t.dict")
  echo "fuzz: $t for $seconds s"
  log=build/fuzz/$t.log
  # -jobs runs the fuzzer in child processes that log to fuzz-<n>.log in the working directory: only when asked.
  jobs=()
  [ "${FUZZ_JOBS:-1}" -gt 1 ] && jobs=(-jobs="$FUZZ_JOBS" -workers="$FUZZ_JOBS")
  if ! (cd build/fuzz && "../../$exe" "../../$work" "../../$seeds" ${dict[@]+"${dict[@]}"} ${jobs[@]+"${jobs[@]}"} \
       -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
       -artifact_prefix="../../$artifacts/") >"$log" 2>&1; then
    tail -60 "$log"
    echo "fuzz: $t FAILED; reproducer(s): $(ls "$artifacts" | tr '\n' ' ')" >&2
    echo "fuzz: replay with: $exe $artifacts/<file>" >&2
    status=1
    continue
  fi
  grep -E "stat::number_of_executed_units|stat::new_units_added|cov: " "$log" | tail -3 | sed "s/^/fuzz: $t: /"
done
exit $status
