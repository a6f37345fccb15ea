"""The refresh pump: items from the sources → the store → one refresh → the panes, paced so the
loop stays free for keys and frames.

Items are applied in slices of APPLY_SLICE; a change after a quiet spell is refreshed at once, a
stream of them is coalesced (at most one refresh per REFRESH_GAP; and each refresh owes a wait of
twice its cost, so refreshing takes at most a third of the loop), and a long burst shows its
progress every PROGRESS_EVERY. Up to WAIT_ALLOWANCE of what is owed is let off: a lone costly
refresh (a step passed) does not hold back the pod that comes 20 ms after it; a stream soon owes
more than that and waits it out. A refresh's panes are redrawn in turns of REDRAW_SLICE; items
that arrive meanwhile wait until its last pane is drawn, so the panes of one refresh show one
state.

Every wait of the pump is a delayed call on its clock, and one that never comes would leave it
waiting for good (the churn stall: a timer lost on a starved loop). `stuck` tells its host's
watchdog when there is work and nothing has moved for a while; `unstick` drops what it was
waiting for and refreshes now.

The pump owns only this pacing. What an item does, what a refresh checks and draws, and the
clock it runs on are its host's (the app, or a test's fake), so the rules can be tested without
a loop, a screen or real time.
"""

from __future__ import annotations

from collections import deque
from functools import partial
from typing import Any, Callable, Iterator, Protocol

REFRESH_GAP = 0.015  # seconds: the least time between two refreshes while changes stream in
APPLY_SLICE = 0.01  # seconds of applying items before the loop gets a turn (keys, frames)
PROGRESS_EVERY = 0.5  # seconds: during a long burst, refresh this often to show progress
REDRAW_SLICE = 0.03  # seconds of pane redrawing before the loop gets a turn (keys, frames)
TURN_AFTER = 0.001  # seconds from one turn of a refresh's redrawing to the next
# Seconds of owed waiting let off (the pod after a pass shows at once). On the lab the costliest
# lone refresh, the leader's failure and its group recreated, took 143 ms: at 0.1 s of allowance
# the pods that came 3 ms after it waited 230 ms for their refresh (BENCHMARKS.md).
WAIT_ALLOWANCE = 0.3


class Stoppable(Protocol):
    def stop(self) -> None: ...


class Clock(Protocol):
    """Time and the loop, as the pump needs them."""

    def now(self) -> float: ...

    def call_later(self, delay: float, fn: Callable[[], None]) -> Stoppable: ...

    def call_soon(self, fn: Callable[[], None]) -> None: ...


class Host(Protocol):
    """What the pump moves: the app, or a test's stand-in."""

    @property
    def closing(self) -> bool: ...

    def take_items(self) -> list: ...  # what the sources have sent since the last call

    def items_settled(self) -> None: ...  # every item taken is applied

    def is_barrier(self, item: Any) -> bool: ...  # the screen must be current before this item

    def apply_item(self, item: Any) -> bool: ...  # True when it changed what a refresh shows

    def run_checks(self) -> Iterator[None]: ...  # checks now; yields after each pane redrawn

    def refresh_drawn(self) -> None: ...  # a refresh is drawn (on screen from the next frame)

    def wake(self) -> None: ...  # drain() again, after the messages already queued


