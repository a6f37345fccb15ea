"""The second lesson drawn by the same app: its steps, its verdicts, its keys, a snapshot."""

from __future__ import annotations

import pytest

from tests.conftest import recording_path
from tests.ui.harness import make_app
from tests.ui.settle import settled, step_drawn

REC = recording_path("lesson-scale")


async def test_the_tutor_plays_the_scale_lesson_from_its_recording(tmp_path):
    app = make_app(REC, lang="en", state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        s = app.session
        assert s.lesson.id == "scale" and len(s.lesson.steps) == 2
        assert sorted(s.progress.passed) == [1, 2]
        assert app.lesson.ledger_shown()  # step 1 shows the node ledger, as its lesson.yaml says
        await pilot.press("2")
        assert s.progress.current == 2 and not app.lesson.ledger_shown()
        assert "# 2. Scale to two groups" in app.page.markdown(2)
        await pilot.press("3")  # past the lesson's last step: the key does nothing
        assert s.progress.current == 2
        assert app.lesson.check_action("goto", (3,)) is False and app.lesson.check_action("goto", (2,)) is True


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_scale_lesson_snapshot(snap_compare, lang, tmp_path):
    async def step_2(pilot) -> None:
        await settled(pilot)
        await pilot.press("2")
        await step_drawn(pilot, 2)
        pilot.app.clear_notifications()
        await pilot.pause()

    app = make_app(REC, lang=lang, state_file=tmp_path / "p.json")
    assert snap_compare(app, terminal_size=(80, 24), run_before=step_2)
