"""The timeline screen: its key and palette entry, live language, what it shows of the replayed
lab, and snapshots at split-terminal sizes in both languages."""

from __future__ import annotations

import pytest
from textual.command import CommandPalette

from tests.conftest import WALKTHROUGH
from tests.ui.harness import empty_recording, make_app
from tests.ui.moments import moments
from tests.ui.settle import off_screen, on_screen, palette_choice, settled, until
from tutor.ui.screens.timeline_view import TimelineScreen, TimelineView


def shown(app) -> str:
    return app.export_screenshot().replace("&#160;", " ")


async def open_timeline(pilot) -> None:
    """t, and waits until the timeline is laid out and scrolled to its newest line."""
    await settled(pilot)
    await pilot.press("t")
    view = (await on_screen(pilot, TimelineScreen)).query_one(TimelineView)
    await until(pilot, lambda: view.virtual_size.height and view.scroll_y == view.max_scroll_y,
                "the timeline laid out and scrolled to its end",
                seen=lambda: (view.virtual_size, view.scroll_y, view.max_scroll_y))
    pilot.app.clear_notifications()
    await pilot.pause()


async def reads(pilot, *texts: str) -> None:
    """Waits until the screen shows every one of `texts`."""
    await until(pilot, lambda: all(t in shown(pilot.app) for t in texts), f"{list(texts)} on screen",
                seen=lambda: shown(pilot.app))


async def test_t_opens_the_story_and_follows_the_language(tmp_path):
    app = make_app(WALKTHROUGH, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 40)) as pilot:
        await open_timeline(pilot)
        assert isinstance(app.screen, TimelineScreen)
        view = app.screen.query_one(TimelineView)
        assert view.scroll_y == view.max_scroll_y > 0  # the newest at the bottom, in view
        text = shown(app)
        assert "orphan-0-1 FailedScheduling" in text and "node ledger" in text
        keys = {b.binding.action for b in app.screen.active_bindings.values()}
        assert "next" not in keys and "recheck" in keys  # the lesson's keys stay with the lesson
        await pilot.press("l")
        await reads(pilot, "노드 장부", "타임라인")
        view.scroll_home(animate=False)
        await reads(pilot, "LWS RecreateGroup: 리더 llm-0", "가비지 컬렉션")
        await pilot.press("escape")
        await off_screen(pilot, TimelineScreen)
        await pilot.press("t")
        await on_screen(pilot, TimelineScreen)
        await pilot.press("t")
        await off_screen(pilot, TimelineScreen)


async def test_the_language_switched_under_a_modal_reaches_the_timeline_behind_it(tmp_path):
    """A key storm switched the language from the palette opened over the timeline: only the
    screen on top was redrawn, and the timeline behind the palette (still in view) and after it
    closed kept its English until the cluster next changed."""
    app = make_app(WALKTHROUGH, lang="en", state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 40)) as pilot:
        await open_timeline(pilot)
        await pilot.press("question_mark")  # a modal over the timeline
        await until(pilot, lambda: len(app.screen_stack) == 3, "the help over the timeline",
                    seen=lambda: app.screen_stack)
        app.action_toggle_lang()  # as the palette's language entry does
        await pilot.press("escape")
        await on_screen(pilot, TimelineScreen)
        await reads(pilot, "노드 장부", "타임라인")
        assert "node ledger" not in shown(app)


async def test_the_palette_opens_the_timeline_and_an_empty_one_says_so(tmp_path):
    app = make_app(empty_recording(tmp_path), state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        await on_screen(pilot, CommandPalette)
        await pilot.press(*"timeline")
        await until(pilot, lambda: "timeline" in palette_choice(app).lower(), "the palette to find the timeline",
                    seen=lambda: palette_choice(app))
        await pilot.press("enter")
        await on_screen(pilot, TimelineScreen)
        await reads(pilot, "Nothing has happened in infer yet")


SIZES = [(80, 24), (100, 40)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_timeline_snapshot(snap_compare, lang, size, tmp_path):
    app = make_app(WALKTHROUGH, lang=lang, upto=moments()["wide-placed"], state_file=tmp_path / "p.json")
    assert snap_compare(app, terminal_size=size, run_before=open_timeline)


async def test_step_5s_recap_lists_what_the_cluster_did(tmp_path):
    app = make_app(WALKTHROUGH, upto=moments()["group0-recreated"], state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 40)) as pilot:
        await settled(pilot)
        md = app.page.markdown(5)
        recap = md[md.index("What you just saw"):]
        assert "- `+0.00s` llm-0-1 container exited 1 (restart 1)" in recap
        assert recap.index("LWS RecreateGroup:") < recap.index("llm-0 new UID") < recap.index("Running again after")
        assert "How the rollout went" not in md and "- `+" not in app.page.markdown(6)  # step 6 not passed yet
