#!/usr/bin/env bash
# SHA-crypt speed side by side in one run: `cryptaccel speed -a sha512crypt,sha256crypt` (ref and cpu engines, one
# candidate per call and batches) and hashcat's own benchmark (`hashcat -b -m 1800` sha512crypt, `-m 7400`
# sha256crypt) on the same CPU through PoCL's OpenCL CPU device (Debian: hashcat, pocl-opencl-icd). Both use the
# default 5000 rounds. Raw outputs, machine description and load average (before and after: the machine may be
# shared) go to OUTDIR; the ratios are printed at the end and written to OUTDIR/ratios.txt.
#
#   bench/shacrypt_vs_hashcat.sh [BUILD_DIR] [OUTDIR]     # defaults: build/release, bench/results/<today>-<host>/shacrypt
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
out=${2:-bench/results/$(date +%Y-%m-%d)-$(hostname -s)/shacrypt}
cli="$build/src/cli/cryptaccel"
seconds=${SECONDS_PER_CELL:-3}
batch=${BATCH:-64}
[ -x "$cli" ] || { echo "no $cli (build the cryptaccel-cli target first)" >&2; exit 1; }
mkdir -p "$out"

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "cores: $(nproc)"
  echo "flags: $(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -E '^(avx2|avx512f|sha_ni|aes)$' | tr '\n' ' ')"
  echo "kernel: $(uname -r)"
  echo "cryptaccel: $("$cli" --version 2>&1 | head -1)"
  echo "hashcat: $(hashcat --version 2>&1 || echo missing)"
  echo "uptime before: $(uptime)"
} >"$out/machine.txt"

# cryptaccel: one candidate per call and batches of $batch (one shacrypt_batch call each, all cores).
"$cli" speed -a sha512crypt,sha256crypt --engine ref,cpu --seconds "$seconds" --batch "$batch" \
  --json "$out/cryptaccel_speed.json" 2>&1 | tee "$out/cryptaccel_speed.txt"

# hashcat's benchmark mode on the OpenCL CPU device (its own candidate generator, default rounds).
for m in 1800 7400; do
  if command -v hashcat >/dev/null; then
    timeout 600 hashcat -b -m "$m" -D 1 --force 2>&1 | tee "$out/hashcat_m$m.txt" || echo "hashcat -m $m exited with $?" | tee -a "$out/hashcat_m$m.txt"
  else
    echo "hashcat is not installed" | tee "$out/hashcat_m$m.txt"
  fi
done
echo "uptime after: $(uptime)" >>"$out/machine.txt"

# Ratios: cryptaccel cpu (batched) over hashcat, per algorithm. hashcat prints "Speed.#1.........:     1234 H/s".
python3 - "$out" "$batch" <<'PY' | tee "$out/ratios.txt"
import json, re, sys
out, batch = sys.argv[1], int(sys.argv[2])
results = json.load(open(f"{out}/cryptaccel_speed.json"))["results"]
def ours(algo, engine, b):
    for r in results:
        if r["algo"] == algo and r["engine"] == engine and (r["batch"] or 0) == b and r.get("messages_per_second"):
            return r["messages_per_second"]
    return None
def hashcat(m):
    text = open(f"{out}/hashcat_m{m}.txt", errors="replace").read()
    m_ = re.search(r"Speed\.#\*?\d*\.*:\s*([\d.]+)\s*([kMG]?)H/s", text)
    if not m_: return None
    return float(m_.group(1)) * {"": 1, "k": 1e3, "M": 1e6, "G": 1e9}[m_.group(2)]
print(f"{'algorithm':12} {'ref x1':>9} {'cpu x1':>9} {'ref x'+str(batch):>9} {'cpu x'+str(batch):>9} {'hashcat':>9}  cpu/hashcat  cpu/ref")
for algo, m in (("sha512crypt", 1800), ("sha256crypt", 7400)):
    v = [ours(algo, "ref", 0), ours(algo, "cpu", 0), ours(algo, "ref", batch), ours(algo, "cpu", batch), hashcat(m)]
    f = lambda x: f"{x:9.1f}" if x else f"{'n/a':>9}"
    r1 = f"{v[3] / v[4]:11.2f}x" if v[3] and v[4] else f"{'n/a':>12}"
    r2 = f"{v[3] / v[2]:7.2f}x" if v[3] and v[2] else f"{'n/a':>8}"
    print(f"{algo:12} " + " ".join(f(x) for x in v) + f"  {r1}  {r2}")
PY
