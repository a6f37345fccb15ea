"""The verdict is a pane like the others: in the tab cycle, scrolled by the keys, zoomed by z,
and marked in its border while lines follow below. Every line of a long failing verdict can be
brought on screen by keyboard at the sizes a split terminal has, in both languages."""

from __future__ import annotations

import pytest

from tests.conftest import RECORDINGS
from tests.ui.harness import make_app
from tests.ui.screen_text import region_text
from tests.ui.settle import settled

LONG = RECORDINGS / "both-workers-failed.jsonl"  # step 5's verdict: message, fix, timeline


def _last_words(verdict) -> str:
    return verdict.text().rstrip().splitlines()[-1].split()[-1]


def _in_pane(app, pane) -> str:
    return region_text(app, pane.region)


async def _focus_verdict(pilot) -> None:
    app = pilot.app
    for _ in range(8):  # the tab cycle reaches it
        if app.focused is app.query_one("#verdict"):
            return
        await pilot.press("tab")
    raise AssertionError(f"tab never focused the verdict: {app.focused}")


@pytest.mark.parametrize("size", [(80, 24), (80, 40), (100, 30)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["ko", "en"])
async def test_every_line_of_a_long_verdict_is_reached_by_keyboard(lang, size, tmp_path):
    app = make_app(LONG, lang=lang, state_file=tmp_path / "p.json")
    more = "↓ 더 있음" if lang == "ko" else "↓ more"
    async with app.run_test(size=size) as pilot:
        await settled(pilot)
        await pilot.press("5")
        await _focus_verdict(pilot)
        verdict = app.query_one("#verdict")
        await pilot.pause()
        if verdict.max_scroll_y:  # too long for its rows: said in the border, scrolled line by line
            assert verdict.border_subtitle == more
            for _ in range(verdict.max_scroll_y):
                await pilot.press("down")
        await pilot.pause()
        assert verdict.scroll_y == verdict.max_scroll_y
        assert verdict.border_subtitle == ""
        assert _last_words(verdict) in _in_pane(app, verdict)
        # zoomed, the whole verdict is on screen, its start and its end
        await pilot.press("home", "z")
        await pilot.pause()
        assert app.screen.maximized is verdict
        await pilot.press("end")
        await pilot.pause()
        shown = _in_pane(app, verdict)
        assert _last_words(verdict) in shown and ("실패" if lang == "ko" else "FAIL") in shown
        await pilot.press("escape")
        assert app.screen.maximized is None


@pytest.mark.parametrize("lang", ["ko", "en"])
async def test_every_steps_verdict_reaches_its_end_at_80x24(lang, tmp_path):
    app = make_app(LONG, lang=lang, state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        verdict = app.query_one("#verdict")
        for step in range(1, 9):
            await pilot.press(str(step))
            verdict.focus()
            await pilot.press("end")
            await pilot.pause()
            assert verdict.scroll_y == verdict.max_scroll_y, step
            assert _last_words(verdict) in _in_pane(app, verdict), step


async def test_another_step_shows_its_verdict_from_the_top(tmp_path):
    app = make_app(LONG, state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await pilot.press("5")
        verdict = app.query_one("#verdict")
        verdict.focus()
        await pilot.press("end")
        await pilot.pause()
        assert verdict.scroll_y > 0
        await pilot.press("6", "5")
        await pilot.pause()
        assert verdict.scroll_y == 0


async def _zoomed_at_its_end(pilot) -> None:
    await settled(pilot)
    await pilot.press("5")
    await _focus_verdict(pilot)
    await pilot.press("z", "end")
    pilot.app.clear_notifications()
    await pilot.pause()


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_verdict_zoomed_snapshot(snap_compare, lang, tmp_path):
    app = make_app(LONG, lang=lang, state_file=tmp_path / "p.json")
    assert snap_compare(app, terminal_size=(80, 24), run_before=_zoomed_at_its_end)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_verdict_focused_scrolled_snapshot(snap_compare, lang, tmp_path):
    async def scrolled(pilot) -> None:
        await settled(pilot)
        await pilot.press("5")
        await _focus_verdict(pilot)
        await pilot.press("end")
        pilot.app.clear_notifications()
        await pilot.pause()

    app = make_app(LONG, lang=lang, state_file=tmp_path / "p.json")
    assert snap_compare(app, terminal_size=(80, 24), run_before=scrolled)
