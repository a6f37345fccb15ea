"""The README's picture of the instructor's view (tests/classroom/class_shot.py) is the one that
command makes now, and the view at 80x24 cuts nothing without a mark: the class recorded from
real tutors fails seven steps with messages wider than the screen."""

from __future__ import annotations

import json

import pytest
from rich.cells import cell_len

from tests import waits
from tests.classroom.class_shot import SHOT, SIZE, STATE, Recorded, shoot
from tests.ui.settle import until
from tutor.ui.class_watch import FAILING_LINES, ClassWatch

pytestmark = pytest.mark.ui  # the instructor's view under Pilot


def recorded() -> dict:
    return json.loads(STATE.read_text(encoding="utf-8"))


async def test_the_readme_picture_is_fresh():
    assert SHOT.exists(), f"{SHOT} missing: run python -m tests.classroom.class_shot"
    assert SHOT.read_text() == await shoot(recorded()), f"{SHOT} is stale: run python -m tests.classroom.class_shot"


@pytest.mark.parametrize("lang, more", [("en", "… and 4 more failing steps"), ("ko", "… 그 밖에 실패한 단계 4개")])
async def test_failing_lines_that_do_not_fit_are_cut_with_a_mark(lang, more):
    state = recorded()
    failing = {n for learner in state["learners"] for n, s in learner["steps"].items() if s["status"] == "fail"}
    assert len(failing) > FAILING_LINES  # more failing steps than lines for them
    app = ClassWatch("http://127.0.0.1:8001/i/recorded-class-state/state", lang)
    app.reader = Recorded(state)  # type: ignore[assignment]  # the view needs only read() and close()
    async with app.run_test(size=SIZE) as pilot:
        summary = app.query_one("#summary")
        await until(pilot, lambda: "…" in str(summary.render()), "the summary drawn", waits.PROCESS)
        lines = str(summary.render()).splitlines()
        assert all(cell_len(line) <= SIZE[0] for line in lines), lines
        assert more in lines and lines[-1].startswith("✓")  # the legend, last, still on screen
        assert summary.region.bottom <= SIZE[1] and summary.size.height >= len(lines)
        cut = [line for line in lines if line.endswith("…")]
        assert cut, lines  # the long messages end in the mark
