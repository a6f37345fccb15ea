"""Choosing in `lwstutor class --watch` under Pilot at 80x24: a learner's verdicts (enter, esc),
the grid's order (o) and who it shows (f), in English and Korean, for the class recorded from
real tutors (tests/data/class-state.json) reported again to the real class server process."""

from __future__ import annotations

import json

import pytest
from rich.cells import cell_len

from tests import waits
from tests.classroom.class_shot import STATE
from tests.lang_scan import scan
from tests.ui.screen_text import screen_lines
from tests.ui.settle import until
from tutor.classroom import grid
from tutor.classroom.state_reader import state_url
from tutor.i18n import classroom
from tutor.i18n.bilingual import pick
from tutor.ui.class_learner import LearnerVerdicts
from tutor.ui.class_watch import ClassWatch

pytestmark = pytest.mark.ui  # the instructor's view under Pilot
SIZE = (80, 24)
RECORDED = json.loads(STATE.read_text(encoding="utf-8"))
STEP_FIELDS = ("status", "message", "hints", "predictions", "seconds")
KEYS = frozenset({"o", "f", "l", "q", "esc"})  # keys named for the instructor to press


def report_the_recorded_class(server) -> None:
    """Each recorded learner joins and reports their steps as their tutor did."""
    for learner in RECORDED["learners"]:
        learner_id, key = server.join(learner["name"], learner["lesson"])
        steps = [{"step": int(n), **{f: s[f] for f in STEP_FIELDS}} for n, s in learner["steps"].items()]
        code, body = server.post("report", {"learner": learner_id, "lesson": learner["lesson"],
                                            "current": learner["current"], "steps": steps}, key)
        assert code == 200, body


def names(app: ClassWatch) -> list[str]:
    table = app.query_one("#grid")
    return [str(table.get_row_at(i)[0]).removeprefix("⚠ ") for i in range(table.row_count)]


def title(app: ClassWatch) -> str:
    return str(app.query_one("#title").render())


def screen(app: ClassWatch) -> str:
    """The screen's text with the wrapped lines joined: a message reads whole across its lines."""
    return " ".join(line.strip() for line in screen_lines(app) if line.strip())


@pytest.fixture
def recorded_class(server):
    report_the_recorded_class(server)
    return server


@pytest.mark.parametrize("lang", ["en", "ko"])
async def test_enter_opens_a_learners_verdicts_whole_and_esc_goes_back(lang, recorded_class):
    app = ClassWatch(state_url(recorded_class.state_url), lang)
    bo = next(learner for learner in RECORDED["learners"] if learner["name"] == "bo")
    messages = [s["message"] for s in bo["steps"].values()]
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: len(names(app)) == 5, "the recorded class", waits.PROCESS)
        assert names(app) == ["ana", "bo", "chen", "dana", "민준"]  # by name
        await pilot.press("down", "enter")
        await until(pilot, lambda: isinstance(app.screen, LearnerVerdicts) and messages[0] in screen(app),
                    "bo's verdicts", seen=lambda: screen_lines(app))
        head = pick(classroom.LEARNER_HEAD, lang, name="bo", lesson="lws", current=1, passed=1)
        first = pick(classroom.LEARNER_STEP, lang, step=1, status=pick(classroom.STATUS["pass"], lang),
                     time="0:00", hints=0, predictions=0)
        seen = screen(app)
        assert head in seen and f"✓ {first}" in seen and messages[1] in seen
        assert messages[-1] not in seen  # one screenful does not hold them all
        lines = screen_lines(app)
        assert len(lines) == SIZE[1] and all(cell_len(line) <= SIZE[0] for line in lines)
        assert pick(classroom.LEARNER_KEYS, lang) in lines[-1]  # the keys on the last row, on screen
        # the view's own words (the messages are the checkers', in the language the learner's tutor spoke)
        own = "\n".join(line for line in lines if not line.startswith("    "))
        theirs = KEYS | {"bo"}  # the learner's name is theirs
        assert not scan(own, lang, code=theirs), scan(own, lang, code=theirs)
        await pilot.press("end")  # the rest of the steps, scrolled to: the last message whole
        await until(pilot, lambda: messages[-1] in screen(app), "the last step's message", seen=lambda: screen_lines(app))
        await pilot.press("l")
        other = "ko" if lang == "en" else "en"
        await until(pilot, lambda: pick(classroom.LEARNER_KEYS, other) in screen(app), "the other language")
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, LearnerVerdicts), "the grid again")
        table = app.query_one("#grid")
        assert str(table.get_row_at(table.cursor_row)[0]) == "bo"  # the cursor where it was


@pytest.mark.parametrize("lang", ["en", "ko"])
async def test_o_orders_and_f_filters_the_grid_and_the_title_says_so(lang, recorded_class):
    app = ClassWatch(state_url(recorded_class.state_url), lang)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: len(names(app)) == 5, "the recorded class", waits.PROCESS)

        async def press(key: str, order: str, only: str, want: list[str]) -> None:
            await pilot.press(key)
            words = (pick(classroom.ORDER[order], lang), pick(classroom.ONLY[only], lang))
            await until(pilot, lambda: names(app) == want and all(w in title(app) for w in words),
                        f"{key}: {order}, {only}", seen=lambda: (title(app), names(app)))
            line = screen_lines(app)[0]
            assert title(app) in line and cell_len(line.rstrip()) <= SIZE[0] and "…" not in title(app)
            assert not scan(line, lang, code=KEYS), scan(line, lang, code=KEYS)

        await press("o", "progress", "all", ["bo", "chen", "dana", "민준", "ana"])  # ana passed every step
        await press("o", "time", "all", ["ana", "chen", "dana", "민준", "bo"])  # 0.9 s, 0.3 s, 0.3 s, 0.3 s, 0.2 s
        await press("f", "time", "stuck", ["chen", "dana", "민준", "bo"])  # all but ana fail steps
        await press("f", "time", "away", [])  # every tutor reported a moment ago
        await press("o", "name", "away", [])
        await press("f", "name", "all", ["ana", "bo", "chen", "dana", "민준"])


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_every_title_fits_80_columns_without_a_cut(lang):
    longest = [pick(classroom.WATCH_TITLE, lang, n=500, at="23:59:59", order=pick(classroom.ORDER[o], lang),
                    only=pick(classroom.ONLY[f], lang)) for o in grid.ORDERS for f in grid.FILTERS]
    assert max(cell_len(t) for t in longest) <= SIZE[0], longest


async def test_a_learner_gone_is_said(recorded_class):
    app = ClassWatch(state_url(recorded_class.state_url), "en")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: len(names(app)) == 5, "the recorded class", waits.PROCESS)
        await app.push_screen(LearnerVerdicts("no-such-id", "zed"))
        await until(pilot, lambda: "zed: no such learner in the class." in screen(app), "the learner gone")
