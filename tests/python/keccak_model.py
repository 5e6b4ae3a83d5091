"""Keccak-p[1600, n] in plain Python (FIPS 202, section 3), the oracle of the RISC-V kernel tests and of the Python
API's Keccak tests (test_python_hash.py): written from the standard
alone — the round constants come from the LFSR of 3.2.5 and the rho offsets from the walk of 3.2.2 — so that the
kernels are checked independently of cryptaccel's library (whose ref engine `rv run --check` uses). Slow (pure
Python: about 2 ms per state); the tests use a handful of states.
"""
from __future__ import annotations

import struct
from typing import List, Sequence

MASK64 = (1 << 64) - 1


def _rc_bit(t: int) -> int:
    """rc(t) of FIPS 202, Algorithm 5: the LFSR x^8 + x^6 + x^5 + x^4 + 1."""
    if t % 255 == 0:
        return 1
    r = [1, 0, 0, 0, 0, 0, 0, 0]
    for _ in range(t % 255):
        r = [0] + r
        for i in (0, 4, 5, 6):
            r[i] ^= r[8]
        r = r[:8]
    return r[0]


ROUND_CONSTANTS: List[int] = [
    sum(_rc_bit(j + 7 * ir) << ((1 << j) - 1) for j in range(7)) for ir in range(24)]


def _rho_offsets() -> List[int]:
    """Offsets of lane x + 5y (FIPS 202, Algorithm 2: (x, y) walks (1, 0), then (y, 2x + 3y))."""
    off = [0] * 25
    x, y = 1, 0
    for t in range(24):
        off[x + 5 * y] = ((t + 1) * (t + 2) // 2) % 64
        x, y = y, (2 * x + 3 * y) % 5
    return off


RHO: List[int] = _rho_offsets()


def _rotl(v: int, n: int) -> int:
    return ((v << n) | (v >> (64 - n))) & MASK64 if n else v


def keccak_p(lanes: Sequence[int], rounds: int = 24) -> List[int]:
    """Keccak-p[1600, rounds] of 25 lanes (lane (x, y) at x + 5y): rounds 24 - rounds .. 23 of Keccak-f[1600]."""
    assert 1 <= rounds <= 24 and len(lanes) == 25
    a = list(lanes)
    for ir in range(24 - rounds, 24):
        c = [a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20] for x in range(5)]
        d = [c[(x - 1) % 5] ^ _rotl(c[(x + 1) % 5], 1) for x in range(5)]
        a = [a[i] ^ d[i % 5] for i in range(25)]
        b = [0] * 25
        for x in range(5):
            for y in range(5):
                b[y + 5 * ((2 * x + 3 * y) % 5)] = _rotl(a[x + 5 * y], RHO[x + 5 * y])
        a = [b[i] ^ (~b[(i + 1) % 5 + i // 5 * 5] & b[(i + 2) % 5 + i // 5 * 5]) for i in range(25)]
        a[0] ^= ROUND_CONSTANTS[ir]
    return a


def keccak_p_bytes(states: bytes, rounds: int = 24) -> bytes:
    """keccak_p on every 200-byte state (25 little-endian lanes) of `states`."""
    assert len(states) % 200 == 0
    out = []
    for s in range(0, len(states), 200):
        out.append(struct.pack("<25Q", *keccak_p(struct.unpack_from("<25Q", states, s), rounds)))
    return b"".join(out)
