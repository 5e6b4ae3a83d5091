#!/usr/bin/env bash
# cryptaccel seal/open against age (and rage when installed) on one file, whole processes, same run:
#   bench/age/run.sh [CLI] [SIZE_MIB] [ROUNDS] [DIR]
# defaults: build/release/src/cli/cryptaccel, 1024 MiB, 5 rounds, /dev/shm (the page cache's bound, no disk). Each
# round runs every tool once per operation into a fresh output file, the order of the tools alternating from round
# to round (on a VM, whoever allocates page-cache memory first gets the recently freed pages). Reports the median
# wall time and peak RSS of each, the ratios to age, and `cp` of the same file as the copy bound. cryptaccel's output
# is durable (fsync before the rename); "age+sync" and "cp+sync" are age and cp followed by `sync FILE` on their
# output, the same guarantee (on tmpfs a no-op). Needs GNU time.
set -euo pipefail
cli=${1:-build/release/src/cli/cryptaccel}
size=${2:-1024}
rounds=${3:-5}
dir=${4:-/dev/shm}
cli=$(readlink -f "$cli")
work=$(mktemp -d "$dir/age-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
head -c "$((size << 20))" /dev/urandom > plain
age-keygen -o key.txt 2>/dev/null
recipient=$(age-keygen -y key.txt)
tools=(cryptaccel age age+sync)
command -v rage >/dev/null && tools+=(rage)
age -r "$recipient" -o sealed.age plain  # the file every tool opens (any tool's output opens with every other)

seal_cmd() {
  case $1 in
    cryptaccel) echo "$cli seal -r $recipient -o out plain" ;;
    age) echo "age -r $recipient -o out plain" ;;
    age+sync) echo "age -r $recipient -o out plain && sync out" ;;
    rage) echo "rage -r $recipient -o out plain" ;;
  esac
}
open_cmd() {
  case $1 in
    cryptaccel) echo "$cli open -i key.txt -o out sealed.age" ;;
    age) echo "age -d -i key.txt -o out sealed.age" ;;
    age+sync) echo "age -d -i key.txt -o out sealed.age && sync out" ;;
    rage) echo "rage -d -i key.txt -o out sealed.age" ;;
  esac
}
measure() {  # name op command: one timed run (through sh -c, for every tool alike) into a fresh `out`; appends
  local name=$1 op=$2 cmd=$3  # "op name seconds kib" to results
  rm -f out
  /usr/bin/time -f "%e %M" -o t.txt sh -c "$cmd" >/dev/null
  [ "$op" != open ] || cmp -s out plain || { echo "run.sh: $name open gave wrong plaintext" >&2; exit 1; }
  echo "$op $name $(cat t.txt)" >> results
}
: > results
for ((r = 0; r < rounds; r++)); do
  order=("${tools[@]}")
  ((r % 2)) && order=($(printf '%s\n' "${tools[@]}" | tac))
  for t in "${order[@]}"; do measure "$t" seal "$(seal_cmd "$t")"; done
  for t in "${order[@]}"; do measure "$t" open "$(open_cmd "$t")"; done
  measure cp copy "cp plain out"
  measure cp+sync copy "cp plain out && sync out"
done
python3 - "$size" "$rounds" <<'PY'
import statistics, sys
size, rounds = int(sys.argv[1]), int(sys.argv[2])
rows = {}
for line in open("results"):
    op, name, sec, kib = line.split()
    rows.setdefault((op, name), []).append((float(sec), int(kib)))
med = {k: (statistics.median(s for s, _ in v), max(m for _, m in v)) for k, v in rows.items()}
cp = med[("copy", "cp")][0]
cp_sync = med[("copy", "cp+sync")][0]
print(f"{size} MiB file, {rounds} rounds (medians; peak RSS the largest of the rounds); cp of the file: {cp:.3f} s, "
      f"cp + sync: {cp_sync:.3f} s (vs cp: against cp + sync for cryptaccel and age+sync, whose output is durable)")
print(f"{'op':5} {'tool':11} {'seconds':>8} {'MB/s':>8} {'peak MB':>8} {'vs age':>7} {'vs cp':>6}")
for op in ("seal", "open"):
    base = med[(op, "age")][0]
    for (o, name), (sec, kib) in sorted(med.items()):
        if o != op:
            continue
        bound = cp_sync if name in ("cryptaccel", "age+sync") else cp
        print(f"{op:5} {name:11} {sec:8.3f} {size * 1.048576 / sec:8.0f} {kib / 1024:8.1f} {base / sec:6.2f}x {bound / sec:5.2f}x")
print("raw (op tool seconds peak-KiB), in run order:")
print(open("results").read(), end="")
PY
