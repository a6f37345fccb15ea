"""A redraw of every pane at once (a step chosen, the ledger switched) while a refresh's panes are
being drawn in turns: the refresh ends with it, and never draws another pane from what it read
when it began (tutor/ui/refresh/pump.py, RefreshPump.redraw_now), on the fake clock of test_pump.py."""

from __future__ import annotations

from tests.test_pump import FakeClock, Host


def test_a_redraw_at_once_ends_the_refresh_being_drawn_in_turns():
    clock = FakeClock()
    host = Host(clock, panes=6, pane_cost=0.02)  # 120 ms of panes: a turn of the loop after each
    drawn_by: list = []  # which redraw drew each pane: a refresh's number, or "now"
    panes = host.run_checks

    def run_checks():
        n = len(host.refreshes) + 1
        gen = panes()

        def named():
            for _ in gen:
                drawn_by.append(n)
                yield
        return named()

    host.run_checks = run_checks
    clock.run(101.0)
    host.send("a")
    clock.run(101.03)  # the refresh drew its first panes, and waits for its next turn
    assert host.pump.refreshing and 0 < len(drawn_by) < 6
    host.send("b")  # comes while the panes are drawn: applied after its last
    clock.run(101.031)

    def now():  # every pane, from the state now
        for _ in range(6):
            drawn_by.append("now")
            yield
        host._upto = len(host.applied)

    before = len(drawn_by)
    host.pump.redraw_now(now())
    assert drawn_by[before:] == ["now"] * 6
    clock.run(102.0)
    assert 1 not in drawn_by[before:]  # nothing drawn later from what the first refresh began with
    assert host.applied == ["a", "b"] and host.applied_while_drawing == 0
    assert host.drawn_upto() == 2 and host.pump.idle  # b came after, and was drawn by a refresh of its own


def test_a_redraw_at_once_with_no_refresh_under_way_only_draws():
    clock = FakeClock()
    host = Host(clock)
    drawn = []
    host.pump.redraw_now(iter(drawn.append(i) for i in range(3)))
    assert drawn == [0, 1, 2] and host.pump.idle and host.refreshes == []
