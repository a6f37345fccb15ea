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


def names(rows: list[grid.Row]) -> list[str]:
    return [r.name for r in rows]


def test_rows_count_the_passes_and_see_a_failure_anywhere():
    rows = {r.name: r for r in grid.rows(STATE)}
    assert [(rows[n].passed, rows[n].failing) for n in ("ana", "bo", "cy", "di")] == [
        (2, True), (1, True), (1, True), (0, True)]
    assert rows["ana"].id == "ana"


def test_orders_by_name_progress_and_time_on_the_step():
    rows = grid.rows(STATE)
    assert names(grid.ordered(rows[::-1], "name")) == ["ana", "bo", "cy", "di"]
    assert names(grid.ordered(rows, "progress")) == ["di", "bo", "cy", "ana"]  # fewest passed first, then by name
    assert names(grid.ordered(rows, "time")) == ["bo", "ana", "cy", "di"]  # longest on the step first
    assert names(grid.ordered(rows, "no such order")) == names(grid.ordered(rows, "name"))


def test_filters_everyone_the_stuck_or_failing_and_the_away():
    state = {"now": 1000.0, "learners": [*STATE["learners"], learner("eve", 2, {1: ("pass", "ok", 5)})]}
    rows = grid.rows(state)
    assert names(grid.only(rows, "all")) == ["ana", "bo", "cy", "di", "eve"]
    assert names(grid.only(rows, "stuck")) == ["ana", "bo", "cy", "di"]  # eve fails nothing and is not stuck
    assert names(grid.only(rows, "away")) == ["cy"]


def test_a_key_cycles_through_the_choices():
    assert [grid.next_of(grid.ORDERS, o) for o in grid.ORDERS] == ["progress", "time", "name"]
    assert grid.next_of(grid.FILTERS, "away") == "all" and grid.next_of(grid.FILTERS, "?") == "all"


def test_a_learner_is_found_by_id_then_by_name_and_their_verdicts_in_step_order():
    state = {"learners": [{"id": "bo", "name": "ana", "steps": {}},
                          {"id": "x1", "name": "bo", "steps": {"10": {"status": "pass"},
                                                               "2": {"status": "fail", "message": "no LWS yet",
                                                                     "hints": 2, "predictions": 1, "seconds": 75}}}]}
    assert grid.learner(state, "bo")["name"] == "ana"  # an id before a name
    assert grid.learner(state, "x1")["name"] == "bo" and grid.learner(state, "cy") is None
    assert grid.verdicts(grid.learner(state, "x1")) == [grid.Verdict(2, "fail", "no LWS yet", 2, 1, 75.0),
                                                        grid.Verdict(10, "pass", "", 0, 0, 0.0)]
