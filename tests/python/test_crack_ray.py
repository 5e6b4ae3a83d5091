"""Cracking on a Ray cluster (crack.run(cluster=...), ``cryptaccel crack --ray``) against the same attack on this
machine, on a local two-node Ray cluster that the module starts itself (a head and one more node on this host, as
Ray's own tests do): the planted passwords found are the same, at the same keyspace positions, and the potfile lines
are the same; a worker killed with SIGKILL mid-run has its units redone; an interrupted driver continues with
--restore without redoing finished units. Words and plants come from a seeded generator (CRYPTACCEL_TEST_SEED)."""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import cryptaccel
from cryptaccel import crack, shacrypt

if os.environ.get("CI"):
    import ray  # noqa: F401 - in CI Ray is installed by `make deps`: its absence is a failure, not a skip
else:
    ray = pytest.importorskip("ray")

SEED = int(os.environ.get("CRYPTACCEL_TEST_SEED", "4711"))
CLI = os.environ.get("CRYPTACCEL_CLI")
RULES = ":\nu\n$1\n"
UNIT_SECONDS = 0.2


@pytest.fixture(scope="module")
def cluster():
    from ray.cluster_utils import Cluster

    small = {"num_cpus": 1, "object_store_memory": 80 << 20}
    c = Cluster(initialize_head=True, head_node_args={**small, "include_dashboard": False})
    c.add_node(**small)
    c.wait_for_nodes()
    yield c.address
    c.shutdown()


