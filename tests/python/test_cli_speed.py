"""Tests of `cryptaccel speed`: table shape and numbers, --json, --vs openssl, --batch, errors.

Every run uses a tiny time budget (--seconds 0.01 or 0.02), so the numbers are noisy: the tests check shape,
parseability and internal consistency (JSON against the table, ratios against their rows), never speed.
The executable under test is $CRYPTACCEL_CLI.
"""
import datetime
import json
import os
import re
import subprocess

import pytest

CLI = os.environ.get("CRYPTACCEL_CLI")
if not CLI:
    pytest.skip("CRYPTACCEL_CLI is not set: point it at the built `cryptaccel` executable", allow_module_level=True)

TIMEOUT = 120
DEFAULT_ALGOS = ["aes-128-ctr", "aes-256-ctr", "aes-256-gcm", "aes-256-cbc", "aes-256-xts", "sm4-ctr", "sha256", "sha3-256"]
DEFAULT_SIZES = [16, 64, 256, 1024, 8192, 16384]
X86_FLAGS = {"aes", "vaes", "vpclmulqdq", "sha_ni", "avx2", "avx512f", "gfni"}

ROW = re.compile(r"^(?P<algo>\S+) \[(?P<impl>[^\]]+)\](?: x(?P<batch>\d+))?\s{2,}(?P<values>.*)$")
KVALUE = re.compile(r"^\d+\.\d\dk$")
PLAIN = re.compile(r"^\d+\.\d\d$")
RATIO = re.compile(r"^\d+\.\d+x$")


def cli(*args, env=None):
    full_env = {k: v for k, v in os.environ.items() if k != "CRYPTACCEL_SPEED_INJECT_MISMATCH"}
    full_env.update(env or {})
    return subprocess.run([CLI, *map(str, args)], capture_output=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL,
                          env=full_env)


def speed(*args, env=None):
    """Runs `cryptaccel speed ARGS`, asserts success and a silent stderr (not a TTY: no progress), returns stdout."""
    proc = cli("speed", *args, env=env)
    assert proc.returncode == 0, f"speed {args}: exit {proc.returncode}, stderr {proc.stderr!r}"
    assert proc.stderr == b"", f"speed {args}: stderr should be empty when it is not a TTY: {proc.stderr!r}"
    return proc.stdout.decode()


def available_engines():
    out = cli("engines").stdout.decode()
    return [line.split()[0] for line in out.splitlines() if line.split()[1:2] == ["available"]]


def parse_tables(text):
    """{"bytes": table, "messages": table or None}; a table is (sizes, {(algo, impl, batch): [cell strings]})."""
    tables = {}
    kind = None
    current = None
    for line in text.splitlines():
        if line.startswith("The 'numbers' are in 1000s of bytes"):
            kind = "bytes"
        elif line.startswith("The 'numbers' are messages per second"):
            kind = "messages"
        elif line.startswith("type ") and kind:
            headers = re.split(r"\s{2,}", line.strip())[1:]
            sizes = []
            for h in headers:
                m = re.fullmatch(r"(\d+) bytes", h)
                assert m, f"bad column header {h!r} in {line!r}"
                sizes.append(int(m.group(1)))
            current = (sizes, {})
            tables[kind] = current
        elif not line.strip():
            current = None  # a blank line ends a table
        elif current is not None and (m := ROW.match(line)):
            values = m.group("values").split()
            assert len(values) == len(current[0]), f"row has {len(values)} values for {len(current[0])} sizes: {line!r}"
            batch = int(m.group("batch")) if m.group("batch") else None
            current[1][(m.group("algo"), m.group("impl"), batch)] = values
    return tables


def kvalue(cell):
    assert KVALUE.match(cell), f"not an openssl-style %.2fk number: {cell!r}"
    return float(cell[:-1]) * 1000


# --- the table --------------------------------------------------------------------------------------------------


