"""Cracking across machines on Ray: the runner behind ``crack.run(..., cluster=...)`` and ``cryptaccel crack --ray``.

The driver (this process) cuts the keyspace - the bytes of the wordlist's slice of words ``[skip, skip + limit)``, cut
at line ends, each word with every rule - into work units, and schedules them dynamically over Ray actors: one per
node, or one per GPU on a node with GPUs. Each actor cracks its units with the library on its node's best engine (the
units' words travel through Ray's object store, so the nodes need no shared file system, only ``cryptaccel``
installed). A unit is sized from its worker's measured speed to take about ``unit_seconds``; each worker has at most
two units in flight, so the next one is already on its node when one ends.

Faults: a worker that dies mid-unit (killed, out of memory, node lost) has its units redone by the others (Ray
restarts the actor when it can). The result equals a one-machine run: the same cracked set, each hash reported once.
With ``restore_file``, every finished unit and every find is recorded durably as it happens; an interrupted driver
continues with ``restore=True`` without redoing finished units.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import tempfile
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Deque, Dict, List, Optional, Sequence, Tuple

from . import _cryptaccel as _ext
from ._errors import EngineUnavailable, InvalidArgument

try:
    import ray
    from ray.exceptions import RayActorError, RayTaskError
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy
except ImportError:  # pragma: no cover - reported when a cluster run is asked for
    ray = None

_RESTORE_VERSION = 1
_FIRST_UNIT_CANDIDATES = 512     # the calibration unit: small, so a slow hash (SHA-crypt on one core) measures fast
_MIN_UNIT_BYTES = 64
_MAX_UNIT_BYTES = 64 << 20       # words shipped per unit at most; beyond it a unit's overhead is negligible anyway
_MAX_GROWTH = 8                  # a unit is at most this many times its worker's previous one
_IN_FLIGHT = 2                   # units queued per worker: one running, one on its way
_PROGRESS_INTERVAL = 1.0         # seconds between progress reports while units run
_WORKER_RESTARTS = 2             # Ray restarts a killed worker this often before it is given up


def require_ray() -> None:
    if ray is None:
        raise EngineUnavailable("cracking on a cluster needs Ray: pip install ray")


# --- the keyspace --------------------------------------------------------------------------------------------------


@dataclass
class Unit:
    """Words ``[first_word, first_word + words)`` of the wordlist: its bytes ``[start, end)``."""

    start: int
    end: int
    first_word: int
    words: int


def _lines_in(data: bytes) -> int:
    """Words in ``data`` as the wordlist reader counts them: lines, a last one without a newline included."""
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def _offset_of_word(f, target: int, file_size: int) -> Tuple[int, int]:
    """(byte offset of word ``target``, or the file size when there are fewer words; words before it)."""
    f.seek(0)
    offset = words = 0
    while words < target:
        block = f.read(4 << 20)
        if not block:
            return file_size, words
        count = block.count(b"\n")
        if words + count < target:
            words += count
            offset += len(block)
            continue
        at = -1
        for _ in range(target - words):
            at = block.find(b"\n", at + 1)
        return offset + at + 1, target
    return offset, words


def keyspace_slice(path: str, skip: int, limit: Optional[int]) -> Tuple[int, int, int]:
    """(start byte, end byte, words) of words ``[skip, skip + limit)`` of ``path``."""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        start, before = _offset_of_word(f, skip, size)
        if before < skip:
            return size, size, 0
        end = size if limit is None else _offset_of_word(f, skip + limit, size)[0]
        f.seek(start)
        words = 0
        left = end - start
        while left > 0:
            block = f.read(min(left, 4 << 20))
            if not block:
                break
            left -= len(block)
            words += block.count(b"\n")
        if end > start:
            f.seek(end - 1)
            words += 0 if f.read(1) == b"\n" else 1
    return start, end, words


class UnitCutter:
    """Cuts units from the slice in keyspace order, around the ones finished before (a restore), and hands out
    returned units (from a lost worker) first."""

    def __init__(self, path: str, start: int, end: int, first_word: int, done: Sequence[Unit]):
        self._file = open(path, "rb")
        self._end = end
        self._pos = start
        self._word = first_word
        self._done = deque(sorted(done, key=lambda u: u.start))
        self._returned: Deque[Unit] = deque()

    def close(self) -> None:
        self._file.close()

    def give_back(self, unit: Unit) -> None:
        self._returned.append(unit)

    def _skip_done(self) -> None:
        while self._done and self._done[0].start <= self._pos:
            d = self._done.popleft()
            if d.end > self._pos:
                self._pos, self._word = d.end, d.first_word + d.words

    def next(self, size: int) -> Optional[Tuple[Unit, bytes]]:
        """The next unit of about ``size`` bytes (extended to a line end) and its words; None when none is left."""
        if self._returned:
            u = self._returned.popleft()
            self._file.seek(u.start)
            return u, self._file.read(u.end - u.start)
        self._skip_done()
        if self._pos >= self._end:
            return None
        stop = self._end if not self._done else min(self._end, self._done[0].start)
        self._file.seek(self._pos)
        data = self._file.read(max(1, min(size, stop - self._pos)))
        while not data.endswith(b"\n") and self._pos + len(data) < stop:  # to the end of the line
            more = self._file.read(min(4096, stop - self._pos - len(data)))
            if not more:
                break
            cut = more.find(b"\n")
            data += more if cut < 0 else more[: cut + 1]
        unit = Unit(self._pos, self._pos + len(data), self._word, _lines_in(data))
        self._pos, self._word = unit.end, unit.first_word + unit.words
        return unit, data


# --- the restore file ------------------------------------------------------------------------------------------------


def fingerprint(targets: Sequence[str], mode: Optional[str], wordlist: str, rule_texts: Sequence[bytes],
                rules: Sequence[str], skip: int, limit: Optional[int]) -> Dict[str, Any]:
    """What makes an attack the same attack: its hashes, mode, wordlist (path, size, time), rules and slice."""
    st = os.stat(wordlist)
    rules_digest = hashlib.sha256()
    for text in rule_texts:
        rules_digest.update(hashlib.sha256(text).digest())
    rules_digest.update(json.dumps(list(rules)).encode())
    return {
        "hashes": hashlib.sha256("\n".join(sorted(targets)).encode()).hexdigest(),
        "mode": mode,
        "wordlist": os.path.abspath(wordlist),
        "wordlist_size": st.st_size,
        "wordlist_mtime_ns": st.st_mtime_ns,
        "rules": rules_digest.hexdigest(),
        "skip": skip,
        "limit": limit,
    }


class RestoreFile:
    """The finished units and the finds of one attack, rewritten atomically and durably after each change."""

    def __init__(self, path: Optional[str], fp: Dict[str, Any], restore: bool):
        self.path = path
        self.done: List[Unit] = []
        self.finds: List[Tuple[str, bytes, int]] = []
        self._fp = fp
        if path is None:
            if restore:
                raise InvalidArgument("restore needs a restore file")
            return
        if not restore:
            return
        try:
            with open(path, "r", encoding="utf-8") as f:
                state = json.load(f)
        except FileNotFoundError:
            raise InvalidArgument(f"{path}: no session to restore") from None
        except (OSError, ValueError) as e:
            raise InvalidArgument(f"{path}: not a restore file ({e})") from None
        if not isinstance(state, dict) or state.get("version") != _RESTORE_VERSION:
            raise InvalidArgument(f"{path}: not a restore file of this version")
        if state.get("fingerprint") != fp:
            raise InvalidArgument(f"{path}: the session is of another attack (hashes, wordlist, rules or slice differ)")
        try:
            self.done = [Unit(*map(int, u)) for u in state["done"]]
            self.finds = [(str(h), bytes.fromhex(p), int(pos)) for h, p, pos in state["finds"]]
        except (KeyError, TypeError, ValueError) as e:
            raise InvalidArgument(f"{path}: damaged restore file ({e})") from None

    def save(self) -> None:
        if self.path is None:
            return
        state = {
            "version": _RESTORE_VERSION,
            "fingerprint": self._fp,
            "done": [[u.start, u.end, u.first_word, u.words] for u in self.done],
            "finds": [[h, p.hex(), pos] for h, p, pos in self.finds],
        }
        directory = os.path.dirname(os.path.abspath(self.path))
        os.makedirs(directory, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".restore-", dir=directory)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(state, f)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise

    def remove(self) -> None:
        if self.path is not None:
            try:
                os.unlink(self.path)
            except FileNotFoundError:
                pass


# --- the workers -----------------------------------------------------------------------------------------------------


def _scratch_directory() -> Optional[str]:
    """/dev/shm when it can hold two of the largest units (a container's is often 64 MiB), else $TMPDIR."""
    shm = "/dev/shm"
    try:
        st = os.statvfs(shm)
        if os.access(shm, os.W_OK) and st.f_bavail * st.f_frsize >= 2 * _MAX_UNIT_BYTES:
            return shm
    except OSError:
        pass
    return None


class CrackWorker:
    """A Ray actor: cracks units on its node with the library (wrapped by ray.remote in run_cluster)."""

    def __init__(self, rule_texts: Sequence[bytes], rules: Sequence[str], engine: str, threads: int, batch: int):
        self._dir = tempfile.mkdtemp(prefix="cryptaccel-ray-", dir=_scratch_directory())
        self._rule_files = []
        for i, text in enumerate(rule_texts):
            path = os.path.join(self._dir, f"rules-{i}.rule")
            with open(path, "wb") as f:
                f.write(text)
            self._rule_files.append(path)
        self._rules = list(rules)
        self._engine, self._threads, self._batch = engine, threads, batch
        self._words = os.path.join(self._dir, "words")

    def info(self) -> Dict[str, Any]:
        return {"node": socket.gethostname(), "pid": os.getpid(), "node_id": ray.get_runtime_context().get_node_id()}

    def crack(self, hashes: List[str], mode: Optional[str], words: bytes) -> Dict[str, Any]:
        from . import crack  # the library, on this node

        with open(self._words, "wb") as f:
            f.write(words)
        began = time.perf_counter()
        result = crack.run(hashes, self._words, rule_files=self._rule_files, rules=self._rules, mode=mode,
                           engine=self._engine, threads=self._threads, batch=self._batch)
        return {
            "finds": [(f.hash, f.plain, f.position) for f in result.finds],
            "seconds": time.perf_counter() - began,
            "speed": result.status.get("speed", 0.0),
            "engine": result.status.get("engine", ""),
        }


@dataclass
class _Worker:
    actor: Any
    node: str
    pid: int
    in_flight: int = 0
    bytes_per_second: float = 0.0
    last_bytes: int = 0
    speed: float = 0.0
    engine: str = ""
    units: int = 0
    failures: int = 0
    lost: bool = False


def _start_workers(rule_texts, rules, engine: str, threads: int, batch: int) -> List[_Worker]:
    remote = ray.remote(CrackWorker)
    actors = []
    for node in ray.nodes():
        if not node.get("Alive"):
            continue
        resources = node.get("Resources", {})
        strategy = NodeAffinitySchedulingStrategy(node_id=node["NodeID"], soft=False)
        gpus = int(resources.get("GPU", 0))
        cpus = int(resources.get("CPU", 0))
        node_threads = threads or cpus
        if gpus > 0:
            for _ in range(gpus):
                actors.append(remote.options(num_cpus=0, num_gpus=1, scheduling_strategy=strategy,
                                             max_restarts=_WORKER_RESTARTS)
                              .remote(rule_texts, rules, engine, node_threads, batch))
        elif cpus >= 1:
            actors.append(remote.options(num_cpus=1, scheduling_strategy=strategy, max_restarts=_WORKER_RESTARTS)
                          .remote(rule_texts, rules, engine, node_threads, batch))
    if not actors:
        raise EngineUnavailable("the Ray cluster has no node with a CPU or GPU to run workers on")
    infos = ray.get([a.info.remote() for a in actors])
    return [_Worker(a, i["node"], i["pid"]) for a, i in zip(actors, infos)]


def _connect(cluster: str) -> bool:
    """Connects to the cluster; True when this call started Ray (and must shut it down)."""
    if ray.is_initialized():
        return False
    kwargs: Dict[str, Any] = {"logging_level": "ERROR", "log_to_driver": False, "configure_logging": True}
    try:
        if cluster == "local":
            ray.init(include_dashboard=False, **kwargs)
        else:
            ray.init(address=cluster, **kwargs)
    except (ConnectionError, RuntimeError, ValueError) as e:
        raise EngineUnavailable(f"cannot reach the Ray cluster '{cluster}': {str(e).splitlines()[0]}") from None
    return True


# --- the driver ------------------------------------------------------------------------------------------------------


def run_cluster(*, cluster: str, hash_file: Optional[str], hash_lines: List[str], mode: Optional[str],
                wordlist: str, rule_files: List[str], rules: List[str], engine: str, threads: int, batch: int,
                skip: int, limit: Optional[int], known: List[str], on_find: Optional[Callable[[tuple], Any]],
                on_progress: Optional[Callable[[Dict[str, Any]], bool]], restore_file: Optional[str],
                restore: bool, unit_seconds: float):
    """Runs the attack on the cluster; returns what ``_ext._crack_run`` returns: (end, finds, status, skipped)."""
    require_ray()
    if wordlist in ("", "-"):
        raise InvalidArgument("a cluster attack needs a wordlist file, not stdin")
    targets, bad = _ext._crack_targets(hash_file, hash_lines, mode)
    per_word = _ext._crack_rules_per_word(rule_files, rules)  # also checks the rules before any node starts
    rule_texts = []
    for path in rule_files:
        try:
            with open(path, "rb") as f:
                rule_texts.append(f.read())
        except OSError as e:
            raise InvalidArgument(f"{path}: {e.strerror}") from None
    try:
        start, end, words = keyspace_slice(wordlist, skip, limit)
    except OSError as e:
        raise InvalidArgument(f"{wordlist}: {e.strerror}") from None

    by_hash: Dict[str, List[int]] = {}
    setting_of: Dict[str, str] = {}
    for i, (h, _user, _line, setting) in enumerate(targets):
        by_hash.setdefault(h, []).append(i)
        setting_of[h] = setting
    cracked = {h for h in known if h in by_hash}
    saved = RestoreFile(restore_file, fingerprint(list(by_hash), mode, wordlist, rule_texts, rules, skip, limit),
                        restore)
    for h, _plain, _pos in saved.finds:
        cracked.add(h)
    searched = {setting_of[h] for h in by_hash if h not in cracked}  # the settings the attack searches
    finds: List[tuple] = []
    total = words * per_word
    status: Dict[str, Any] = {
        "state": "running", "progress": sum(u.words for u in saved.done) * per_word, "total": total, "speed": 0.0,
        "elapsed": 0.0, "eta": None, "recovered": 0, "targets": len(targets), "recovered_settings": 0,
        "settings": len(searched), "engine": "ray", "time_start": time.time(), "workers": [],
        "restored": sum(u.words for u in saved.done) * per_word,  # candidates done before a restore
        "redone": 0,  # work units handed out again after their worker was lost
    }

    def recovered() -> int:
        return sum(len(by_hash[h]) for h in cracked)

    def recovered_settings() -> int:
        open_settings = {setting_of[h] for h in by_hash if h not in cracked}
        return len(searched - open_settings)

    status["recovered"] = recovered()
    if not targets:
        status["state"] = "exhausted"
        return "exhausted", finds, status, bad
    if len(cracked) == len(by_hash):
        status["state"] = "cracked"
        return "cracked", finds, status, bad

    started_ray = _connect(cluster)
    cutter = UnitCutter(wordlist, start, end, skip, saved.done)
    workers: List[_Worker] = []
    pending: Dict[Any, Tuple[_Worker, Unit]] = {}
    began = time.perf_counter()
    end_state = "exhausted"
    try:
        workers = _start_workers(rule_texts, rules, engine, threads, batch)
        status["engine"] = f"ray ({len(workers)} workers)"

        def report() -> bool:
            status["elapsed"] = time.perf_counter() - began
            live = [w for w in workers if not w.lost]
            status["speed"] = sum(w.speed for w in live)
            candidate_rate = sum(w.bytes_per_second for w in live)
            done_words = sum(u.words for u in saved.done)
            left_bytes = max(0, (end - start) - sum(u.end - u.start for u in saved.done))
            status["progress"] = done_words * per_word
            status["eta"] = left_bytes / candidate_rate if candidate_rate > 0 else None
            status["recovered"] = recovered()
            status["recovered_settings"] = recovered_settings()
            status["workers"] = [{"node": w.node, "pid": w.pid, "engine": w.engine, "speed": w.speed, "units": w.units,
                                "lost": w.lost} for w in workers]
            return bool(on_progress(dict(status))) if on_progress is not None else False

        def unit_size(w: _Worker) -> int:
            if w.bytes_per_second <= 0:
                average_line = max(1, (end - start) // max(1, words))
                return max(_MIN_UNIT_BYTES, _FIRST_UNIT_CANDIDATES // per_word * average_line)
            want = int(w.bytes_per_second * unit_seconds)
            return max(_MIN_UNIT_BYTES, min(_MAX_UNIT_BYTES, want, w.last_bytes * _MAX_GROWTH))

        def submit(w: _Worker) -> bool:
            cut = cutter.next(unit_size(w))
            if cut is None:
                return False
            unit, data = cut
            left = [h for h in by_hash if h not in cracked]
            ref = w.actor.crack.remote(left, mode, data)
            pending[ref] = (w, unit)
            w.in_flight += 1
            return True

        def fill() -> None:
            for w in workers:
                while not w.lost and w.in_flight < _IN_FLIGHT and submit(w):
                    pass

        fill()
        last_report = time.perf_counter()
        stopped = False
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=_PROGRESS_INTERVAL)
            for ref in ready:
                w, unit = pending.pop(ref)
                w.in_flight -= 1
                try:
                    out = ray.get(ref)
                except RayTaskError as e:  # the library raised on the worker: the same would happen anywhere
                    raise InvalidArgument(f"a worker on {w.node} failed: {e.cause}") from None
                except RayActorError:  # the worker died with the unit
                    cutter.give_back(unit)  # redone by the next free worker
                    status["redone"] += 1
                    w.failures += 1
                    w.speed = 0.0
                    if w.failures > _WORKER_RESTARTS * _IN_FLIGHT:  # each death fails its units in flight
                        w.lost = True
                    continue
                w.units += 1
                w.failures = 0
                w.speed, w.engine = float(out["speed"]), str(out["engine"])
                w.last_bytes = unit.end - unit.start
                if out["seconds"] > 0:
                    w.bytes_per_second = w.last_bytes / out["seconds"]
                for h, plain, pos in out["finds"]:
                    if h in cracked:
                        continue
                    cracked.add(h)
                    position = unit.first_word * per_word + pos
                    saved.finds.append((h, plain, position))
                    for i in by_hash[h]:
                        t = targets[i]
                        item = (i, t[0], t[1], t[2], plain, position)
                        finds.append(item)
                        if on_find is not None:
                            on_find(item)
                saved.done.append(unit)
                saved.save()
            if len(cracked) == len(by_hash):
                end_state = "cracked"
                break
            now = time.perf_counter()
            if ready or now - last_report >= _PROGRESS_INTERVAL:
                last_report = now
                if report():
                    stopped = True
                    break
            if all(w.lost for w in workers):
                raise EngineUnavailable("every Ray worker was lost")
            fill()
        if stopped:
            end_state = "stopped"
        report()
    finally:
        cutter.close()
        for w in workers:
            try:
                ray.kill(w.actor)
            except Exception:  # noqa: BLE001 - a worker already gone
                pass
        if started_ray:
            ray.shutdown()
    status["state"] = end_state
    status["eta"] = None
    if end_state == "stopped":
        saved.save()
    else:
        saved.remove()
    return end_state, finds, status, bad
