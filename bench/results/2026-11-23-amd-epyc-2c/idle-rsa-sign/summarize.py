"""Medians (min-max) of the cpu/OpenSSL ratios and of the 2-thread/1-thread scaling in raw/*.json (see run.sh)."""
import glob
import json
import statistics


def cells(threads):
    out = {}
    for path in sorted(glob.glob(f"raw/rsa_t{threads}_r*.json")):
        for r in json.load(open(path))["results"]:
            if r["engine"] == "cpu":
                out.setdefault((r["batch"], r["operation"]), []).append(r)
    return out


def line(values):
    return f"{statistics.median(values):.3f}x ({min(values):.3f}-{max(values):.3f})"


print("RSA-2048 cpu engine vs OpenSSL EVP on ONE thread, same process; medians (min-max) of the runs in raw/")
for threads in (1, 2):
    for (batch, op), rs in sorted(cells(threads).items(), key=lambda kv: (str(kv[0][0]), kv[0][1])):
        kind = "one per call" if batch is None else f"batch {batch}"
        print(f"  threads {threads}  {kind:12}  {op:6}  cpu/openssl {line([r['vs_openssl'] for r in rs])}  n={len(rs)}")
one, two = cells(1), cells(2)
for op in ("sign", "verify"):
    a = [r["messages_per_second"] for r in one[(64, op)]]
    b = [r["messages_per_second"] for r in two[(64, op)]]
    print(f"  cpu batch 64, 2 threads / 1 thread {op}: {statistics.median(b) / statistics.median(a):.3f}x "
          f"({statistics.median(b):.0f}/s vs {statistics.median(a):.0f}/s, medians)")
