"""The instructor's grid as data, from a class state as the server gives it."""

from __future__ import annotations

from tutor.classroom import grid


def learner(name: str, current: int, steps: dict, seen_ago: float = 0.0) -> dict:
    return {"id": name, "name": name, "lesson": "lws", "current": current, "last_seen": 1000.0 - seen_ago,
            "steps": {str(n): {"status": st, "message": msg, "seconds": secs} for n, (st, msg, secs) in steps.items()}}


STATE = {"now": 1000.0, "learners": [
    learner("ana", 3, {1: ("pass", "ok", 60), 2: ("pass", "ok", 90), 3: ("fail", "no dns.txt", 30)}),
    learner("bo", 2, {1: ("pass", "ok", 50), 2: ("fail", "labels swapped", grid.STUCK_S + 1)}),
    learner("cy", 2, {1: ("pass", "ok", 50), 2: ("fail", "labels swapped", 10)}, seen_ago=grid.AWAY_S + 5),
    learner("di", 2, {2: ("fail", "no LWS yet", 5)}),
]}


def test_rows_mark_each_step_and_stand_out_the_stuck_and_the_away():
    rows = {r.name: r for r in grid.rows(STATE)}
    assert rows["ana"].marks == ("✓", "✓", "✗") and rows["di"].marks == (" ", "✗", " ")
    assert (rows["bo"].stuck, rows["bo"].away) == (True, False)
    assert (rows["cy"].stuck, rows["cy"].away) == (False, True)
    assert not rows["ana"].stuck and rows["ana"].on_step == 30


def test_a_step_passed_is_not_stuck_however_long():
    state = {"now": 0, "learners": [learner("ana", 1, {1: ("pass", "ok", grid.STUCK_S * 3)}, seen_ago=-1000)]}
    assert not grid.rows(state)[0].stuck


def test_summaries_count_the_passes_and_name_the_most_common_failure():
    by_step = {s.step: s for s in grid.summaries(STATE)}
    assert (by_step[1].passed, by_step[1].learners, by_step[1].failing) == (3, 4, 0)
    assert (by_step[2].failing, by_step[2].common, by_step[2].common_count) == (3, "labels swapped", 2)
    assert (by_step[3].common, by_step[3].common_count) == ("no dns.txt", 1)


def test_an_empty_class():
    assert grid.rows({"now": 0, "learners": []}) == [] and grid.summaries({}) == []


def test_the_clock_fits_five_columns():
    assert [grid.clock(s) for s in (0, 61, 3599, 3600 * 12 + 300)] == ["0:00", "1:01", "59:59", "12h05"]
