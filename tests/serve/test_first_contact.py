"""A served tab as a learner first meets it: keys work before any click, the token leaves the
address bar once its cookie is set, and the Korean tutor has a font for Hangul (or says so)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests import waits

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "screenshots"
PROBE = "window.lwstutorHasFont(%r)"


def test_keys_work_on_a_fresh_tab_without_a_click(serve, tabs):
    served = serve()
    tab = tabs()
    tab.open(f"{served.url}/?token={served.token}")
    tab.wait_started()
    tab.wait_for("LeaderWorkerSet")
    tab.page.wait_for_function("document.activeElement && document.activeElement.classList.contains("
                               "'xterm-helper-textarea')", timeout=waits.MOMENT * 1000)
    tab.page.keyboard.press("?")  # no click, no focus() of our own
    screen = tab.wait_for("Reveal the next hint")  # the help, with its keys
    assert "Keys" in screen


def test_the_token_leaves_the_address_bar_and_a_reload_still_works(serve, tabs):
    served = serve()
    tab = tabs()
    tab.open(f"{served.url}/?token={served.token}")
    tab.wait_started()
    tab.wait_for("LeaderWorkerSet")
    assert "token" not in tab.page.url and served.token not in tab.page.url, tab.page.url
    tab.reload()  # by the cookie alone
    tab.wait_started()
    tab.wait_for("LeaderWorkerSet")
    again = tabs()  # a new tab (its own cookies) from the printed address
    again.open(f"{served.url}/?token={served.token}")
    again.wait_started()
    again.wait_for("LeaderWorkerSet")


def test_the_korean_tutor_has_a_font_for_hangul(serve, tabs):
    served = serve(lang="ko")
    tab = tabs()
    tab.open(f"{served.url}/?token={served.token}")
    tab.wait_started()
    tab.wait_for("리더")
    tab.page.evaluate("document.fonts.ready")
    assert tab.page.evaluate(PROBE % "\u0378") is False  # the probe can say no: no font has U+0378
    assert tab.page.evaluate(PROBE % "한") is True, "no font for Hangul: tests/run.sh installs fonts-nanum-coding"
    assert tab.page.evaluate("document.body.classList.contains('-no-hangul')") is False
    tab.page.screenshot(path=str(SHOTS / "serve-chromium-ko.png") if os.environ.get("LWSTUTOR_SCREENSHOTS")
                        else str(served.state.parent / "tab-ko.png"))


def test_without_a_hangul_font_the_page_says_so_in_both_languages(serve, tabs):
    """The notice is the page's own: shown when the probe finds no font, in English and Korean."""
    served = serve(lang="ko")
    tab = tabs()
    tab.open(f"{served.url}/?token={served.token}")
    tab.wait_started()
    tab.page.evaluate("document.body.classList.add('-no-hangul')")
    text = tab.page.inner_text("#no-hangul")
    assert "--lang en" in text and "fonts-nanum-coding" in text and "한글 글꼴" in text
    assert tab.page.is_visible("#no-hangul")
