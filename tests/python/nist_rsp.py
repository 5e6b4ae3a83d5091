"""A small parser for NIST CAVP ``.rsp`` files and the ``.txt`` vector files in the same format.

The format, as used by cryptography_vectors::

    # comment
    [ENCRYPT]                 section: ENCRYPT or DECRYPT (absent in GCM files: the file name says)
    [Keylen = 128]            bracketed parameter headers, in effect until replaced
    [Taglen = 96]

    COUNT = 0                 one record: "name = value" lines (value may be empty), up to a blank line
    KEY = 00112233...
    FAIL                      a bare FAIL line marks a record that must be rejected (GCM decrypt)

Bracketed lines that are neither a one-word section nor ``name = value`` (``[Tested for Output of byte-oriented
messages]`` in the SHAKE VariableOut files) are notes: they end the current record and are otherwise ignored.
Parameter names may contain spaces and parentheses (``[Minimum Output Length (bits) = 128]`` is stored as
``params["minimum output length (bits)"]``).

Field and parameter names are case-insensitive (the files mix ``KEY``/``Key``, ``TAG``/``Tag``); they are stored
lower-case. Values are kept as the strings from the file; :func:`unhex` turns a hex value into bytes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Union

__all__ = ["Record", "parse", "parse_file", "unhex"]

_PARAM = re.compile(r"^\[\s*([^=\]]+?)\s*=\s*([^\]]*?)\s*\]$")
_SECTION = re.compile(r"^\[\s*([A-Za-z]+)\s*\]$")
_NOTE = re.compile(r"^\[[^\]=]*\]$")
_FIELD = re.compile(r"^([A-Za-z][A-Za-z0-9_ ]*?)\s*=\s*(.*)$")


@dataclass
class Record:
    """One test vector."""

    path: str
    line: int                      #: line number of the record's first field (for messages)
    section: Optional[str]         #: "ENCRYPT", "DECRYPT" or None
    params: Dict[str, str]         #: bracketed headers in effect (lower-case names)
    fields: Dict[str, str] = field(default_factory=dict)  #: lower-case name -> raw value
    fail: bool = False             #: a FAIL line was present

    def __getitem__(self, name: str) -> str:
        return self.fields[name.lower()]

    def get(self, name: str, default: Optional[str] = None) -> Optional[str]:
        return self.fields.get(name.lower(), default)

    def has(self, name: str) -> bool:
        return name.lower() in self.fields

    def data(self, name: str) -> bytes:
        """The field's value hex-decoded to bytes."""
        return unhex(self[name])

    @property
    def where(self) -> str:
        count = self.get("count")
        tag = f" COUNT={count}" if count is not None else ""
        sect = f" [{self.section}]" if self.section else ""
        return f"{Path(self.path).name}:{self.line}{sect}{tag}"


def unhex(text: str) -> bytes:
    """Decodes a hex string from a vector file ("" -> b"")."""
    text = text.strip()
    if len(text) % 2:
        raise ValueError(f"odd-length hex string {text!r}")
    return bytes.fromhex(text)


class ParseError(ValueError):
    pass


def parse(text: str, path: str = "<string>") -> Iterator[Record]:
    """Yields the records of a vector file's text, in file order."""
    section: Optional[str] = None
    params: Dict[str, str] = {}
    current: Optional[Record] = None

    def flush() -> Iterator[Record]:
        nonlocal current
        if current is not None and (current.fields or current.fail):
            yield current
        current = None

    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            if not line:
                yield from flush()
            continue
        m = _SECTION.match(line)
        if m:
            yield from flush()
            section = m.group(1).upper()
            params = {}
            continue
        m = _PARAM.match(line)
        if m:
            yield from flush()
            params = dict(params)
            params[m.group(1).strip().lower()] = m.group(2).strip()
            continue
        if _NOTE.match(line):
            yield from flush()
            continue
        if line.upper() == "FAIL":
            if current is None:
                raise ParseError(f"{path}:{lineno}: FAIL outside a record")
            current.fail = True
            continue
        m = _FIELD.match(line)
        if not m:
            raise ParseError(f"{path}:{lineno}: cannot parse line {line!r}")
        name, value = m.group(1).strip().lower(), m.group(2).strip()
        # A COUNT line, or a field seen twice, starts a new record even without a blank line in between.
        if current is not None and (name == "count" or name in current.fields):
            yield from flush()
        if current is None:
            current = Record(path=path, line=lineno, section=section, params=params)
        current.fields[name] = value
    yield from flush()


def parse_file(path: Union[str, Path]) -> List[Record]:
    """Parses a vector file."""
    p = Path(path)
    return list(parse(p.read_text(encoding="utf-8", errors="replace"), str(p)))
