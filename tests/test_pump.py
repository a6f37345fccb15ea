"""The refresh pump's pacing on a fake clock: the host's work costs the time it is told to, the
loop's turns and timers run when the clock says, and every rule of tutor/ui/refresh/pump.py is checked
against what it promises (at once after a quiet spell, coalesced in a stream, the gap following
the cost, slices that let the loop run, progress in a long burst, panes in turns that show one
state, the screen current before a step is shown)."""

from __future__ import annotations

import heapq
from collections import deque
from itertools import count

import pytest

from tutor.ui.refresh import pump as p
from tutor.ui.refresh.pump import RefreshPump


class FakeTimer:
    def __init__(self, due: float, fn):
        self.due, self.fn, self.stopped = due, fn, False

    def stop(self) -> None:
        self.stopped = True


class FakeClock:
    """A loop with no real time, turning as asyncio's does: each turn moves the timers now due to
    the ready queue, then runs what was ready when the turn began (a call_soon made in a turn
    runs in the next one, after the timers that came due)."""

    def __init__(self, t: float = 100.0):
        self.t = t
        self._ready: deque = deque()
        self._timers: list = []
        self._seq = count()
        self.turns = 0

    def now(self) -> float:
        return self.t

    def call_later(self, delay: float, fn) -> FakeTimer:
        assert delay > 0
        timer = FakeTimer(self.t + delay, fn)
        heapq.heappush(self._timers, (timer.due, next(self._seq), timer))
        return timer

    def call_soon(self, fn) -> None:
        self._ready.append(FakeTimer(self.t, fn))

    def spend(self, seconds: float) -> None:
        self.t += seconds

    def run(self, until: float) -> None:
        while True:
            while self._timers and self._timers[0][0] <= self.t:
                self._ready.append(heapq.heappop(self._timers)[2])
            if not self._ready:
                if not self._timers or self._timers[0][0] > until:
                    self.t = max(self.t, until)
                    return
                self.t = self._timers[0][0]
                continue
            self.turns += 1
            batch, self._ready = self._ready, deque()
            for call in batch:
                if not call.stopped:
                    call.fn()


class Host:
    """The app's part, with costs: applying an item, checking, and each pane's redraw."""

    def __init__(self, clock: FakeClock, *, apply_cost=0.0002, check_cost=0.002, panes=4, pane_cost=0.001):
        self.clock = clock
        self.costs = dict(apply=apply_cost, check=check_cost, pane=pane_cost)
        self.panes = panes
        self.closing = False
        self.inbox: list = []
        self.applied: list = []
        self.applied_at: list[float] = []
        self.refreshes: list[tuple[float, int]] = []  # (when it began, items applied by then)
        self.drawn: list[tuple[float, int]] = []  # (when its last pane was drawn, items it shows)
        self.applied_while_drawing = 0
        self.settled = 0
        self.per_drain: list[int] = []  # items applied by each drain
        self.shown_steps: list[tuple[str, int]] = []  # (step, items the screen showed then)
        self.pump = RefreshPump(self, clock)

    # what the sources do: put items and signal (SourceReady is posted, drained in a later turn)
    def send(self, *items) -> None:
        self.inbox.extend(items)
        self.clock.call_soon(self.drain)

    def drain(self) -> None:  # the app's SourceReady handler
        before = len(self.applied)
        self.pump.drain()
        self.per_drain.append(len(self.applied) - before)

    def take_items(self) -> list:
        items, self.inbox = self.inbox, []
        return items

    def items_settled(self) -> None:
        self.settled += 1

    def is_barrier(self, item) -> bool:
        return isinstance(item, str) and item.startswith("step")

    def apply_item(self, item) -> bool:
        if self.is_barrier(item):
            self.shown_steps.append((item, self.drawn_upto()))
            return False
        self.clock.spend(self.costs["apply"])
        self.applied_while_drawing += self.pump.refreshing
        self.applied.append(item)
        self.applied_at.append(self.clock.now())
        return item != "same"

    def run_checks(self):
        self.clock.spend(self.costs["check"])
        upto = len(self.applied)
        self.refreshes.append((self.clock.now(), upto))

        def panes():
            for _ in range(self.panes):
                self.clock.spend(self.costs["pane"])
                yield
            self._upto = upto

        return panes()

    def refresh_drawn(self) -> None:
        self.drawn.append((self.clock.now(), self._upto))

    def wake(self) -> None:
        self.clock.call_soon(self.drain)

    def drawn_upto(self) -> int:
        return self.drawn[-1][1] if self.drawn else 0


