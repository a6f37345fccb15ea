"""Any command run on a busy machine: N processes that keep a core busy each (the soak's hogs)
beside it for as long as it runs. Prints the command's exit status and wall time on the last
line, and exits with the command's status.

    .venv/bin/python -m tests.bench.loaded --hogs 2 -- bash tests/run.sh

A suite that passes only on a quiet machine fails the day a CI run meets a busy one; this is how
BENCHMARKS.md's loaded runs of the suite are made.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

from tests.bench.soak import loaded


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.bench.loaded")
    ap.add_argument("--hogs", type=int, default=2, help="busy processes beside the command (default 2)")
    ap.add_argument("command", nargs=argparse.REMAINDER, help="the command, after --")
    a = ap.parse_args(argv)
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not cmd:
        ap.error("no command given (put it after --)")
    t0 = time.monotonic()
    with loaded(a.hogs):
        status = subprocess.call(cmd)
    print(f"loaded run: {' '.join(cmd)}: exit {status} after {(time.monotonic() - t0) / 60:.1f} min "
          f"with {a.hogs} hogs", file=sys.stderr, flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
