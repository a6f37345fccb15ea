"""The verdict is a pane like the others: in the tab cycle, scrolled by the keys, zoomed by z,
and marked in its border while lines follow below. Every line of a long failing verdict can be
brought on screen by keyboard at the sizes a split terminal has, in both languages."""

from __future__ import annotations

import pytest

from tests.conftest import RECORDINGS
from tests.ui.harness import make_app
from tests.ui.screen_text import region_text
from tests.ui.settle import settled, step_drawn, until

LONG = RECORDINGS / "both-workers-failed.jsonl"  # step 5's verdict: message, fix, timeline


def _last_words(verdict) -> str:
    return verdict.text().rstrip().splitlines()[-1].split()[-1]


def _in_pane(app, pane) -> str:
    return region_text(app, pane.region)


async def _at_end(pilot, verdict, what: str) -> None:
    """Waits until the verdict is scrolled to its end and its last words are drawn in it."""
    app = pilot.app
    await until(pilot, lambda: verdict.scroll_y == verdict.max_scroll_y and _last_words(verdict) in _in_pane(app, verdict),
                what, seen=lambda: (verdict.scroll_y, verdict.max_scroll_y, _in_pane(app, verdict)))


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
        await step_drawn(pilot, 5)
        await _focus_verdict(pilot)
        verdict = app.query_one("#verdict")
        await pilot.pause()
        if verdict.max_scroll_y:  # too long for its rows: said in the border, scrolled line by line
            assert verdict.border_subtitle == more
            for _ in range(verdict.max_scroll_y):
                await pilot.press("down")
        await _at_end(pilot, verdict, "the verdict scrolled line by line to its end")
        assert verdict.border_subtitle == ""
        # zoomed, the whole verdict is on screen, its start and its end
        await pilot.press("home", "z")
        await until(pilot, lambda: app.screen.maximized is verdict, "the verdict zoomed")
        await pilot.press("end")
        await _at_end(pilot, verdict, "the zoomed verdict at its end")
        assert ("실패" if lang == "ko" else "FAIL") in _in_pane(app, verdict)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen.maximized is None, "the verdict back in its place")


@pytest.mark.parametrize("lang", ["ko", "en"])
async def test_every_steps_verdict_reaches_its_end_at_80x24(lang, tmp_path):
    app = make_app(LONG, lang=lang, state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        verdict = app.query_one("#verdict")
        for step in range(1, 9):
            await pilot.press(str(step))
            await step_drawn(pilot, step)
            verdict.focus()
            await pilot.press("end")
            await _at_end(pilot, verdict, f"step {step}'s verdict at its end")


async def test_another_step_shows_its_verdict_from_the_top(tmp_path):
    app = make_app(LONG, state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await pilot.press("5")
        await step_drawn(pilot, 5)
        verdict = app.query_one("#verdict")
        verdict.focus()
        await pilot.press("end")
        await until(pilot, lambda: verdict.scroll_y > 0, "the verdict scrolled down", seen=lambda: verdict.scroll_y)
        await pilot.press("6", "5")
        await step_drawn(pilot, 5)
        await until(pilot, lambda: verdict.scroll_y == 0, "the verdict from the top", seen=lambda: verdict.scroll_y)


async def _zoomed_at_its_end(pilot) -> None:
    await settled(pilot)
    await pilot.press("5")
    await step_drawn(pilot, 5)
    await _focus_verdict(pilot)
    verdict = pilot.app.query_one("#verdict")
    await pilot.press("z", "end")
    await until(pilot, lambda: pilot.app.screen.maximized is verdict, "the verdict zoomed")
    await _at_end(pilot, verdict, "the zoomed verdict at its end")
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
        await step_drawn(pilot, 5)
        await _focus_verdict(pilot)
        await pilot.press("end")
        await _at_end(pilot, pilot.app.query_one("#verdict"), "the verdict at its end")
        pilot.app.clear_notifications()
        await pilot.pause()

    app = make_app(LONG, lang=lang, state_file=tmp_path / "p.json")
    assert snap_compare(app, terminal_size=(80, 24), run_before=scrolled)
