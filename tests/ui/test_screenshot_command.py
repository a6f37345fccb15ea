"""The palette's Screenshot saves an SVG where one can be saved, and says where in the
learner's language: the Downloads folder when there is one, else the tutor's own state
directory (never the working directory: it holds the learner's answer files)."""

from __future__ import annotations

import asyncio

import pytest

from tests.ui.harness import empty_recording, make_app
from tests.ui.screen_text import screen_lines
from tests.ui.settle import until


async def _screenshot(app, pilot) -> None:
    app.deliver_screenshot()
    # the driver writes the file in a thread, then posts the outcome
    await until(pilot, lambda: app.notices, "the notice after the screenshot")


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("downloads", [True, False])
async def test_the_screenshot_is_saved_and_said_in_the_learners_language(lang, downloads, tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    if downloads:
        (home / "Downloads").mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_DOWNLOAD_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    app = make_app(empty_recording(tmp_path), lang=lang)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await _screenshot(app, pilot)
        await asyncio.sleep(0)
        where = home / "Downloads" if downloads else tmp_path / "state" / "lwstutor"
        saved = list(where.glob("*.svg"))
        assert len(saved) == 1 and saved[0].read_text().startswith("<svg")
        assert not list(tmp_path.glob("*.svg"))  # nothing in the working directory
        (notice,) = app.notices
        assert notice.severity == "information" and saved[0].name in notice.message.replace("\n", "")
        word = "스크린샷" if lang == "ko" else "Screenshot"
        await until(pilot, lambda: word in "\n".join(screen_lines(app)), "the notice drawn",
                    seen=lambda: screen_lines(app))
        shown = "\n".join(screen_lines(app))
        assert ("스크린샷" in shown) == (lang == "ko") and ("Screenshot" in shown) == (lang == "en"), shown
        assert "Failed" not in shown


async def test_a_screenshot_that_cannot_be_saved_says_why_in_korean(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "not-a-dir").write_text("")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "not-a-dir"))  # no Downloads, no state dir either
    monkeypatch.delenv("XDG_DOWNLOAD_DIR", raising=False)
    app = make_app(empty_recording(tmp_path), lang="ko", state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await _screenshot(app, pilot)
        (notice,) = app.notices
        assert notice.severity == "error" and notice.message.startswith("스크린샷을 저장하지 못했습니다")
        assert "Traceback" not in notice.message and "Failed" not in notice.message



async def test_a_screenshot_whose_timer_fires_after_the_screens_are_gone_saves_nothing(tmp_path, monkeypatch):
    """The palette's Screenshot is taken 0.1 s after the palette closes. q pressed in between
    removed the screens first, and the late call ended the tutor on a traceback (ScreenStackError)."""
    monkeypatch.setenv("HOME", str(tmp_path))
    app = make_app(empty_recording(tmp_path), lang="ko", state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("q")
    assert not app.screen_stack and app.return_code == 0
    assert app.deliver_screenshot() is None  # the timer's call, as it comes after the screens went
    assert not list(tmp_path.rglob("*.svg"))


@pytest.mark.parametrize("lang", ["ko", "en"])
async def test_at_60_columns_the_notice_keeps_the_files_name_whole(lang, tmp_path, monkeypatch):
    """The notices' line cut the saved path at its end, the file's name with it: the folders give
    way to "…" instead, and the name is read whole."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "a-state-folder-whose-name-is-long"))
    monkeypatch.delenv("XDG_DOWNLOAD_DIR", raising=False)
    app = make_app(empty_recording(tmp_path), lang=lang, state_file=tmp_path / "p.json")
    async with app.run_test(size=(60, 20), notifications=True) as pilot:
        await _screenshot(app, pilot)
        (saved,) = (tmp_path / "a-state-folder-whose-name-is-long").rglob("*.svg")
        await until(pilot, lambda: saved.name in "\n".join(screen_lines(app)), "the file's name drawn whole",
                    seen=lambda: screen_lines(app)[:3])
        (notice,) = app.notices
        assert "/…/" in notice.message and notice.message.endswith(saved.name)


def test_a_path_that_fits_is_shown_whole_and_one_that_does_not_keeps_its_name(tmp_path, monkeypatch):
    from tutor.ui.services.screenshot import shown_path

    monkeypatch.setenv("HOME", str(tmp_path))
    path = tmp_path / "one" / "two" / "shot.svg"
    assert shown_path(path, 40) == "~/one/two/shot.svg"
    assert shown_path(path, 15) == "~/…/shot.svg"
    assert shown_path(path, 16) == "~/…/two/shot.svg"
    assert shown_path(path, 5) == "…/shot.svg"  # the name whole, the line cuts the rest


def test_two_screenshots_in_one_second_keep_both(tmp_path):
    from datetime import datetime

    from tutor.ui.services.screenshot import free_name

    when = datetime(2026, 12, 4, 8, 53, 16)
    first = free_name(tmp_path, when)
    assert first == "lwstutor_2026-12-04T08_53_16.svg"
    (tmp_path / first).write_text("<svg/>")
    second = free_name(tmp_path, when)
    assert second == "lwstutor_2026-12-04T08_53_16-2.svg"
    (tmp_path / second).write_text("<svg/>")
    assert free_name(tmp_path, when) == "lwstutor_2026-12-04T08_53_16-3.svg"
