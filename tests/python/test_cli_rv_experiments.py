"""`cryptaccel rv table NAME` on experiment data files (rv/experiments/*.json; docs/isa-lab.md, "Experiment data
files"): the tiny experiment of the test tree (tests/rv/experiments/tiny.json, found through
$CRYPTACCEL_RV_EXPERIMENTS) runs through the one runner with the generic layout, and a malformed data file gives one
clear error line. Skips, visibly, without CRYPTACCEL_CLI or the kernel manifest."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Optional

import pytest

from rv_cli_env import MANIFEST_PATH, ONE_LINE_ERROR, load_manifest, require_cli

CLI = require_cli()
TINY_DIR = Path(__file__).resolve().parent.parent / "rv" / "experiments"


def cli(*args, env: Optional[dict] = None) -> subprocess.CompletedProcess:
    e = dict(os.environ)
    if MANIFEST_PATH:
        e["CRYPTACCEL_RV_MANIFEST"] = MANIFEST_PATH
    e.update(env or {})
    return subprocess.run([CLI, "rv", *map(str, args)], capture_output=True, timeout=600, stdin=subprocess.DEVNULL,
                          env=e)


@pytest.fixture(scope="module")
def manifest() -> dict:
    m = load_manifest()
    if m is None:
        pytest.skip("no RISC-V kernel manifest (CRYPTACCEL_RV_MANIFEST unset, or clang-19/ld.lld-19 missing)")
    return m


def test_tiny_experiment_text_and_json(manifest):
    env = {"CRYPTACCEL_RV_EXPERIMENTS": str(TINY_DIR)}
    text = cli("table", "tiny", "--seed", 5, env=env)
    assert text.returncode == 1  # the row of an absent kernel is "missing": a problem
    assert text.stderr == (b"cryptaccel rv: absent reference rv64: the kernel manifest has no kernel no-such-kernel "
                           b"(not built yet)\n")
    out = text.stdout.decode()
    assert out.startswith("A tiny experiment of the test tree")
    assert "SHA-256, 64 B" in out and "Keccak-f[1600], 1 state" in out
    assert "6 runs in" in out
    doc = json.loads(cli("table", "tiny", "--seed", 5, "--json", "-", env=env).stdout)
    assert doc["table"] == "tiny" and doc["seed"] == 5 and not doc["ok"]
    assert list(doc)[:5] == ["table", "title", "timestamp", "machine", "build"]
    by = {(r["id"], r["variant"], r["xlen"]): r for r in doc["rows"]}
    native = by[("sha256-64", "native", 64)]
    assert native["status"] == "ok" and native["paper"] == {"instret": 1000, "cycles": 1500}
    assert native["runs"]["run"]["check"] == "equal"
    keccak = by[("keccak-sn1", "reference", 64)]
    assert set(keccak["runs"]) == {"24", "12"}
    assert keccak["runs"]["24"]["region"]["instret"] > keccak["runs"]["12"]["region"]["instret"]
    assert by[("absent", "reference", 64)]["status"] == "missing"


def test_malformed_experiment_is_one_line(manifest, tmp_path):
    (tmp_path / "broken.json").write_text(json.dumps({
        "format": "cryptaccel-rv-experiment/1", "name": "broken", "title": "t",
        "rows": [{"id": "a", "kernel": "sha256", "variants": ["native"], "xlens": [48]}]}))
    proc = cli("table", "broken", env={"CRYPTACCEL_RV_EXPERIMENTS": str(tmp_path)})
    assert proc.returncode == 1 and ONE_LINE_ERROR.match(proc.stderr), proc.stderr
    assert b"malformed experiment file" in proc.stderr and b"\"xlens\"" in proc.stderr
    (tmp_path / "broken.json").write_text("{\"format\": ")
    proc = cli("table", "broken", env={"CRYPTACCEL_RV_EXPERIMENTS": str(tmp_path)})
    assert proc.returncode == 1 and ONE_LINE_ERROR.match(proc.stderr), proc.stderr
    assert b"malformed experiment file" in proc.stderr and b"parse error" in proc.stderr