def make_attack(tmp_path: Path, words: int, crypt: bool):
    """A wordlist, a rule file and hashes of some of its candidates (spread over the keyspace) plus one of a plain
    outside it, so that the attack runs to the end. Returns (hash file, wordlist, rule file, plants, mode)."""
    rng = random.Random(SEED)
    ws = [f"{''.join(rng.choice('abcdefghijklmnopqrstuvwxyz') for _ in range(rng.randint(3, 8)))}{i}"
          for i in range(words)]
    (tmp_path / "words.txt").write_text("".join(w + "\n" for w in ws))
    (tmp_path / "r.rule").write_text(RULES)
    plants = [ws[rng.randrange(words // 10)].upper(), ws[words // 2 + rng.randrange(words // 10)] + "1",
              ws[-1 - rng.randrange(words // 10)], "not-in-the-keyspace"]
    if crypt:
        lines = [f"u{i}:{shacrypt.hash(p, salt=f's{i % 2}', rounds=1000)}:19000:0:99999:7:::"
                 for i, p in enumerate(plants)]
        mode = None
    else:
        lines = [hashlib.sha256(p.encode()).hexdigest() for p in plants]
        mode = "sha256"
    (tmp_path / "hashes.txt").write_text("".join(line + "\n" for line in lines))
    return tmp_path / "hashes.txt", tmp_path / "words.txt", tmp_path / "r.rule", plants, mode


def found(result):
    return sorted((f.target, f.plain, f.position) for f in result.finds)


def test_cluster_finds_what_a_local_run_finds(cluster, tmp_path):
    hashes, words, rules, plants, mode = make_attack(tmp_path, 20000, crypt=False)
    local = crack.run(hashes, words, rule_files=[rules], mode=mode)
    seen = []
    remote = crack.run(hashes, words, rule_files=[rules], mode=mode, cluster=cluster, unit_seconds=UNIT_SECONDS,
                       on_progress=seen.append)
    assert local.end == remote.end == "exhausted"
    assert found(remote) == found(local)
    assert sorted(f.plain for f in remote.finds) == sorted(p.encode() for p in plants[:3])
    assert remote.status["progress"] == remote.status["total"] == local.status["total"]
    assert remote.status["recovered"] == 3 and remote.status["targets"] == 4
    assert len(remote.status["workers"]) == 2  # one per node
    assert sum(w["units"] for w in remote.status["workers"]) > 2
    assert seen and all(s["progress"] <= s["total"] for s in seen)


def test_cluster_slice_and_known_hashes(cluster, tmp_path):
    hashes, words, rules, plants, mode = make_attack(tmp_path, 5000, crypt=False)
    known = [hashlib.sha256(plants[0].encode()).hexdigest()]
    local = crack.run(hashes, words, rule_files=[rules], mode=mode, skip=1000, limit=3000, known=known)
    remote = crack.run(hashes, words, rule_files=[rules], mode=mode, skip=1000, limit=3000, known=known,
                       cluster=cluster, unit_seconds=UNIT_SECONDS)
    assert found(remote) == found(local)
    assert remote.status["total"] == local.status["total"] == 3000 * 3


def test_a_worker_killed_mid_run_has_its_units_redone(cluster, tmp_path):
    hashes, words, rules, plants, mode = make_attack(tmp_path, 1500, crypt=True)
    local = crack.run(hashes, words, rule_files=[rules], mode=mode)
    killed = []

    def kill_one(status):
        busy = [w for w in status["workers"] if w["units"] >= 1]
        if not killed and busy:
            killed.append(busy[0]["pid"])
            os.kill(busy[0]["pid"], signal.SIGKILL)

    remote = crack.run(hashes, words, rule_files=[rules], mode=mode, cluster=cluster, unit_seconds=UNIT_SECONDS,
                       on_progress=kill_one)
    assert killed, "no progress report came before the end"
    assert remote.status["redone"] >= 1  # the units the killed worker had in flight
    assert found(remote) == found(local)
    assert remote.status["progress"] == remote.status["total"]


def test_restore_continues_without_redoing_finished_units(cluster, tmp_path):
    hashes, words, rules, plants, mode = make_attack(tmp_path, 1500, crypt=True)
    local = crack.run(hashes, words, rule_files=[rules], mode=mode)
    restore = tmp_path / "session.restore"
    first = crack.run(hashes, words, rule_files=[rules], mode=mode, cluster=cluster, unit_seconds=UNIT_SECONDS,
                      restore_file=restore, on_progress=lambda s: s["progress"] > 0)
    assert first.end == "stopped"
    state = json.loads(restore.read_text())
    done = sum(u[3] for u in state["done"]) * 3
    assert 0 < done < first.status["total"]
    with pytest.raises(cryptaccel.InvalidArgument, match="another attack"):
        crack.run(hashes, words, rule_files=[rules], mode=mode, skip=1, cluster=cluster, restore_file=restore,
                  restore=True)
    second = crack.run(hashes, words, rule_files=[rules], mode=mode, cluster=cluster, unit_seconds=UNIT_SECONDS,
                       restore_file=restore, restore=True)
    assert second.status["restored"] == done
    # progress counts finished units: a unit done twice would take it past the total
    assert second.status["progress"] == second.status["total"]
    assert sorted((f.target, f.plain, f.position) for f in first.finds + second.finds) == found(local)
    assert not restore.exists()  # the attack ended: nothing left to restore


def test_errors(cluster, tmp_path):
    hashes, words, rules, _plants, mode = make_attack(tmp_path, 100, crypt=False)
    with pytest.raises(cryptaccel.InvalidArgument, match="stdin"):
        crack.run(hashes, "-", mode=mode, cluster=cluster)
    with pytest.raises(cryptaccel.InvalidArgument, match="no session to restore"):
        crack.run(hashes, words, mode=mode, cluster=cluster, restore_file=tmp_path / "none", restore=True)
    with pytest.raises(cryptaccel.InvalidArgument, match="cluster="):
        crack.run(hashes, words, mode=mode, restore_file=tmp_path / "r")
    with pytest.raises(cryptaccel.InvalidArgument, match="unit_seconds"):
        crack.run(hashes, words, mode=mode, cluster=cluster, unit_seconds=0)


# --- the command line ------------------------------------------------------------------------------------------------

needs_cli = pytest.mark.skipif(not CLI, reason="CRYPTACCEL_CLI not set")


def cli(*args, **kw):
    env = {**os.environ, "CRYPTACCEL_PYTHON": sys.executable}
    return subprocess.run([CLI, "crack", *map(str, args)], capture_output=True, text=True, env=env, timeout=300, **kw)


def potfile_lines(path: Path):
    return sorted(path.read_text().splitlines()) if path.exists() else []


@needs_cli
def test_cli_ray_potfile_equals_local(cluster, tmp_path):
    hashes, words, rules, _plants, _mode = make_attack(tmp_path, 20000, crypt=False)
    local = cli("-m", "sha256", hashes, words, "-r", rules, "--potfile-path", tmp_path / "local.pot", "-q")
    remote = cli("-m", "sha256", hashes, words, "-r", rules, "--potfile-path", tmp_path / "ray.pot", "--ray", cluster,
                 "--ray-unit-seconds", UNIT_SECONDS, "--restore-file-path", tmp_path / "s.restore", "--status",
                 "--status-json", "--status-timer", "0.1")
    assert local.returncode == remote.returncode == 1, remote.stderr  # exhausted: one plain is not in the keyspace
    assert potfile_lines(tmp_path / "ray.pot") == potfile_lines(tmp_path / "local.pot") != []
    assert sorted(remote.stdout.splitlines()) == sorted(local.stdout.splitlines())
    statuses = [json.loads(line) for line in remote.stderr.splitlines() if line.startswith("{")]
    assert statuses and statuses[-1]["status"] == "exhausted" and len(statuses[-1]["workers"]) == 2
    assert not (tmp_path / "s.restore").exists()


@needs_cli
def test_cli_interrupted_then_restored(cluster, tmp_path):
    hashes, words, rules, _plants, _mode = make_attack(tmp_path, 1500, crypt=True)
    local = cli(hashes, words, "-r", rules, "--potfile-path", tmp_path / "local.pot", "-q")
    restore = tmp_path / "s.restore"
    args = [hashes, words, "-r", rules, "--potfile-path", tmp_path / "ray.pot", "--ray", cluster, "--ray-unit-seconds",
            UNIT_SECONDS, "--restore-file-path", restore]
    env = {**os.environ, "CRYPTACCEL_PYTHON": sys.executable}
    proc = subprocess.Popen([CLI, "crack", *map(str, args), "--status-json", "--status-timer", "0.1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    for line in proc.stderr:
        if line.startswith("{") and json.loads(line)["progress"][0] > 0:
            proc.send_signal(signal.SIGINT)
            break
    _out, err = proc.communicate(timeout=300)
    assert proc.returncode == 2, err  # aborted
    assert "--restore" in err and restore.exists()
    again = cli(*args, "--restore")
    assert again.returncode == local.returncode == 1, again.stderr
    assert potfile_lines(tmp_path / "ray.pot") == potfile_lines(tmp_path / "local.pot") != []
    assert not restore.exists()


@needs_cli
def test_cli_usage_errors(tmp_path):
    hashes, words, _rules, _plants, _mode = make_attack(tmp_path, 100, crypt=False)
    r = cli("-m", "sha256", hashes, words, "--restore")
    assert r.returncode == 255 and "--restore continues a --ray session" in r.stderr
    r = cli("-m", "sha256", hashes, "--ray", "auto")
    assert r.returncode == 255 and "not stdin" in r.stderr
    env = {**os.environ, "CRYPTACCEL_PYTHON": str(tmp_path / "no-python")}
    r = subprocess.run([CLI, "crack", "-m", "sha256", str(hashes), str(words), "--ray", "local", "--potfile-disable"],
                       capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 255 and "CRYPTACCEL_PYTHON" in r.stderr and len(r.stderr.splitlines()) == 2
