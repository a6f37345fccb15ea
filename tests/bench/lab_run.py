"""A lab for a benchmark, stopped and removed however the benchmark ends.

The lab's processes run in sessions of their own, so a bench killed by a signal would leave them
running: SIGTERM and SIGHUP are turned into SystemExit while the lab is up, so the `finally` that
stops it runs (SIGINT already raises KeyboardInterrupt)."""

from __future__ import annotations

import signal
import sys
from contextlib import contextmanager


def _exit(signum, _frame) -> None:
    raise SystemExit(128 + signum)


@contextmanager
def bench_lab(**kw):
    from tests.e2e.labcluster.lab import up

    before = {sig: signal.signal(sig, _exit) for sig in (signal.SIGTERM, signal.SIGHUP)}
    lab = None
    try:
        lab = up(**kw)
        yield lab
    finally:
        try:
            if lab is not None:
                print("bench: stopping its lab", file=sys.stderr, flush=True)
                lab.stop()
                lab.remove()
        finally:
            for sig, handler in before.items():
                signal.signal(sig, handler)
