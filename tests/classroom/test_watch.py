"""`lwstutor class --watch URL` under Pilot at 80x24, reading the real class server process."""

from __future__ import annotations

import asyncio

import pytest

from tests import waits
from tests.ui.settle import until
from tutor.classroom.grid import STUCK_S
from tutor.classroom.state_reader import state_url
from tutor.ui.class_watch import ClassWatch

pytestmark = pytest.mark.ui  # the instructor's view under Pilot


def step(n: int, status: str, message: str = "", seconds: float = 1.0) -> dict:
    return {"step": n, "status": status, "message": message, "hints": 0, "predictions": 0, "seconds": seconds}


def fill(server) -> None:
    for name, current, steps in (
            ("ana", 3, [step(1, "pass"), step(2, "pass"), step(3, "fail", "dns.txt does not exist yet")]),
            ("bo", 2, [step(1, "pass"), step(2, "fail", "labels swapped", STUCK_S + 60)]),
            ("cy", 2, [step(1, "pass"), step(2, "fail", "labels swapped")])):
        learner, key = server.join(name)
        code, _ = server.post("report", {"learner": learner, "lesson": "lws", "current": current, "steps": steps}, key)
        assert code == 200


@pytest.mark.parametrize("lang, title, failing", [
    ("en", "3 learners", "step 2: 2 fail with: labels swapped"),
    ("ko", "학습자 3명", "2단계: 2명 실패: labels swapped"),
])
async def test_the_grid_shows_the_class_and_who_is_stuck(lang, title, failing, server):
    await asyncio.to_thread(fill, server)
    app = ClassWatch(state_url(server.state_url), lang)
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.query_one("#grid")
        await until(pilot, lambda: table.row_count == 3, "the three learners", waits.PROCESS)
        rows = {str(table.get_row_at(i)[0]).removeprefix("⚠ "): [str(c) for c in table.get_row_at(i)]
                for i in range(3)}
        assert rows["ana"][1:] == ["✓", "✓", "✗", "3", "0:01"]
        assert rows["bo"] == ["⚠ bo", "✓", "✗", " ", "2", "11:00"]  # stuck: over STUCK_S on step 2, failing
        assert not rows["cy"][0].startswith("⚠")
        title_text = str(app.query_one("#title").render())
        summary = str(app.query_one("#summary").render())
        assert title in title_text and failing in summary
        assert "1:3/3  2:1/3  3:0/3" in summary
        assert table.virtual_size.width <= 80  # every column on an 80-column terminal


async def test_a_server_away_is_said_and_the_view_carries_on(server):
    app = ClassWatch(state_url(server.state_url), "en")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "No learner" in str(app.query_one("#summary").render()), "the empty class",
                    waits.PROCESS)
        server.kill()
        await until(pilot, lambda: "cannot read the class" in str(app.query_one("#summary").render()),
                    "the view to say the server is away", waits.PROCESS)


def test_only_an_instructors_address_is_watched():
    base = "http://127.0.0.1:8001"
    assert state_url(f"{base}/i/abcdefghijklmnopqrst") == f"{base}/i/abcdefghijklmnopqrst/state"
    assert state_url(f"{base}/i/abcdefghijklmnopqrst/state") == f"{base}/i/abcdefghijklmnopqrst/state"
    for wrong in (f"{base}/c/abcdefghijklmnopqrst", "127.0.0.1:8001/i/abcdefghijklmnopqrst", f"{base}/i/short"):
        with pytest.raises(ValueError):
            state_url(wrong)


async def test_l_switches_the_language_and_q_quits(server):
    app = ClassWatch(state_url(server.state_url), "en")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "No learner" in str(app.query_one("#summary").render()), "the empty class",
                    waits.PROCESS)
        await pilot.press("l")
        await until(pilot, lambda: "학습자 0명" in str(app.query_one("#title").render()), "the title in Korean")
        assert "아직 참여한 학습자가 없습니다" in str(app.query_one("#summary").render())
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running, "the view to quit")
