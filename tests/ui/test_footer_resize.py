"""After a resize, with no key pressed, the footer fits the new width: q and ? whole, every key
it shows whole, nothing left of a key the old width had room for; at 100 columns, every key.
Both directions (80x24 -> 60x20 -> 100x30 -> 80x24), both languages (l switches between
them, mid-way), and with the help open over the lesson while the window changes (its own keys
then, not the lesson's)."""

from __future__ import annotations

import pytest

from tests.footer_row import not_whole
from tests.ui.harness import empty_recording, make_app
from textual.widgets import HelpPanel

from tests.ui.screen_text import region_text, screen_lines
from tests.ui.settle import until
from tutor.i18n.bilingual import say
from tutor.ui.bindings.key_words import localised
from tutor.ui.screens.help import HelpScreen
from tutor.ui.widgets.key_footer import KeyFooter
from tutor.ui.bindings.keys import KEYS

SIZES = [(60, 20), (100, 30), (80, 24), (60, 20)]


def words(app, action: str) -> str:
    return localised(next(b for b in KEYS if b.action == action), app.lang).description


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


def fits_under_help(app, width: int) -> bool:
    """The footer row under the help holds the help's keys, esc (which closes it, as ? does)
    and q, whole, and nothing else: the lesson's keys do not act there."""
    row = footer(app)
    keys = [f"esc {say(app.lang, 'Close', '닫기')}", f"q {words(app, 'quit')}"]
    rest = row
    for key in keys:
        rest = rest.replace(key, "", 1)
    return app.size.width == width and all(k in row for k in keys) and not rest.strip()


@pytest.mark.parametrize("lang", ["en", "ko"])
async def test_the_footer_under_the_help_follows_a_resize(lang, tmp_path):
    """The help covers the lesson but not its footer: the keys there, the help's own, fit the
    new width too, and the lesson's come back, fitted, after esc closes it."""
    app = make_app(empty_recording(tmp_path), lang=lang, state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help to open", seen=lambda: app.screen)
        for w, h in ((60, 20), (100, 30)):
            await pilot.resize_terminal(w, h)
            await until(pilot, lambda w=w: fits_under_help(app, w), f"the footer under the help to fit {w}x{h}",
                        seen=lambda: footer(app))
        await pilot.resize_terminal(60, 20)
        await until(pilot, lambda: fits_under_help(app, 60), "the footer under the help to fit 60x20",
                    seen=lambda: footer(app))
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, HelpScreen) and fits(app, 60),
                    "the help to close and the footer to fit 60x20", seen=lambda: (app.screen, footer(app)))


def footer_beside_panel(app) -> str:
    """The footer's own row: with the keys panel up it ends where the panel begins."""
    return region_text(app, app.screen_stack[0].query_one(KeyFooter).region)


def fits_beside_panel(app, width: int) -> bool:
    """The keys panel is up at `width` and the footer left of it holds q and ? whole, nothing cut."""
    panel = app.screen_stack[0].query(HelpPanel)
    if app.size.width != width or not panel or not panel.first().size.width:
        return False
    row = footer_beside_panel(app)
    return f"q {words(app, 'quit')}" in row and f"? {words(app, 'help')}" in row and not cut(app, row)


@pytest.mark.parametrize("lang", ["en", "ko"])
async def test_the_footer_beside_the_keys_panel_keeps_q_and_help(lang, tmp_path):
    """The palette's "Keys" splits a third of the screen off at the right, footer row included:
    fitted to the screen's width, the footer lost q and ? under the panel."""
    app = make_app(empty_recording(tmp_path), lang=lang, state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        app.action_show_help_panel()
        for w, h in ((80, 24), (60, 20), (100, 30)):
            await pilot.resize_terminal(w, h)
            await until(pilot, lambda w=w: fits_beside_panel(app, w), f"the footer beside the keys panel to fit {w}x{h}",
                        seen=lambda: footer_beside_panel(app))
        app.action_hide_help_panel()
        await until(pilot, lambda: fits(app, 100), "the footer to fit 100 columns again with the panel gone",
                    seen=lambda: footer(app))