def stream(host: Host, n: int, every: float, start: float) -> None:
    """n items, one each `every` seconds from `start`, as a source would send them."""
    for i in range(n):
        host.clock.run(start + i * every)
        host.send(i)


def test_a_change_after_a_quiet_spell_is_on_screen_at_once():
    clock = FakeClock()
    host = Host(clock)
    clock.run(105.0)
    host.send("a")
    clock.run(106.0)
    (began, upto), = host.refreshes
    assert upto == 1 and began - host.applied_at[0] <= 0.001 + host.costs["check"] + 1e-9
    assert host.drawn == [(pytest.approx(began + 4 * host.costs["pane"]), 1)]
    assert host.pump.idle and host.settled == 1


def test_a_stream_is_coalesced_to_one_refresh_per_gap_and_ends_drawn_whole():
    clock = FakeClock()
    host = Host(clock)
    stream(host, 200, 0.001, start=101.0)  # 200 items in 0.2 s
    clock.run(103.0)
    starts = [t for t, _ in host.refreshes]
    assert len(starts) <= 0.2 / p.REFRESH_GAP + 2, len(starts)  # far fewer than 200
    assert all(b - a >= p.REFRESH_GAP - 1e-9 for a, b in zip(starts, starts[1:]))
    assert host.drawn[-1][1] == 200  # the last frame shows every item
    assert host.drawn[-1][0] - host.applied_at[-1] <= p.REFRESH_GAP + 0.01  # and soon after the last
    assert host.pump.idle


def test_the_gap_follows_the_cost_of_a_refresh():
    """Refreshes that cost 40 ms each, in a stream: once the allowance is spent, each starts at
    least twice its cost after the one before was drawn, so refreshing takes at most a third of
    the loop, whatever the stream."""
    clock = FakeClock()
    host = Host(clock, check_cost=0.04, panes=0)
    stream(host, 2000, 0.001, start=101.0)  # 2 s: far longer than the allowance lasts
    clock.run(106.0)
    drawn = [t for t, _ in host.drawn]
    starts = [t for t, _ in host.refreshes]
    gaps = [start - end for end, start in zip(drawn, starts[1:])]
    let = [max(0.0, 2 * 0.04 - g) for g in gaps]
    assert sum(let) <= p.WAIT_ALLOWANCE + 1e-9, gaps  # no more than the allowance, over the stream
    paid = next(i for i, g in enumerate(gaps) if g >= 2 * 0.04 - 1e-9)  # once the allowance is spent,
    assert all(g >= 2 * 0.04 - 1e-9 for g in gaps[paid:]), gaps  # twice the cost, each time
    assert len(gaps) - paid > 10, gaps  # and the stream went on long after
    busy = 0.04 * len(starts)
    assert busy <= (drawn[-1] - starts[0] + p.WAIT_ALLOWANCE) / 3 + 0.04
    assert host.drawn[-1][1] == 2000


@pytest.mark.parametrize("cost", [0.06, 0.143], ids=["a pass", "the lab's costliest"])
def test_a_change_soon_after_a_lone_costly_refresh_is_not_held_back(cost):
    """A step passed costs a long refresh (60 ms; on the lab the leader's failure and its group
    recreated took 143 ms); the pod that changes 20 ms after it is drawn is refreshed after
    REFRESH_GAP, not after twice that cost: one refresh owes too little to hold the next back.
    The learner sees each kubectl change as it happens."""
    clock = FakeClock()
    host = Host(clock, check_cost=cost, panes=0)
    clock.run(105.0)
    host.send("pass")
    clock.run(105.01)  # the refresh starts at once and spends its cost inside this call
    (first_drawn, _), = host.drawn
    clock.run(first_drawn + 0.02)
    host.send("pod")
    clock.run(106.0)
    (_, _), (checked, upto) = host.refreshes  # noted once its checks (`cost`) are done
    began = checked - host.costs["check"]
    assert upto == 2 and began - host.applied_at[1] <= 0.001 + 1e-9, began - first_drawn  # not twice the cost after


def test_applying_gives_the_loop_a_turn_every_slice_and_a_long_burst_shows_progress():
    clock = FakeClock()
    host = Host(clock, apply_cost=0.001)  # 5,000 items of 1 ms: 5 s of applying
    clock.run(101.0)
    host.send(*range(5000))
    clock.run(110.0)
    assert len(host.applied) == 5000
    assert max(host.per_drain) <= p.APPLY_SLICE / 0.001 + 1  # the loop got a turn every slice
    # while the backlog lasted, a refresh came about every PROGRESS_EVERY, not only at the end
    during = [t for t, upto in host.refreshes if upto < 5000]
    assert len(during) >= int(5.0 / p.PROGRESS_EVERY) - 1
    assert all(b - a <= p.PROGRESS_EVERY + 0.05 for a, b in zip(during, during[1:]))
    assert host.drawn[-1][1] == 5000 and host.settled == 1