def test_default_run_covers_every_algorithm_engine_and_size():
    out = speed("--seconds", "0.01")
    sizes, rows = parse_tables(out)["bytes"]
    assert sizes == DEFAULT_SIZES
    engines = available_engines()
    assert engines, "no engine available"
    assert set(rows) == {(a, e, None) for a in DEFAULT_ALGOS for e in engines}
    for (algo, engine, _), values in rows.items():
        if values == ["n/a"] * len(sizes):  # only where the engine says it does not serve this algorithm
            assert f"{algo} [{engine}]: n/a (engine '{engine}' does not support" in out, out
            continue
        for v in values:
            assert kvalue(v) > 0, f"{algo} [{engine}]: {v}"
    assert "[openssl]" not in out and "/openssl]" not in out


def test_table_header_like_openssl_speed():
    out = speed("-a", "aes-128-ctr", "aes-256-gcm", "--engine", "ref", "--bytes", "16", "1k", "--seconds", "0.02")
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("type "))
    assert re.fullmatch(r"type\s+16 bytes\s+1024 bytes", header), header
    assert any(re.fullmatch(r"aes-128-ctr \[ref\]\s+\d+\.\d\dk\s+\d+\.\d\dk", line) for line in lines), out
    assert any(re.fullmatch(r"aes-256-gcm \[ref\]\s+\d+\.\d\dk\s+\d+\.\d\dk", line) for line in lines), out


def test_size_suffixes_and_commas():
    sizes, rows = parse_tables(speed("-a", "sm4-ctr", "--engine", "ref", "--bytes", "1k,2K", "3", "1M",
                                     "--seconds", "0.01"))["bytes"]
    assert sizes == [1024, 2048, 3, 1 << 20]
    assert all(kvalue(v) > 0 for v in rows[("sm4-ctr", "ref", None)])


def test_auto_engine_is_labelled_with_the_engine_that_ran():
    out = speed("-a", "aes-128-ctr", "--engine", "auto", "--bytes", "64", "--seconds", "0.01")
    _, rows = parse_tables(out)["bytes"]
    (key,) = rows
    assert key[1].startswith("auto:") and key[1][5:] in available_engines(), key


def test_sizes_a_mode_cannot_take_are_na_with_a_note():
    out = speed("-a", "aes-256-cbc", "aes-256-xts", "--engine", "ref", "--bytes", "8", "100", "256",
                "--seconds", "0.01")
    _, rows = parse_tables(out)["bytes"]
    assert rows[("aes-256-cbc", "ref", None)][:2] == ["n/a", "n/a"]  # no padding when timing: block multiples only
    assert rows[("aes-256-xts", "ref", None)][0] == "n/a"  # XTS needs at least 16 bytes
    assert kvalue(rows[("aes-256-cbc", "ref", None)][2]) > 0
    assert kvalue(rows[("aes-256-xts", "ref", None)][1]) > 0
    assert "note: aes-256-cbc 8, 100 bytes: n/a (not a multiple of 16 bytes" in out
    assert "note: aes-256-xts 8 bytes: n/a (XTS needs at least 16 bytes)" in out


def test_batch_adds_messages_per_second_rows():
    tables = parse_tables(speed("-a", "aes-128-ctr", "--engine", "ref", "--bytes", "16", "64", "--batch", "8",
                                "--threads", "1", "--seconds", "0.01"))
    assert set(tables) == {"bytes", "messages"}
    sizes, rows = tables["messages"]
    assert sizes == [16, 64]
    assert list(rows) == [("aes-128-ctr", "ref", 8)]
    for v in rows[("aes-128-ctr", "ref", 8)]:
        assert PLAIN.match(v) and float(v) > 0, v


# --- --vs openssl ------------------------------------------------------------------------------------------------


def test_vs_openssl_rows_and_ratio():
    sizes, rows = parse_tables(speed("-a", "aes-128-ctr", "aes-256-gcm", "--engine", "ref", "--bytes", "64", "4k",
                                     "--seconds", "0.02", "--vs", "openssl"))["bytes"]
    for algo in ("aes-128-ctr", "aes-256-gcm"):
        ours = [kvalue(v) for v in rows[(algo, "ref", None)]]
        theirs = [kvalue(v) for v in rows[(algo, "openssl", None)]]
        ratios = rows[(algo, "ref/openssl", None)]
        for o, t, r in zip(ours, theirs, ratios):
            assert RATIO.match(r), r
            assert float(r[:-1]) == pytest.approx(o / t, rel=0.02, abs=2e-4), (algo, o, t, r)


