"""What the palette's own entries open reads in the learner's language: the Keys panel (Textual's
HelpPanel, every key of the focused widget, its screen's and the app's) with each pane focused,
on the lesson and on each screen of its own, and the theme list's search. Each is read off the
screen as the audit reads it (tests/lang_scan.py): in Korean no English word, in English no Hangul."""

from __future__ import annotations

import pytest
from textual.command import CommandPalette

from tests.lang_scan import scan
from tests.ui.harness import make_app
from tests.ui.screen_text import region_text
from tests.ui.settle import on_screen, settled, until
from tests.conftest import WALKTHROUGH


def entry(app, name: str):
    """The palette's system entry called `name` (in the app's language) on the screen on top."""
    for command in app.get_system_commands(app.screen):
        if command.title == name:
            return command.callback
    raise AssertionError(f"no palette entry {name!r} on {app.screen}")


def findings(text: str, lang: str, names: tuple[str, ...] = ()) -> list[str]:
    return [str(f) for f in scan(text, lang, code=frozenset(names))]


async def panel_read(pilot, lang: str, where: str) -> list[str]:
    app = pilot.app
    entry(app, "키" if lang == "ko" else "Keys")()
    await until(pilot, lambda: bool(app.screen.query("HelpPanel")), f"the keys panel on {where}")
    await pilot.pause()
    panel = app.screen.query_one("HelpPanel")
    text = region_text(app, panel.region)
    assert text.count("\n") > 3, f"the panel on {where} drew nothing: {text!r}"
    out = [f"{where}: {f}" for f in findings(text, lang)]
    entry(app, "키" if lang == "ko" else "Keys")()  # hides it
    await until(pilot, lambda: not app.screen.query("HelpPanel"), f"the keys panel hidden on {where}")
    return out


@pytest.mark.parametrize("lang", ["ko", "en"])
async def test_the_keys_panel_reads_in_the_learners_language(lang, tmp_path):
    app = make_app(WALKTHROUGH, lang=lang, state_file=tmp_path / "p.json")
    found: list[str] = []
    async with app.run_test(size=(120, 36)) as pilot:
        await settled(pilot)
        focusable = [w for w in app.screen.focus_chain]
        assert len(focusable) > 2
        for widget in focusable:  # every pane the learner can focus: each has keys of its own
            app.screen.set_focus(widget)
            await pilot.pause()
            found += await panel_read(pilot, lang, f"the lesson, {widget.id or type(widget).__name__} focused")
        for key, screen in (("question_mark", "HelpScreen"), ("t", "TimelineScreen")):
            await pilot.press(key)
            await until(pilot, lambda screen=screen: type(app.screen).__name__ == screen, screen)
            found += await panel_read(pilot, lang, screen)
            await pilot.press("escape")
            await until(pilot, lambda screen=screen: type(app.screen).__name__ != screen, f"{screen} closed")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", ["ko", "en"])
async def test_the_theme_list_reads_in_the_learners_language(lang, tmp_path):
    app = make_app(WALKTHROUGH, lang=lang, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        entry(app, "테마" if lang == "ko" else "Theme")()
        palette = await on_screen(pilot, CommandPalette)
        await pilot.pause()
        text = region_text(app, palette.region)
        assert ("테마 찾기" if lang == "ko" else "Search for themes") in text
        themes = tuple(app.available_themes)  # a theme's name is a name, as `dracula`
        assert not findings(text, lang, themes), findings(text, lang, themes)