def test_a_refresh_draws_its_panes_in_turns_and_items_wait_for_its_last_pane():
    clock = FakeClock()
    host = Host(clock, panes=6, pane_cost=0.02)  # 120 ms of panes, in turns of REDRAW_SLICE
    clock.run(101.0)
    host.send("a")
    turns_before = clock.turns
    clock.run(101.005)  # the first turn of the refresh is under way
    assert host.pump.refreshing
    host.send("b", "c")  # they come while the panes are drawn
    clock.run(102.0)
    assert host.applied == ["a", "b", "c"] and host.applied_while_drawing == 0
    assert [upto for _, upto in host.drawn] == [1, 3]  # each refresh's panes show one state
    assert clock.turns - turns_before >= 6 * 0.02 / p.REDRAW_SLICE  # the loop ran between turns


def test_a_newer_refresh_takes_over_a_redraw_under_way():
    clock = FakeClock()
    host = Host(clock, panes=6, pane_cost=0.02)
    clock.run(101.0)
    host.send("a")
    clock.run(101.005)
    host.pump.refresh_now()  # a key press (r) re-checks now: the first refresh's panes are dropped
    clock.run(102.0)
    assert len(host.refreshes) == 2 and host.drawn == [(pytest.approx(host.drawn[0][0]), 1)]
    assert not host.pump.refreshing


def test_the_screen_follows_the_data_before_a_step_is_shown():
    clock = FakeClock()
    host = Host(clock)
    clock.run(101.0)
    host.send("a", "b", "step 5", "c")
    clock.run(102.0)
    assert host.shown_steps == [("step 5", 2)]  # refreshed with a and b before the step came
    assert host.drawn[-1][1] == 3


def test_nothing_changed_means_no_refresh():
    clock = FakeClock()
    host = Host(clock)
    clock.run(101.0)
    host.send("same", "same")
    clock.run(102.0)
    assert host.applied == ["same", "same"] and host.refreshes == [] and host.pump.idle


def test_a_refresh_due_while_closing_does_not_run():
    clock = FakeClock()
    host = Host(clock)
    host.send("a")
    clock.run(100.01)  # a's refresh is drawn
    host.send("b")
    clock.run(100.0105)  # b is applied; its refresh waits out the gap after a's
    assert host.applied == ["a", "b"] and host.pump.timer is not None
    host.closing = True
    clock.run(101.0)
    assert len(host.refreshes) == 1 and host.pump.timer is None


class LosingClock(FakeClock):
    """Loses its n-th delayed call, as a timer lost on a starved loop did."""

    def __init__(self, nth: int):
        super().__init__()
        self.nth, self.calls, self.lost = nth, 0, None

    def call_later(self, delay: float, fn) -> FakeTimer:
        timer = super().call_later(delay, fn)
        self.calls += 1
        if self.calls == self.nth:
            self.lost = fn
            timer.stopped = True  # it never runs, and nobody is told
        return timer


@pytest.mark.parametrize("nth,lost", [(1, "_on_timer"), (2, "_turn")], ids=["refresh-timer", "next-turn"])
def test_a_lost_call_leaves_the_pump_stuck_until_unstick(nth, lost):
    clock = LosingClock(nth)
    host = Host(clock, pane_cost=0.02)  # a pane of 20 ms: the second pane waits for a turn
    clock.run(101.0)
    host.send(*range(10))
    clock.run(110.0)
    assert (getattr(clock.lost, "__name__", None) or clock.lost.func.__name__) == lost
    assert host.drawn_upto() < 10  # the screen never shows the last items
    assert host.pump.stuck(waiting=False, after=3.0)
    assert not host.pump.stuck(waiting=False, after=60.0)  # nothing is stuck before its time
    host.pump.unstick()
    clock.run(120.0)
    assert host.drawn_upto() == 10 and host.pump.idle and host.pump.unstuck == 1
    assert not host.pump.stuck(waiting=False, after=3.0)


def test_items_left_in_the_inbox_with_no_wake_up_are_stuck_work():
    clock = FakeClock()
    host = Host(clock)
    clock.run(101.0)
    host.inbox.append("a")  # put, but its SourceReady never came
    clock.run(110.0)
    assert host.pump.idle and host.pump.stuck(waiting=bool(host.inbox), after=3.0)
    host.pump.unstick()
    clock.run(111.0)
    assert host.drawn_upto() == 1
