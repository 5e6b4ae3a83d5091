"""``cryptaccel crack --ray``'s cluster runner: ``python3 -m cryptaccel._ray_crack_pipe``.

The command reads the attack as one JSON object on stdin (the keyword arguments of :func:`cryptaccel.crack.run`, with
``hash_file``) and writes one JSON object per line on stdout as the attack goes: ``{"event": "find", "target": I,
"plain": HEX, "position": N}``, ``{"event": "status", ...}`` (crack.run's status dict), and last ``{"event": "end",
"end": ..., "status": {...}}`` or ``{"event": "error", "kind": ..., "message": ...}``. The end of stdin stops the
attack (the units in flight are abandoned: --restore does them): the command line closes it on Ctrl-C or SIGTERM,
since Ray replaces a driver's signal handlers. The command line prints everything: this module only carries events.
"""

from __future__ import annotations

import json
import sys
import threading
from typing import Any, Dict


def _emit(event: Dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()


def main() -> int:
    stop = threading.Event()
    try:
        request = json.loads(sys.stdin.readline())

        def stop_at_end_of_stdin() -> None:
            while sys.stdin.readline():
                pass
            stop.set()

        threading.Thread(target=stop_at_end_of_stdin, daemon=True).start()
        from . import crack

        def on_find(f: Any) -> None:
            _emit({"event": "find", "target": f.target, "plain": f.plain.hex(), "position": f.position})

        def on_progress(status: Dict[str, Any]) -> bool:
            _emit({"event": "status", "status": status})
            return False

        result = crack.run(request.pop("hash_file"), request.pop("wordlist"), on_find=on_find,
                           on_progress=on_progress, stop=stop, **request)
        _emit({"event": "end", "end": result.end, "status": result.status})
        return 0
    except Exception as e:  # noqa: BLE001 - every failure becomes one event the command line reports
        _emit({"event": "error", "kind": type(e).__name__, "message": str(e) or type(e).__name__})
        return 1


if __name__ == "__main__":
    sys.exit(main())
