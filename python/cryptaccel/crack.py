"""Dictionary attacks on password hashes, hashcat-style (``-a 0``: a wordlist, each word through every rule), on any
engine: the library behind ``cryptaccel crack``::

    from cryptaccel import crack

    result = crack.run("shadow", "words.txt", rule_files=["rules/cryptaccel-small.rule"])
    for f in result.finds:
        print(f.user, f.hash, f.plain)          # plain: bytes
    result.end                                  # "cracked", "exhausted" or "stopped"

    crack.run(["5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8"], "words.txt", mode="sha256")
    crack.run("hashes.txt", "words.txt", skip=1000, limit=1000)     # words [1000, 2000), each with every rule
    crack.candidates("words.txt", rules=["u", "$1"])                 # as `hashcat --stdout`
    crack.apply_rule("sa@", b"password")                             # b'p@ssword'

Hashes are a hash file (a path: ``/etc/shadow`` lines, bare ``$6$``/``$5$`` strings, hex digests) or a list of such
lines. ``mode`` forces the hash type (``"sha512crypt"``, ``"sha256crypt"``, ``"sha256"``, ``"sha512"``,
``"sha3-256"``, ``"sm3"``, or hashcat's numbers); without it each line's type is detected (a 64-digit hex digest
needs ``mode``). Rules are hashcat rule files (``rule_files``, stacked as repeated ``-r``) and/or rule lines
(``rules``). ``known``: hash strings already cracked (a potfile's), not searched for.

``on_find(find)`` is called with each find as it is made; ``on_progress(status)`` after every batch with the status
dict (``state``, ``progress``, ``total``, ``speed`` in hashes per second, ``elapsed``, ``eta``, ``recovered``,
``targets``, ``recovered_settings``, ``settings``, ``engine``, ``time_start``); a true return value stops the attack
after that batch (``end == "stopped"``), as does setting ``stop`` (a ``threading.Event``). The attack runs with the
GIL released between batches.

Errors: an unreadable hash file, wordlist or rule file, a bad rule or mode raise :class:`cryptaccel.InvalidArgument`;
an engine that cannot hash the targets :class:`cryptaccel.EngineUnavailable`. Unusable hash lines do not raise: they
are in ``result.skipped``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Union

from . import _cryptaccel as _ext
from ._errors import InvalidArgument, InvalidArgumentType

__all__ = ["run", "candidates", "apply_rule", "Find", "Result", "SkippedLine"]


@dataclass(frozen=True)
class Find:
    """A cracked hash: where it came from, the plain, and its keyspace position (word index x rules + rule)."""

    target: int
    hash: str
    user: str
    line: int
    plain: bytes
    position: int


@dataclass(frozen=True)
class SkippedLine:
    """A hash line that gave no target: ``kind`` is ``"unusable"`` (malformed or of another mode),
    ``"no_password_hash"`` (a locked or shadowed account) or ``"empty_password"`` (an account without a password)."""

    line: int
    reason: str
    kind: str
    user: str


@dataclass
class Result:
    """How an attack ended, what it found (in the order found) and its last status."""

    end: str
    finds: List[Find] = field(default_factory=list)
    status: Dict[str, Any] = field(default_factory=dict)
    skipped: List[SkippedLine] = field(default_factory=list)


PathLike = Union[str, "os.PathLike[str]"]


def _path(name: str, value: Any) -> str:
    if isinstance(value, (str, os.PathLike)):
        return os.fspath(value)
    raise InvalidArgumentType(f"{name} must be a path (str or os.PathLike), not {type(value).__name__}")


def _strs(name: str, values: Iterable[Any]) -> List[str]:
    if isinstance(values, (str, bytes)):
        raise InvalidArgumentType(f"{name} must be a list of str, not a single {type(values).__name__}")
    out = []
    for i, v in enumerate(values):
        if isinstance(v, os.PathLike):
            v = os.fspath(v)
        if not isinstance(v, str):
            raise InvalidArgumentType(f"{name}[{i}] must be a str, not {type(v).__name__}")
        out.append(v)
    return out


def _count(name: str, value: Any, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgumentType(f"{name} must be an int, not {type(value).__name__}")
    if value < minimum:
        raise InvalidArgument(f"{name} must be at least {minimum}, got {value}")
    return value


def run(
    hashes: Union[PathLike, Sequence[str]],
    wordlist: PathLike,
    *,
    rule_files: Sequence[PathLike] = (),
    rules: Sequence[str] = (),
    mode: Optional[str] = None,
    engine: str = "auto",
    threads: int = 0,
    batch: int = 0,
    skip: int = 0,
    limit: Optional[int] = None,
    known: Iterable[str] = (),
    on_find: Optional[Callable[[Find], Any]] = None,
    on_progress: Optional[Callable[[Dict[str, Any]], Any]] = None,
    stop: Optional[Any] = None,
    cluster: Optional[str] = None,
    restore_file: Optional[PathLike] = None,
    restore: bool = False,
    unit_seconds: float = 5.0,
) -> Result:
    """Runs a dictionary attack over words ``[skip, skip + limit)`` of ``wordlist`` (``"-"``: stdin), each with every
    rule; returns when every hash is cracked, the words are exhausted or the attack is stopped.

    ``cluster``: run on a Ray cluster instead of this machine (``"auto"``: the running cluster, as ``ray.init``
    finds it; ``"local"``: a Ray node started here; or its address; an already initialised Ray is used as it is).
    ``restore_file`` records finished work units and finds; ``restore=True`` continues the attack recorded there.
    ``unit_seconds``: the time a work unit should take on its worker."""
    if isinstance(hashes, (str, os.PathLike)):
        hash_file, hash_lines = os.fspath(hashes), []
    else:
        hash_file, hash_lines = None, _strs("hashes", hashes)
    if mode is not None and not isinstance(mode, str):
        raise InvalidArgumentType(f"mode must be a str or None, not {type(mode).__name__}")
    if not isinstance(engine, str):
        raise InvalidArgumentType(f"engine must be a str, not {type(engine).__name__}")
    if limit is not None:
        _count("limit", limit, 1)

    def found(item: tuple) -> None:
        if on_find is not None:
            on_find(Find(*item))

    def progress(status: Dict[str, Any]) -> bool:
        wants_stop = bool(on_progress(status)) if on_progress is not None else False
        return wants_stop or (stop is not None and stop.is_set())

    if cluster is not None:
        if not isinstance(cluster, str) or not cluster:
            raise InvalidArgumentType("cluster must be a non-empty str (\"auto\", \"local\" or an address)")
        if isinstance(unit_seconds, bool) or not isinstance(unit_seconds, (int, float)) or not unit_seconds > 0:
            raise InvalidArgument(f"unit_seconds must be a positive number, got {unit_seconds!r}")
        from ._ray_crack import run_cluster

        end, finds, status, skipped = run_cluster(
            cluster=cluster, hash_file=hash_file, hash_lines=hash_lines, mode=mode,
            wordlist=_path("wordlist", wordlist), rule_files=_strs("rule_files", rule_files),
            rules=_strs("rules", rules), engine=engine, threads=_count("threads", threads, 0),
            batch=_count("batch", batch, 0), skip=_count("skip", skip, 0), limit=limit, known=_strs("known", known),
            on_find=found if on_find is not None else None,
            on_progress=progress if (on_progress is not None or stop is not None) else None,
            restore_file=None if restore_file is None else _path("restore_file", restore_file),
            restore=bool(restore), unit_seconds=float(unit_seconds))
        return Result(end, [Find(*f) for f in finds], status, [SkippedLine(*s) for s in skipped])
    if restore_file is not None or restore:
        raise InvalidArgument("restore_file and restore need cluster= (a local attack is restarted with skip=)")
    end, finds, status, skipped = _ext._crack_run(
        hash_file, hash_lines, mode, _path("wordlist", wordlist), _strs("rule_files", rule_files),
        _strs("rules", rules), engine, _count("threads", threads, 0), _count("batch", batch, 0),
        _count("skip", skip, 0), limit, _strs("known", known), found if on_find is not None else None,
        progress if (on_progress is not None or stop is not None) else None)
    return Result(end, [Find(*f) for f in finds], status, [SkippedLine(*s) for s in skipped])


def candidates(wordlist: PathLike, *, rule_files: Sequence[PathLike] = (), rules: Sequence[str] = (), skip: int = 0,
               limit: Optional[int] = None) -> List[bytes]:
    """The candidates of words ``[skip, skip + limit)`` in keyspace order, as ``hashcat --stdout`` lists them (a word
    a rule cannot mangle is left out)."""
    if limit is not None:
        _count("limit", limit, 1)
    text = _ext._crack_candidates(_path("wordlist", wordlist), _strs("rule_files", rule_files), _strs("rules", rules),
                                  _count("skip", skip, 0), limit)
    return text.split(b"\n")[:-1]


def apply_rule(rule: str, word: Union[bytes, str]) -> Optional[bytes]:
    """One hashcat rule line applied to ``word`` (str: UTF-8); None when the word is too long to be mangled."""
    if not isinstance(rule, str):
        raise InvalidArgumentType(f"rule must be a str, not {type(rule).__name__}")
    if isinstance(word, str):
        word = word.encode("utf-8")
    if not isinstance(word, (bytes, bytearray, memoryview)):
        raise InvalidArgumentType(f"word must be bytes or str, not {type(word).__name__}")
    return _ext._crack_apply_rule(rule, bytes(word))
