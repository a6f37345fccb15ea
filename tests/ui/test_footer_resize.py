"""After a resize, with no key pressed, the footer fits the new width: q and ? whole, every key
it shows whole, nothing left of a key the old width had room for; at 100 columns, every key.
Both directions (80x24 -> 60x20 -> 100x30 -> 80x24), both languages (l switches between
them, mid-way), and with the help open over the lesson while the window changes."""

from __future__ import annotations

import pytest

from tests.footer_row import not_whole
from tests.ui.harness import empty_recording, make_app
from tests.ui.screen_text import screen_lines
from tests.ui.settle import until
from tutor.ui.i18n import localised
from tutor.ui.screens import HelpScreen

SIZES = [(60, 20), (100, 30), (80, 24), (60, 20)]


def words(app, action: str) -> str:
    return localised(next(b for b in app.BINDINGS if b.action == action), app.lang).description


def labels(app) -> set[str]:
    """Every key as the footer draws one whole ("n/→ Next"), of all the keys the screen has."""
    return {f"{app.get_key_display(b)} {b.description}".strip()
            for _, b, _, _ in app.screen_stack[0].active_bindings.values() if b.description}


def cut(app, row: str) -> str:
    """What of the footer row is not a whole key: "" when it is keys, spaces and the palette's
    key whole at the right. Korean words are two cells, so a cut one leaves half a cell blank."""
    keys, bar, palette = row.partition("▏")
    key = app.screen_stack[0].active_bindings[app.COMMAND_PALETTE_BINDING].binding
    if not bar or palette.strip() != f"{app.get_key_display(key)} {key.description}":
        return f"palette: {bar}{palette!r}"
    return not_whole(keys, labels(app))


def footer(app) -> str:
    return screen_lines(app)[-1]


def fits(app, width: int) -> bool:
    """The footer row (the last) holds q and ? whole and nothing cut; at 100 columns every key."""
    rows = screen_lines(app)
    if app.size.width != width or len(rows) != app.size.height:
        return False
    row = rows[-1]
    if f"q {words(app, 'quit')}" not in row or f"? {words(app, 'help')}" not in row or cut(app, row):
        return False
    return width < 100 or all(words(app, a) in row for a in ("next", "prev", "recheck", "maximize_pane"))


@pytest.mark.parametrize("lang", ["en", "ko"])
async def test_the_footer_follows_every_resize_with_no_key_pressed(lang, tmp_path):
    app = make_app(empty_recording(tmp_path), lang=lang, state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: fits(app, 80), "the footer to fit 80 columns", seen=lambda: footer(app))
        for i, (w, h) in enumerate(SIZES):
            if i == 2:  # the other language, then on with the resizes
                await pilot.press("l")
                await until(pilot, lambda: fits(app, 100), f"the footer in {app.lang} after l to fit 100 columns",
                            seen=lambda: footer(app))
            await pilot.resize_terminal(w, h)
            await until(pilot, lambda w=w: fits(app, w), f"the footer in {app.lang} to fit {w}x{h}",
                        seen=lambda: footer(app))


@pytest.mark.parametrize("lang", ["en", "ko"])
async def test_the_footer_under_the_help_follows_a_resize(lang, tmp_path):
    """The help covers the lesson but not its footer: the keys there fit the new width too,
    while the help is up and after esc closes it."""
    app = make_app(empty_recording(tmp_path), lang=lang, state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help to open", seen=lambda: app.screen)
        for w, h in ((60, 20), (100, 30)):
            await pilot.resize_terminal(w, h)
            await until(pilot, lambda w=w: fits(app, w), f"the footer under the help to fit {w}x{h}",
                        seen=lambda: footer(app))
        await pilot.resize_terminal(60, 20)
        await until(pilot, lambda: fits(app, 60), "the footer under the help to fit 60x20", seen=lambda: footer(app))
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, HelpScreen) and fits(app, 60),
                    "the help to close and the footer to fit 60x20", seen=lambda: (app.screen, footer(app)))