class RefreshPump:
    def __init__(self, host: Host, clock: Clock):
        self.host = host
        self.clock = clock
        self.pending: deque = deque()  # items taken, not yet applied
        self.dirty = False  # the store or the files changed since the last refresh
        self.timer: Stoppable | None = None  # the refresh waiting for its gap
        self.refreshed_at = float("-inf")  # when the last refresh was drawn
        self.owed = 0.0  # seconds of waiting the refreshes owe: twice each one's cost, less waits
        self.started_at = float("-inf")  # when the refresh being drawn (or the last) began
        self.redraws: Iterator[None] | None = None  # the panes of a refresh still to redraw
        self.drain_after_redraw = False  # items came while a refresh was being drawn
        self.moved_at = clock.now()  # the last time it applied items or drew a turn of a refresh
        self.unstuck = 0  # how many times its watchdog found it waiting for a call that never came

    @property
    def refreshing(self) -> bool:
        """Whether a refresh's panes are still being redrawn (in turns of the loop)."""
        return self.redraws is not None

    @property
    def idle(self) -> bool:
        """Nothing to apply, none waiting, none being drawn."""
        return not self.pending and self.timer is None and self.redraws is None and not self.dirty

    def drain(self) -> None:
        """Applies what the sources sent, for at most APPLY_SLICE, and schedules the refresh."""
        if self.redraws is not None:
            # Applied once the refresh under way is drawn: its panes show one state, and each
            # does not redo what changed between the turns (_turn wakes the next drain).
            self.drain_after_redraw = True
            return
        self.pending.extend(self.host.take_items())
        self.moved_at = self.clock.now()
        changed = False
        deadline = self.clock.now() + APPLY_SLICE
        while self.pending:
            item = self.pending.popleft()
            if self.host.is_barrier(item) and (changed or self.dirty or self.timer is not None):
                self.refresh_now()  # what the item shows must follow what the data before it passed
                changed = False
            changed |= bool(self.host.apply_item(item))
            if self.clock.now() > deadline:
                break
        self.dirty |= changed
        if self.pending:  # the rest after the loop's other work
            self.clock.call_soon(self.host.wake)
            if self.dirty and self.clock.now() - self.refreshed_at > PROGRESS_EVERY:
                self.schedule()
            return
        self.host.items_settled()
        if self.dirty:
            self.schedule()

    def schedule(self) -> None:
        """A refresh after the gap; none starts while one's panes are still being redrawn (it
        schedules the next itself once done, so a long burst cannot keep a pane from its turn)."""
        if self.timer is None and self.redraws is None:
            gap = max(REFRESH_GAP, self.owed - WAIT_ALLOWANCE)
            wait = max(0.001, self.refreshed_at + gap - self.clock.now())  # a timer needs > 0
            self.timer = self.clock.call_later(wait, self._on_timer)

    def _on_timer(self) -> None:
        self.timer = None
        if not self.host.closing:
            self.refresh_now()

    def stuck(self, waiting: bool, after: float) -> bool:
        """Whether there is work (items taken, or `waiting` in the host's inbox, a refresh due or
        being drawn) and nothing has moved for `after` seconds."""
        work = waiting or not self.idle or self.drain_after_redraw
        return work and self.clock.now() - self.moved_at > after

    def unstick(self) -> None:
        """Forgets the call it was waiting for (a timer, the next turn of a refresh) and starts
        again: everything waiting is applied and refreshed."""
        self.unstuck += 1
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        self.redraws = None
        self.drain_after_redraw = False
        self.moved_at = self.clock.now()
        self.dirty = True
        self.drain()  # applies what waits; schedules the refresh unless items are left for later
        if self.timer is None and self.redraws is None:
            self.refresh_now()

    def refresh_now(self) -> None:
        """Re-checks now and starts redrawing (a redraw still under way is dropped: each pane
        redraws from what it last drew)."""
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        start = self.started_at = self.clock.now()
        self.dirty = False
        self.redraws = self.host.run_checks()
        self._turn(self.clock.now() - start)

    def redraw_now(self, redraws: Iterator[None]) -> None:
        """Draws `redraws` (the panes, from the state now) at once: a step chosen, the ledger
        switched. A refresh whose panes are being drawn in turns ends with it: its next turn
        would go on drawing from what it read when it began (the step then on screen) over
        what was just drawn, and that would stay until the cluster next changed."""
        for _ in redraws:
            pass
        if self.redraws is not None:
            self.redraws = iter(())  # its next turn finds nothing left to draw and ends the refresh

    def _turn(self, spent: float = 0.0) -> None:
        redraws = self.redraws
        if redraws is None or self.host.closing:
            return
        start = self.moved_at = self.clock.now()
        for _ in redraws:
            if self.clock.now() - start > REDRAW_SLICE:
                spent += self.clock.now() - start
                # Not call_soon: a task a timer woke (a frame, a key's handler) takes two passes
                # of the loop to run, and would wait out another turn; a turn due a moment later
                # lets it go first.
                self.clock.call_later(TURN_AFTER, partial(self._turn, spent))
                return
        if redraws is not self.redraws:
            return  # a newer refresh took over while a pane was drawn
        self.redraws = None
        if self.drain_after_redraw:
            self.drain_after_redraw = False
            self.host.wake()
        waited = max(0.0, self.started_at - self.refreshed_at)  # since the last was drawn
        self.refreshed_at = self.clock.now()
        cost = spent + self.refreshed_at - start  # the loop's time, not the turns between
        self.owed = max(0.0, self.owed - waited) + 2 * cost
        self.host.refresh_drawn()
        if self.dirty:
            self.schedule()
