"""Speed measurements: the harness behind ``cryptaccel speed``, in this process. Throughput of every engine, like
``openssl speed -evp``, optionally next to OpenSSL's libcrypto::

    from cryptaccel import bench

    result = bench.speed(["aes-128-ctr", "sha256"], sizes=[16, "1k", "1M"], engines=["cpu"], vs="openssl",
                         seconds=0.5)
    result.report["results"][0]["bytes_per_second"]   # the report: the same dict as `cryptaccel speed --json`
    print(result.text)                                # the table `cryptaccel speed` prints
    result.ok                                         # False when an engine failed its check against ref
    bench.speed(["rsa2048"], engines=["cpu"], batch=64, threads=1)   # RSA sign and verify per second
    bench.families()                                  # {"cipher": [...], "hash": [...], "shacrypt": [...], ...}

Arguments (each as the ``cryptaccel speed`` option of the same name; ``None`` takes its default):
``algorithms`` (``-a``; a name or a list; default: aes-128-ctr aes-256-ctr aes-256-gcm aes-256-cbc aes-256-xts
sm4-ctr sha256 sha3-256), ``engines`` (``--engine``; default every available engine), ``sizes`` (``--bytes``:
ints or strings with ``k``/``M``; default 16 64 256 1024 8192 16384), ``seconds`` per cell (``--seconds``),
``threads`` per call for CPU engines (``--threads``, 0: all cores), ``batch`` (``--batch``: also time batches of this
many messages), ``vs`` (``--vs``: ``"openssl"``).

Every implementation is checked against the ``ref`` engine before it is timed; one that fails is in
``result.errors`` ("ALGO [ENGINE]: why", as ``cryptaccel speed`` reports it on stderr) and in
``report["errors"]``, and ``result.ok`` is False. The measurement runs with the GIL released.

Errors: a bad value (an unknown algorithm or engine, a size of 0 or over 1 GiB, ``seconds`` out of (0, 3600], a
negative ``threads``, ``vs`` other than ``"openssl"``) raises :class:`cryptaccel.InvalidArgument` (a ValueError) whose
message is that of ``cryptaccel speed`` and so names its option (``--bytes: not a size: '12q' ...``); an engine that
exists but cannot run here :class:`cryptaccel.EngineUnavailable`; an argument of the wrong type
:class:`cryptaccel.InvalidArgumentType` (a TypeError).
"""

from __future__ import annotations

import json
import numbers
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Optional, Union

from . import _cryptaccel as _ext
from ._errors import EngineUnavailable, InvalidArgument, InvalidArgumentType

__all__ = ["speed", "families", "SpeedResult"]


@dataclass(frozen=True)
class SpeedResult:
    """One speed run: ``report`` is the JSON report of ``cryptaccel speed --json`` as a dict (schema
    ``cryptaccel-speed/1``: timestamp, machine, build, settings, results, errors), ``text`` the table ``cryptaccel
    speed`` prints, ``errors`` one line per implementation that failed its check or a cell."""

    report: Dict[str, Any]
    text: str
    errors: List[str]

    @property
    def ok(self) -> bool:
        """True when every implementation passed its check and every cell ran (``cryptaccel speed``'s exit status 0)."""
        return not self.errors


def _names(value: Union[None, str, Iterable[str]], what: str) -> List[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    out = list(value)
    for item in out:
        if not isinstance(item, str):
            raise InvalidArgumentType(f"{what}: expected str, got {type(item).__name__}")
    return out


def _count(value: Optional[int], what: str) -> str:
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidArgumentType(f"{what}: expected int, got {type(value).__name__}")
    return str(int(value))


def _sizes(value: Union[None, int, str, Iterable[Union[int, str]]]) -> List[str]:
    if value is None:
        return []
    if isinstance(value, (int, str)):
        value = [value]
    out = []
    for item in value:
        if isinstance(item, str):
            out.append(item)
        else:
            out.append(_count(item, "sizes"))
    return out


def speed(algorithms: Union[None, str, Iterable[str]] = None, *, engines: Union[None, str, Iterable[str]] = None,
          sizes: Union[None, int, str, Iterable[Union[int, str]]] = None, seconds: float = 1.0,
          threads: int = 0, batch: Optional[int] = None, vs: Optional[str] = None) -> SpeedResult:
    """Measures like ``cryptaccel speed`` and returns its report (see the module's docstring)."""
    algos = _names(algorithms, "algorithms")
    engine_names = _names(engines, "engines")
    if isinstance(seconds, bool) or not isinstance(seconds, numbers.Real):
        raise InvalidArgumentType(f"seconds: expected a number, got {type(seconds).__name__}")
    if vs is not None and not isinstance(vs, str):
        raise InvalidArgumentType(f"vs: expected str, got {type(vs).__name__}")
    try:
        json_text, text, errors = _ext._bench_speed(algos, engine_names, _sizes(sizes), float(seconds),
                                                    _count(threads, "threads"), _count(batch, "batch"), vs or "")
    except EngineUnavailable as e:
        # A name that is no engine at all is a bad argument; an engine this machine cannot run stays unavailable.
        known = {info["name"] for info in _ext._engines()} | {"auto"}
        if any(name not in known for name in engine_names):
            raise InvalidArgument(str(e)) from None
        raise
    return SpeedResult(json.loads(json_text), text, list(errors))


def families() -> Dict[str, List[str]]:
    """The workload names ``speed`` accepts, by family (cipher, hash, shacrypt, rsa)."""
    return {name: list(names) for name, names in _ext._bench_families()}
