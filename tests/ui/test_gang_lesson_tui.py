"""The gang lesson drawn by the same app, from its walkthrough recorded on the lab: every step
passes, the steps about where pods land show the node ledger, and the timeline tells the gang
held, then placed."""

from __future__ import annotations

from tests.conftest import recording_path
from tests.ui.harness import make_app
from tests.ui.settle import on_screen, screen_reads, settled
from tutor.ui.screens.timeline_view import TimelineScreen

REC = recording_path("lesson-gang")


async def test_the_tutor_plays_the_gang_lesson_from_its_walkthrough(tmp_path):
    app = make_app(REC, lang="en", state_file=tmp_path / "p.json")
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        s = app.session
        assert s.lesson.id == "gang" and sorted(s.progress.passed) == list(range(1, 8))
        await pilot.press("6")
        assert app.lesson.ledger_shown()  # make-room is about where pods land (lesson.yaml `ledger`)
        assert "# 6. Make room for the gang" in app.page.markdown(6)
        await pilot.press("t")
        await on_screen(pilot, TimelineScreen)
        await screen_reads(pilot, ("gang orphan-0 held", "gang orphan-0 placed"))


async def test_the_gang_timeline_in_korean(tmp_path):
    app = make_app(REC, lang="ko", state_file=tmp_path / "p.json")
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        await pilot.press("t")
        await on_screen(pilot, TimelineScreen)
        await screen_reads(pilot, ("갱 orphan-0 배치", "갱 big-0 대기"))
