"""`cryptaccel speed -a rsa1024 ...`: the openssl-speed-like table of sign/s and verify/s, --vs openssl ratio rows,
--batch rows, the JSON report, and the check against ref before timing (with the CRYPTACCEL_SPEED_INJECT_MISMATCH
test hook). Tiny time budgets: a few seconds in all. The executable under test is $CRYPTACCEL_CLI."""

from __future__ import annotations

import json
import os
import re
import subprocess

import pytest

CLI = os.environ.get("CRYPTACCEL_CLI")
if not CLI:
    pytest.skip("CRYPTACCEL_CLI is not set: point it at the built `cryptaccel` executable", allow_module_level=True)
TIMEOUT = 300

ROW = re.compile(r"^(?P<algo>rsa\d+) \[(?P<impl>[^\]]+)\](?: x(?P<batch>\d+))?\s+(?P<values>.*)$")


def cli(*args, env=None):
    full_env = {k: v for k, v in os.environ.items() if k != "CRYPTACCEL_SPEED_INJECT_MISMATCH"}
    full_env.update(env or {})
    return subprocess.run([CLI, "speed", *map(str, args)], capture_output=True, timeout=TIMEOUT,
                          stdin=subprocess.DEVNULL, env=full_env)


def rsa_tables(text):
    """[(header columns, {(algo, impl, batch): [values]})] for each operation table in the output."""
    tables = []
    current = None
    for line in text.splitlines():
        if line.startswith("Seconds per operation"):
            current = None
            continue
        if current is None and re.fullmatch(r"\s+sign\s+verify\s+sign/s\s+verify/s", line):
            current = (line.split(), {})
            tables.append(current)
            continue
        m = ROW.match(line)
        if current is not None and m:
            current[1][(m.group("algo"), m.group("impl"), int(m.group("batch") or 0))] = m.group("values").split()
        elif not line.strip():
            current = None
    return tables


@pytest.fixture(scope="module", autouse=True)
def _needs_rsa():
    proc = cli("-a", "rsa1024", "--engine", "ref", "--seconds", "0.01")
    if b"unknown algorithm 'rsa1024'" in proc.stderr:
        pytest.skip("this cryptaccel's speed has no RSA workloads")


def test_table_like_openssl_speed_rsa():
    proc = cli("-a", "rsa1024", "rsa2048", "--engine", "ref", "--seconds", "0.05", "--vs", "openssl")
    out = proc.stdout.decode()
    assert proc.returncode == 0, proc.stderr
    assert "1000s of bytes" not in out  # no byte table when only RSA was asked for
    (header, rows), = rsa_tables(out)
    assert header == ["sign", "verify", "sign/s", "verify/s"]
    for algo in ("rsa1024", "rsa2048"):
        for impl in ("ref", "openssl"):
            t_sign, t_verify, sign_s, verify_s = rows[(algo, impl, 0)]
            assert t_sign.endswith("s") and t_verify.endswith("s")
            assert float(sign_s) > 0 and float(verify_s) > float(sign_s)  # verify (e = 65537) is much faster
            assert abs(float(t_sign[:-1]) * float(sign_s) - 1) < 0.01
        ratio = rows[(algo, "ref/openssl", 0)]
        assert len(ratio) == 2 and all(re.fullmatch(r"\d+\.\d{4}x", r) for r in ratio), ratio
    assert float(rows[("rsa1024", "ref", 0)][2]) > float(rows[("rsa2048", "ref", 0)][2])


def test_batch_rows_and_json(tmp_path):
    path = tmp_path / "s.json"
    proc = cli("-a", "rsa1024", "--engine", "ref", "--batch", "4", "--threads", "1", "--seconds", "0.05",
               "--json", path)
    assert proc.returncode == 0, proc.stderr
    tables = rsa_tables(proc.stdout.decode())
    assert len(tables) == 2
    assert ("rsa1024", "ref", 4) in tables[1][1]
    doc = json.loads(path.read_text())
    ops = {(r["algo"], r["engine"], r["operation"], r["batch"]) for r in doc["results"]}
    assert ops == {("rsa1024", "ref", op, b) for op in ("sign", "verify") for b in (None, 4)}
    for r in doc["results"]:
        assert r["bytes"] == 128 and r["messages_per_second"] > 0


def test_mixed_with_byte_workloads():
    proc = cli("-a", "aes-128-ctr,rsa1024", "--engine", "ref", "--bytes", "64", "--seconds", "0.02")
    out = proc.stdout.decode()
    assert proc.returncode == 0, proc.stderr
    assert "The 'numbers' are in 1000s of bytes" in out and "aes-128-ctr [ref]" in out
    assert len(rsa_tables(out)) == 1


@pytest.mark.parametrize("target", ["ref", "openssl"])
def test_mismatch_is_one_line_and_not_timed(target):
    proc = cli("-a", "rsa1024", "--engine", "ref", "--vs", "openssl", "--seconds", "0.02",
               env={"CRYPTACCEL_SPEED_INJECT_MISMATCH": target})
    err = proc.stderr.decode()
    assert proc.returncode == 1
    assert err.count("\n") == 1 and err.startswith(f"cryptaccel speed: rsa1024 [{target}]: signature differs"), err
    (_, rows), = rsa_tables(proc.stdout.decode())
    assert ("rsa1024", target, 0) not in rows


def test_unknown_size_is_an_error():
    proc = cli("-a", "rsa1000", "--seconds", "0.01")
    assert proc.returncode == 1 and b"unknown algorithm 'rsa1000'" in proc.stderr and b"rsa2048" in proc.stderr