def test_vs_openssl_cipher_openssl_may_lack():
    # OpenSSL 3.0 has no SM4-GCM; later versions do. Either way the row is there, with numbers or n/a and a note.
    out = speed("-a", "sm4-gcm", "--engine", "ref", "--bytes", "256", "--seconds", "0.01", "--vs", "openssl")
    _, rows = parse_tables(out)["bytes"]
    theirs = rows[("sm4-gcm", "openssl", None)]
    ratio = rows[("sm4-gcm", "ref/openssl", None)]
    if theirs == ["n/a"]:
        assert ratio == ["n/a"]
        assert re.search(r"^note: sm4-gcm \[openssl\]: n/a \(.*SM4-GCM", out, re.M), out
    else:
        assert kvalue(theirs[0]) > 0 and RATIO.match(ratio[0])


# --- --json ------------------------------------------------------------------------------------------------------


def test_json_report(tmp_path):
    path = tmp_path / "speed.json"
    budget = 0.02
    out = speed("-a", "aes-128-ctr", "aes-256-xts", "--engine", "ref", "--bytes", "16", "1k", "--seconds", budget,
                "--batch", "4", "--threads", "1", "--vs", "openssl", "--json", path)
    assert sorted(os.listdir(tmp_path)) == ["speed.json"], "temporary file left behind"
    doc = json.loads(path.read_text())

    assert doc["schema"] == "cryptaccel-speed/1"
    stamp = datetime.datetime.strptime(doc["timestamp"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc)
    assert abs((datetime.datetime.now(datetime.timezone.utc) - stamp).total_seconds()) < 600

    m = doc["machine"]
    assert m["cpu_model"] is None or isinstance(m["cpu_model"], str) and m["cpu_model"]
    assert isinstance(m["logical_cores"], int) and m["logical_cores"] >= 1
    assert 1 <= m["usable_cores"] <= m["logical_cores"]
    if os.uname().machine in ("x86_64", "i686"):
        assert X86_FLAGS <= set(m["cpu_flags"]) and all(isinstance(v, bool) for v in m["cpu_flags"].values())
    assert m["os"]["name"] == os.uname().sysname and m["os"]["arch"] == os.uname().machine
    assert m["gpu"] is None

    b = doc["build"]
    version = cli("--version").stdout.decode().split()[-1]
    assert b["cryptaccel_version"] == version
    assert isinstance(b["compiler"], str) and b["compiler"]
    assert b["openssl"].startswith("OpenSSL")

    s = doc["settings"]
    assert s["algorithms"] == ["aes-128-ctr", "aes-256-xts"] and s["engines"] == ["ref"]
    assert s["bytes"] == [16, 1024] and s["seconds"] == budget and s["threads"] == 1 and s["batch"] == 4
    assert s["vs"] == "openssl"
    assert doc["errors"] == []

    results = doc["results"]
    keys = {(r["algo"], r["engine"], r["batch"], r["bytes"]) for r in results}
    assert keys == {(a, e, batch, n) for a in s["algorithms"] for e in ("ref", "openssl") for batch in (None, 4)
                    for n in (16, 1024)}
    assert len(results) == len(keys)

    tables = parse_tables(out)
    for r in results:
        messages = r["batch"] or 1
        assert r["engine_used"] == r["engine"]
        assert isinstance(r["runs"], int) and r["runs"] >= 1
        assert r["seconds"] >= budget
        assert r["messages_per_second"] == pytest.approx(r["runs"] * messages / r["seconds"], rel=1e-9)
        assert r["bytes_per_second"] == pytest.approx(r["messages_per_second"] * r["bytes"], rel=1e-9)
        if r["engine"] == "openssl":
            assert "vs_openssl" not in r
        else:
            base = next(o for o in results if o["engine"] == "openssl" and o["algo"] == r["algo"]
                        and o["batch"] == r["batch"] and o["bytes"] == r["bytes"])
            assert r["vs_openssl"] == pytest.approx(r["bytes_per_second"] / base["bytes_per_second"], rel=1e-9)
        # The table shows the same numbers.
        kind = "messages" if r["batch"] else "bytes"
        sizes, rows = tables[kind]
        cell = rows[(r["algo"], r["engine"], r["batch"])][sizes.index(r["bytes"])]
        if kind == "bytes":
            assert kvalue(cell) == pytest.approx(r["bytes_per_second"], abs=10)
        else:
            assert float(cell) == pytest.approx(r["messages_per_second"], abs=0.01)


def test_json_na_cells_have_a_note(tmp_path):
    path = tmp_path / "speed.json"
    speed("-a", "aes-256-cbc", "--engine", "ref", "--bytes", "100", "--seconds", "0.01", "--json", path)
    (r,) = json.loads(path.read_text())["results"]
    assert r["bytes_per_second"] is None and r["runs"] is None and "16" in r["note"]


def test_json_to_stdout_replaces_the_table():
    doc = json.loads(speed("-a", "aes-128-ctr", "--engine", "ref", "--bytes", "16", "--seconds", "0.01",
                           "--json", "-"))
    assert [r["bytes"] for r in doc["results"]] == [16]


# --- verification before timing ----------------------------------------------------------------------------------


@pytest.mark.parametrize("target", ["openssl", "ref"])
def test_mismatch_is_one_error_line_and_the_row_is_not_timed(tmp_path, target):
    # CRYPTACCEL_SPEED_INJECT_MISMATCH is a test hook: the check sees a corrupted output from that implementation.
    path = tmp_path / "speed.json"
    proc = cli("speed", "-a", "aes-128-ctr", "--engine", "ref", "--bytes", "64", "--seconds", "0.01",
               "--vs", "openssl", "--json", path, env={"CRYPTACCEL_SPEED_INJECT_MISMATCH": target})
    err = proc.stderr.decode()
    assert proc.returncode == 1, err
    assert err.count("\n") == 1 and err.startswith(f"cryptaccel speed: aes-128-ctr [{target}]: output differs"), err
    _, rows = parse_tables(proc.stdout.decode())["bytes"]
    assert ("aes-128-ctr", target, None) not in rows
    other = "ref" if target == "openssl" else "openssl"
    assert kvalue(rows[("aes-128-ctr", other, None)][0]) > 0
    doc = json.loads(path.read_text())
    assert [(e["algo"], e["engine"]) for e in doc["errors"]] == [("aes-128-ctr", target)]
    assert {r["engine"] for r in doc["results"]} == {other}


# --- usage errors ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("args, message", [
    (["-a", "aes-128-foo"], "unknown algorithm 'aes-128-foo'"),
    (["--engine", "nosuch"], "unknown engine 'nosuch'"),
    (["--engine", "openssl"], "--vs openssl"),
    (["--bytes", "0"], "--bytes"),
    (["--bytes", "12q"], "--bytes"),
    (["--bytes", "2048M"], "--bytes"),
    (["--seconds", "0"], "--seconds"),
    (["--seconds", "soon"], "--seconds"),
    (["--threads", "-1"], "--threads"),
    (["--batch", "0"], "--batch"),
    (["--vs", "libressl"], "--vs"),
    (["--frobnicate"], "--frobnicate"),
    (["--json", "/nonexistent-dir/x.json"], "/nonexistent-dir/x.json"),
])
def test_usage_errors_are_one_line(args, message):
    proc = cli("speed", *args, "--seconds", "0.01") if "--seconds" not in args else cli("speed", *args)
    err = proc.stderr.decode()
    assert proc.returncode == 1, err
    assert proc.stdout == b""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("cryptaccel speed: ") and message in err, err


def test_help_has_examples():
    proc = cli("speed", "--help")
    out = proc.stdout.decode()
    assert proc.returncode == 0
    for word in ("--engine", "--bytes", "--seconds", "--threads", "--batch", "--json", "--vs", "Examples:",
                 "aes-256-xts"):
        assert word in out
    assert "speed" in cli("--help").stdout.decode()
