"""Full garbage collections when the app is quiet, not in the middle of a stream of changes.

The store holds the namespace as parsed JSON: with 1,000 pods and their events that is about a
million objects, and CPython's automatic full (generation 2) collection walks every one of them,
200 to 400 ms on a small machine: the longest stall of the event loop while changes stream in.
Those objects are plain dicts, lists and strings, freed by reference counting as soon as the
store replaces them, so holding back the cycle collector keeps little alive. Generations 0 and
1 still run as usual; the full collection runs once nothing has been refreshed for QUIET seconds,
or at the latest LONGEST seconds after the last one, so a cluster that never goes quiet cannot
pile up cycles without end.

Before the first frame no collection runs at all (hold_until_first_frame): start-up builds about
60,000 tracked objects, most of which live as long as the app (Textual's modules, the CSS, the
widgets, the lesson), and the young collections that ran meanwhile walked them again and again,
35 to 60 ms before the first frame. Once the frame is up they are frozen (gc.freeze) instead of
collected: no collection walks them again, neither the young ones right after the frame (about
100 ms) nor each full one later. Cyclic garbage among frozen objects is never collected: what
start-up left (about 2,500 objects), and those of them dropped later (step 1's markdown blocks, say):
a bounded cost, paid once.

The same holds for what the store has built since: after each quiet full collection, what
survived it is frozen too, so the next one walks only what came after (a full walk of 1,000 pods
took 100 to 160 ms, as long as a burst may stall the loop; a burst that starts just then waits it
out). Replaced pods, events and rows are still freed at once by reference counting; only cyclic
garbage among frozen objects (a closed toast, a step's old markdown) waits for the THOROUGH
collection, which unfreezes everything once every THOROUGH seconds, at a quiet moment. Only an
app whose start-up was held (the CLI's) freezes: a test process keeps its collector as it was.
"""

from __future__ import annotations

import asyncio
import gc
from contextlib import contextmanager
from time import monotonic

QUIET = 0.5  # seconds without a refresh before the full collection
LONGEST = 30.0  # seconds: a full collection is never put off longer than this
THOROUGH = 600.0  # seconds between collections that walk the frozen objects too
NEVER = 1_000_000  # a generation-2 threshold that younger collections never reach


_held = False  # start-up holds collections back (the CLI's tutor and demo do; tests' apps do not)


def hold_until_first_frame() -> None:
    """No collection until release() (QuietCollector.first_frame or stop) lets them run again."""
    global _held
    _held = True
    gc.disable()


def release(freeze: bool = False) -> None:
    """Collections run again; with freeze, what start-up built (if it held them back) is frozen."""
    global _held
    if _held and freeze:
        gc.freeze()
    _held = False
    gc.enable()


@contextmanager
def held_until_first_frame():
    """Around building and running the app: the app releases the hold at its first frame; this
    releases it too if the app could not be built or ended before drawing one."""
    hold_until_first_frame()
    try:
        yield
    finally:
        release()


class QuietCollector:
    def __init__(self) -> None:
        self._saved: tuple[int, int, int] | None = None
        self._pending: asyncio.TimerHandle | None = None
        self._last = monotonic()
        self._freezing = False  # set at the first frame when start-up was held
        self._thorough = monotonic()

    def start(self) -> None:
        self._last = monotonic()
        self._saved = gc.get_threshold()
        gc.set_threshold(self._saved[0], self._saved[1], NEVER)

    def first_frame(self) -> None:
        self._freezing = _held
        self._thorough = monotonic()
        release(freeze=True)

    def stop(self) -> None:
        release()
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            self._saved = None

    def busy(self) -> None:
        """After a refresh: collect in full once QUIET seconds pass without another."""
        if self._saved is None:
            return
        if self._pending is not None:
            self._pending.cancel()
        wait = 0 if monotonic() - self._last > LONGEST else QUIET
        self._pending = asyncio.get_running_loop().call_later(wait, self._collect)

    def _collect(self) -> None:
        self._pending = None
        self._last = monotonic()
        if not self._freezing:
            gc.collect()
            return
        if self._last - self._thorough > THOROUGH:
            self._thorough = self._last
            gc.unfreeze()
        gc.collect()
        gc.freeze()
