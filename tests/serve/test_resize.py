"""A served tab whose window shrinks: the footer fits the new width, with q and ? whole and no
key cut, with no key pressed, as in the terminal (tests/ui/test_footer_resize.py), in both
languages."""

from __future__ import annotations

import time

import pytest
from textual.app import App
from textual.binding import Binding

from tests import waits
from tests.footer_row import not_whole
from tutor.ui.bindings.key_words import localised
from tutor.ui.bindings.keys import KEYS

pytestmark = pytest.mark.browser

WAIT = waits.PROCESS  # each wait ends as soon as the screen shows it


def label(binding: Binding, lang: str) -> str:
    """A key as the footer draws it whole, in `lang` ("n/→ Next")."""
    return f"{App().get_key_display(binding)} {localised(binding, lang).description}"


def key(action: str, lang: str) -> str:
    return label(next(b for b in KEYS if b.action == action), lang)


def cut(row: str, lang: str) -> str:
    """What of the footer row is not a whole key: "" when it is keys, spaces and the palette's
    key whole at the right. (A Korean word is two cells: a cut one leaves a blank cell.)"""
    keys, bar, palette = row.partition("▏")
    if not bar or palette.strip() != label(Binding("ctrl+p", "command_palette", "palette"), lang):
        return f"palette: {bar}{palette!r}"
    return not_whole(keys, {label(b, lang) for b in KEYS if b.description})


def footer_fits(tab, lang: str, narrower_than: int, timeout: float = WAIT) -> str:
    """Waits until the tab's terminal is narrower than `narrower_than` columns and its last row,
    the footer, holds q and ? whole with nothing cut; returns that row. Fails with the screen."""
    deadline = time.monotonic() + timeout
    while True:
        screen = tab.read()
        row = tab.screen.display[-1].rstrip()
        if (tab.screen.columns < narrower_than and key("quit", lang) in row and key("help", lang) in row
                and not cut(row, lang)):
            return row
        if time.monotonic() > deadline:
            raise AssertionError(f"at {tab.screen.columns}x{tab.screen.lines} the footer is {row!r}, "
                                 f"cut: {cut(row, lang)!r}\n{screen}")
        time.sleep(0.2)


def quiet(tab, seconds: float = 1.5, timeout: float = WAIT) -> None:
    """Waits until the tutor has sent nothing for `seconds`: the replay played and checked, so
    what redraws after the resize is the resize's doing alone (a re-check of the replay would
    fit the footer again by itself)."""
    deadline = last = time.monotonic()
    deadline += timeout
    while time.monotonic() - last < seconds:
        if time.monotonic() > deadline:
            raise AssertionError(f"the tutor kept drawing for {timeout} s:\n{tab.read()}")
        if tab.page.evaluate("window.__tutorFrames.length"):
            tab.read()
            last = time.monotonic()
        time.sleep(0.1)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_footer_fits_a_window_made_smaller(serve, tabs, lang):
    served = serve("--speed", "0", lang=lang)  # the replay over at once
    tab = tabs()  # 1280x800
    tab.open(f"{served.url}/?token={served.token}")
    tab.wait_started()
    tab.wait_for("LeaderWorkerSet", timeout=WAIT)
    wide = footer_fits(tab, lang, 10_000)
    columns = tab.screen.columns
    assert columns >= 100 and key("maximize_pane", lang) in wide, (columns, wide)  # room for every key
    quiet(tab)

    tab.page.set_viewport_size({"width": 560, "height": 420})
    footer_fits(tab, lang, 70)  # no key pressed: the resize alone refits it
