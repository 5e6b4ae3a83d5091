"""A command's peak memory (ru_maxrss), measured as `/usr/bin/time -f %M` does: from a small launcher that forks it.

A child forked (or vforked) straight from the test process inherits the test process's high-water mark at exec, so
`os.wait4` on it reports at least the test process's own peak (100+ MB under pytest). The launcher is a fresh
interpreter (about 10 MB), and the command's figure is its own.
"""
from __future__ import annotations

import os
import subprocess
import sys

_LAUNCHER = """
import os, sys
out = int(sys.argv[1])
pid = os.fork()
if pid == 0:
    os.close(out)
    os.execvp(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
os.write(out, f"{os.waitstatus_to_exitcode(status)} {usage.ru_maxrss}".encode())
"""


class Measured:
    """A running command (`proc`, a Popen of the launcher: its pipes are the command's) and, once it ended, its exit
    code and peak resident set in KiB."""

    def __init__(self, args, **popen_kwargs):
        self._read, write = os.pipe()
        try:
            self.proc = subprocess.Popen([sys.executable, "-c", _LAUNCHER, str(write), *map(str, args)],
                                         pass_fds=(write,), **popen_kwargs)
        finally:
            os.close(write)

    def result(self, timeout=None) -> tuple[int, int]:
        """Waits for the command; returns (exit code, peak RSS in KiB)."""
        self.proc.wait(timeout=timeout)
        with os.fdopen(self._read, "rb") as f:
            code, rss = f.read().split()
        return int(code), int(rss)
