"""Pilot tests for every key flow: navigation, hints, language, reset, palette and help."""

from __future__ import annotations

import pytest
from textual.command import CommandPalette

from tests.ui.harness import empty_recording, make_app
from tests.ui.settle import notices_said, off_screen, on_screen, palette_choice, quiet, screen_reads, settled, until
from tutor.ui.screens.confirm import ConfirmScreen
from tutor.ui.screens.help import HelpScreen
from tutor.ui.bindings.keys import KEYS


@pytest.fixture
def app(tmp_path):
    return make_app(empty_recording(tmp_path), state_file=tmp_path / "progress.json")


async def test_navigation_keys(app):
    async with app.run_test(size=(100, 40)) as pilot:
        assert app.session.progress.current == 1
        assert app.lesson.check_action("prev", ()) is None  # dimmed at the first step
        await pilot.press("n")
        assert app.session.progress.current == 2
        await pilot.press("right", "right")
        assert app.session.progress.current == 4
        await pilot.press("p", "left")
        assert app.session.progress.current == 2
        await pilot.press("8")
        assert app.session.progress.current == 8
        assert app.lesson.check_action("next", ()) is None  # dimmed at the last step
        await pilot.press("n")
        assert app.session.progress.current == 8
        await pilot.press("3")
        assert app.session.progress.current == 3
        assert "# 3. " in app.query_one("#lesson").query_one("Markdown").source


async def test_hints_one_at_a_time(app):
    async with app.run_test(size=(100, 40)) as pilot:
        hints = app.session.lesson.step(1).text("en").hints
        md = app.query_one("#lesson").query_one("Markdown")
        assert "Hint 1" not in md.source
        await pilot.press("h")
        assert "Hint 1 of" in md.source and "Hint 2 of" not in md.source
        for _ in range(len(hints) - 1):
            await pilot.press("h")
        assert f"Hint {len(hints)} of {len(hints)}" in md.source
        assert app.lesson.check_action("hint", ()) is None  # none left: the key is dimmed
        await pilot.press("h")
        assert app.session.progress.hints[1] == len(hints)


async def test_each_revealed_hint_is_scrolled_into_view(app):
    """At 80x24 the step text fills the pane, so a new hint is below the fold until the pane
    scrolls to it; the markdown mounts a few frames later, which once made this racy."""
    from tests.ui.settle import hint_in_view

    async with app.run_test(size=(80, 24)) as pilot:
        pane = app.query_one("#lesson")
        for i in range(1, len(app.session.lesson.step(1).text("en").hints) + 1):
            await pilot.press("h")
            await hint_in_view(pilot, 1, i)
            assert pane.scroll_y > 0


async def test_language_switches_live(app):
    async with app.run_test(size=(100, 40)) as pilot:
        await quiet(pilot)
        md = app.query_one("#lesson").query_one("Markdown")
        en_title = app.session.lesson.step(1).title("en")
        assert en_title in md.source
        await pilot.press("l")
        await quiet(pilot)
        assert app.session.lang == "ko"
        assert app.session.lesson.step(1).title("ko") in md.source
        assert app.session.verdicts[1].message != ""
        assert "파일" in app.session.verdicts[1].message  # the checker speaks Korean now
        assert app.query_one("#groups").border_title == "그룹"


async def test_progress_survives_restart(tmp_path):
    rec = empty_recording(tmp_path)
    state = tmp_path / "progress.json"
    first = make_app(rec, state_file=state)
    async with first.run_test() as pilot:
        await pilot.press("4", "h", "h")
    second = make_app(rec, state_file=state)
    async with second.run_test():
        assert second.session.progress.current == 4
        assert second.session.progress.hints == {4: 2}


async def test_reset_step_asks_first(app):
    async with app.run_test(size=(100, 40)) as pilot:
        app.session.progress.latch(1, "done")
        await pilot.press("h")
        app.lesson.action_reset_step()
        await on_screen(pilot, ConfirmScreen)
        await pilot.press("n")
        await off_screen(pilot, ConfirmScreen)
        assert 1 in app.session.progress.passed
        app.lesson.action_reset_step()
        await on_screen(pilot, ConfirmScreen)
        await pilot.press("y")
        await until(pilot, lambda: 1 not in app.session.progress.passed, "y to reset the step",
                    seen=lambda: app.session.progress.passed)
        assert 1 not in app.session.progress.hints


