"""The bounds of the tests' waits, and the one way a wait fails when its bound runs out.

A wait looks at what it waits for and returns as soon as that holds, so a bound that fits a
loaded machine costs a quiet one nothing. Each bound is a quiet machine's time scaled by LOADED:
at load 10 on two cores a test process gets a fifth of a core, the threads it waits on (a replay,
markdown parsed off the loop, a file watcher) less, and the loop's turns come later still.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

LOADED = 30
"""How many times longer a wait may take on a loaded machine than on a quiet one."""


def loaded(quiet_s: float) -> float:
    """The bound for a wait that takes at most `quiet_s` seconds on a quiet machine."""
    return quiet_s * LOADED


MOMENT = loaded(2)
"""A frame drawn, a screen pushed or popped, markdown parsed in a thread, a debounced re-check,
a file seen by the watcher: well under a second on a quiet machine."""

REPLAY = loaded(4)
"""A recording replayed to its end, checked and drawn (the walkthrough, the largest, and the demo
at speed 1000 each take about a second on a quiet machine)."""

DEMO = loaded(8)
"""The demo paced by the clock at speed 50 (the walkthrough's three minutes in about 4 s, and a
pause after each step) replayed to its end, checked and drawn."""

PROCESS = loaded(4)
"""A process of the tutor's run to its answer or its first frame, or a server's to its first
line: Python imports the tutor (and Textual), a few seconds on a quiet machine."""

LAB = loaded(4)
"""The lab's cluster acting on a change and the tutor seeing it: the API server, a controller, the
scheduler, a KWOK node or the real kubelet, a few seconds on a quiet machine."""

SPELL = 0.5
"""A negative wait: how long a test watches for something that must NOT happen. Load cannot make
it fail (a slow machine only makes the unwanted thing later), so it stays short and is no bound."""

STEP = 0.05
"""How often a wait looks again."""


def ran_out(what: str, waited_s: float, last: Any) -> AssertionError:
    return AssertionError(f"waited {waited_s:.1f} s for {what}; the last seen: {last!r}")


async def until(pause: Callable[[float], Awaitable[Any]], cond: Callable[[], Any], what: str,
                timeout: float = MOMENT, seen: Callable[[], Any] | None = None) -> Any:
    """Waits until cond() is truthy and returns its value, awaiting pause(STEP) between looks (the
    app's loop runs meanwhile). When `timeout` runs out, raises an AssertionError naming `what`, the
    seconds waited and the last value seen: seen() when given, else cond()'s last value."""
    start = time.monotonic()
    while True:
        value = cond()
        if value:
            return value
        waited = time.monotonic() - start
        if waited >= timeout:
            raise ran_out(what, waited, seen() if seen else value)
        await pause(STEP)


def _looks(cond: Callable[[], Any], what: str, spell: float) -> Iterator[None]:
    """The looks of a negative wait: yields (for a pause of STEP) after each look that found cond()
    holding, until the spell is over; raises at the first look where it does not, saying `what`
    no longer held and when."""
    start = time.monotonic()
    while True:
        if not cond():
            raise AssertionError(f"{what} no longer held {time.monotonic() - start:.1f} s on")
        if time.monotonic() - start >= spell:
            return
        yield


async def still(pause: Callable[[float], Awaitable[Any]], cond: Callable[[], Any], what: str,
                spell: float = SPELL) -> None:
    """A negative wait: cond() holds the whole spell, looked at every STEP (something must NOT
    happen: a question asked, a notice shown). Fails at the first look where it does not."""
    for _ in _looks(cond, what, spell):
        await pause(STEP)


def still_sync(cond: Callable[[], Any], what: str, spell: float = SPELL) -> None:
    """still() for a test with no event loop of its own (a browser driven by Playwright's sync API,
    a server's processes): sleeps between the looks."""
    for _ in _looks(cond, what, spell):
        time.sleep(STEP)