async def test_palette_has_tutor_commands(app):
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("ctrl+p")
        await on_screen(pilot, CommandPalette)
        await pilot.press(*"go to step 5")
        await until(pilot, lambda: "step 5" in palette_choice(app).lower(), "the palette to find step 5",
                    seen=lambda: palette_choice(app))
        await pilot.press("enter")
        await until(pilot, lambda: app.session.progress.current == 5, "step 5 chosen in the palette",
                    seen=lambda: app.session.progress.current)
        await off_screen(pilot, CommandPalette)
        await pilot.press("ctrl+p")
        await on_screen(pilot, CommandPalette)
        await pilot.press(*"reveal")
        await until(pilot, lambda: "reveal" in palette_choice(app).lower(), "the palette to find the next hint",
                    seen=lambda: palette_choice(app))
        await pilot.press("enter")
        await until(pilot, lambda: app.session.progress.hints == {5: 1}, "a hint revealed from the palette",
                    seen=lambda: app.session.progress.hints)


async def test_help_is_generated_from_bindings(app):
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("question_mark")
        await on_screen(pilot, HelpScreen)
        await pilot.pause()
        text = app.export_screenshot().replace("&#160;", " ")
        for b in KEYS:
            if b.description and b.action not in ("goto(9)", "dismiss_doctor"):  # no step 9, no panel up
                assert b.description in text
        await pilot.press("escape")
        await off_screen(pilot, HelpScreen)


@pytest.mark.parametrize("recording, steps", [("walkthrough", 8), ("lesson-scale", 2)])
async def test_help_lists_the_digits_of_the_lessons_steps_only(recording, steps, tmp_path):
    from tests.conftest import recording_path

    app = make_app(recording_path(recording), state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 40)) as pilot:
        await settled(pilot)  # (the finish screen, up once the replay passed every step, closed)
        await pilot.press("question_mark")
        await on_screen(pilot, HelpScreen)
        listed = [b.key for b in app.screen._keys]
        assert [k for k in listed if k.isdigit()] == [str(n) for n in range(1, steps + 1)]
        await screen_reads(pilot, (f"Step {steps}",), (f"Step {steps + 1}",))


async def test_tiny_terminal_does_not_crash(app):
    async with app.run_test(size=(20, 5)) as pilot:
        await pilot.press("n", "h", "l")
        for size in ((60, 20), (10, 3), (200, 50), (69, 40), (71, 40)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
        await until(pilot, lambda: app.screen.has_class("-wide"), "the screen wide at 71 columns",
                    seen=lambda: app.screen.classes)
        await pilot.resize_terminal(60, 40)
        await until(pilot, lambda: app.screen.has_class("-narrow"), "the screen narrow at 60 columns",
                    seen=lambda: app.screen.classes)


async def test_tab_cycles_panes_and_z_maximises(app):
    async with app.run_test(size=(100, 40)) as pilot:
        seen = []
        for _ in range(6):
            seen.append(app.focused.id if app.focused else None)
            await pilot.press("tab")
        assert {"lesson", "ledger", "pods", "events"} <= set(seen)  # step 1 shows the node ledger, not the groups
        while app.focused is None or app.focused.id != "pods":
            await pilot.press("tab")
        await pilot.press("z")
        assert app.screen.maximized is app.query_one("#pods")
        await pilot.press("escape")
        assert app.screen.maximized is None
        await pilot.press("z", "z")
        assert app.screen.maximized is None


async def test_saving_failing_mid_session_is_said_once_and_nothing_is_lost(tmp_path):
    """The progress directory turns into a file while the tutor runs (as a full or vanished
    disk would fail the save): one warning, the session goes on in memory, and the next save
    that works writes everything, with a word that it did."""
    import json
    import shutil

    state_dir = tmp_path / "state"
    state_dir.mkdir()
    app = make_app(empty_recording(tmp_path), state_file=state_dir / "progress.json")
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        said = notices_said(app)  # what was said, up or gone: a loaded machine can outlast a notice's 6 s
        shutil.rmtree(state_dir)
        state_dir.write_text("not a directory")
        await pilot.press("h", "n", "h")
        warnings = [n for n in said if "Progress not saved" in n.message.replace("\n", " ")]
        assert len(warnings) == 1 and warnings[0].severity == "warning", [n.message for n in said]
        assert str(state_dir / "progress.json") in warnings[0].message.replace("\n", "")  # wrapped to the toast
        assert app.session.progress.hints == {1: 1, 2: 1} and app.session.progress.current == 2
        state_dir.unlink()
        state_dir.mkdir()
        await pilot.press("p")
        assert any(n.message == "Progress saved again." for n in said)
    saved = json.loads((state_dir / "progress.json").read_text())
    assert saved["hints"] == {"1": 1, "2": 1} and saved["current"] == 1
