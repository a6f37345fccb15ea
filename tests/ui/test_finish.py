"""The end of the lesson: the finish screen opens by itself when the replay passes the last step,
once, says what was done, what comes next and where to read on, in the learner's language; esc
closes it, f and the palette show it again; it fits from 60x20 to 160x48."""

from __future__ import annotations

import pytest

from tests.conftest import WALKTHROUGH
from tests.ui.harness import empty_recording, make_app
from tests.ui.screen_text import region_text
from tests.ui.settle import footer_reads, off_screen, on_screen, past_the_end, settled, still, until
from tutor.lesson.loader import available
from tutor.ui.screens import finish as finish_screen
from tutor.ui.screens.finish import FinishScreen, finish_rows

NEXT_HEADING = {"en": "Next", "ko": "다음 모듈"}
DONE_HEADING = {"en": "What you did", "ko": "해낸 일"}
KEYS = {"en": "esc closes · f shows it again · l ko/en", "ko": "esc로 닫기 · f로 다시 보기 · l ko/en"}


def flat(text: str) -> str:
    """Screen text with its line breaks and the indents of wrapped lines taken out."""
    return "".join(text.split())


def box_text(app) -> str:
    """What the finish screen's box shows inside its border."""
    box = app.screen.query_one("#finish")
    return region_text(app, box.scrollable_content_region)


async def read_all(pilot) -> str:
    """The whole finish screen as the learner reads it, scrolling down a page at a time."""
    app = pilot.app
    box = app.screen.query_one("#finish")
    lines: dict[int, str] = {}  # by the line's place in the whole text
    y = 0
    while True:
        box.scroll_to(y=y, animate=False)
        want = min(y, box.max_scroll_y)
        await until(pilot, lambda: round(box.scroll_y) == round(want), f"the finish screen scrolled to line {want}",
                    seen=lambda: box.scroll_y)
        await pilot.pause()  # the lines there drawn
        top = round(box.scroll_y)
        for i, line in enumerate(box_text(app).splitlines()):
            lines[top + i] = line
        if top >= box.max_scroll_y:
            return "\n".join(lines[i] for i in sorted(lines))
        y = top + box.scrollable_content_region.height


@pytest.mark.parametrize("lang", ["en", "ko"])
async def test_the_end_opens_once_closes_with_esc_and_f_shows_it_again(lang, tmp_path):
    app = make_app(WALKTHROUGH, lang=lang, state_file=tmp_path / "p.json")
    opened = []
    push = app.push_screen

    def counting(screen, *args, **kwargs):
        if isinstance(screen, FinishScreen):
            opened.append(len(app.session.progress.passed))
        return push(screen, *args, **kwargs)

    app.push_screen = counting
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot, close_the_end=False)
        assert isinstance(app.screen, FinishScreen)
        assert opened == [8]  # when the last step passed, not before
        text = await read_all(pilot)
        lesson = app.session.lesson
        for step in lesson.steps:
            assert f"{step.number}. {step.title(lang)}" in text
        assert DONE_HEADING[lang] in text and NEXT_HEADING[lang] in text
        assert flat(lesson.finish.next_module(lang)) in flat(text)
        for link in lesson.finish.links:
            assert link.title(lang) in text and link.url in flat(text)
        # The next lesson's command only once that lesson is installed.
        assert ("lwstutor --lesson gang" in text) == ("gang" in available())
        assert KEYS[lang] in app.screen.query_one("#finish").border_subtitle

        await past_the_end(pilot)
        assert not isinstance(app.screen, FinishScreen)
        await pilot.press("r")  # a re-check with every step passed does not open it again
        await settled(pilot, close_the_end=False)
        assert not isinstance(app.screen, FinishScreen) and opened == [8]

        await pilot.press("f")
        await on_screen(pilot, FinishScreen)
        await pilot.press("f")  # f closes it too
        await off_screen(pilot, FinishScreen)


async def test_the_language_switches_under_it(tmp_path):
    app = make_app(WALKTHROUGH, lang="en", state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot, close_the_end=False)
        assert isinstance(app.screen, FinishScreen)
        await pilot.press("l")
        await until(pilot, lambda: DONE_HEADING["ko"] in box_text(app), "the finish screen in Korean",
                    seen=lambda: box_text(app))
        assert isinstance(app.screen, FinishScreen)
        assert DONE_HEADING["en"] not in box_text(app)
        # the footer under it, which the learner reads too, follows
        await footer_reads(pilot, ("q 종료",), ("Quit",))


async def test_the_language_switched_in_the_palette_over_it_reaches_it(tmp_path):
    """The palette opened over the finish screen switches the language: the finish screen,
    which shows under the palette, was redrawn only when it was the screen on top."""
    app = make_app(WALKTHROUGH, lang="en", state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot, close_the_end=False)
        finish = app.screen
        assert isinstance(finish, FinishScreen)
        await pilot.press("ctrl+p")
        await until(pilot, lambda: app.screen is not finish, "the palette over the finish screen",
                    seen=lambda: app.screen)
        app.action_toggle_lang()  # as the palette's language entry does
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is finish and DONE_HEADING["ko"] in box_text(app),
                    "the finish screen on top again, in Korean", seen=lambda: (app.screen, box_text(app)))


async def test_q_quits_from_it_as_the_footer_under_it_says(tmp_path):
    """The footer below the finish screen still shows q Quit: a modal stops the app's keys, so the
    screen binds q itself (the installed demo waited forever for its q)."""
    app = make_app(WALKTHROUGH, lang="en", state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot, close_the_end=False)
        assert isinstance(app.screen, FinishScreen)
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running, "the app to quit")


def test_the_next_lesson_is_named_by_its_command_only_when_installed(tmp_path, monkeypatch):
    app = make_app(WALKTHROUGH, lang="en", state_file=tmp_path / "p.json")
    session = app.session
    for installed, named in ((["lws", "scale"], False), (["gang", "lws", "scale"], True)):
        monkeypatch.setattr(finish_screen, "available", lambda installed=installed: installed)
        rows = " ".join(text.plain for _, text in finish_rows(session))
        assert ("lwstutor --lesson gang" in rows) is named
        assert session.lesson.finish.next_module("en") in rows  # the module in words, either way


async def test_before_the_end_f_is_dimmed_and_the_palette_says_why(tmp_path):
    app = make_app(empty_recording(tmp_path), lang="ko", state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot, close_the_end=False)
        assert app.check_action("finish", ()) is None
        await pilot.press("f")
        await still(pilot, lambda: not isinstance(app.screen, FinishScreen), "no finish screen before the end")
        app.action_finish()  # what the palette's entry runs
        await until(pilot, lambda: any("모든 단계를 통과한 뒤에" in n.message for n in app.notices),
                    "the notice that says why", seen=lambda: [n.message for n in app.notices])
        assert not isinstance(app.screen, FinishScreen)


@pytest.mark.parametrize("size", [(60, 20), (80, 24), (100, 30), (160, 48)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "ko"])
async def test_it_fits_and_reads_whole(lang, size, tmp_path):
    app = make_app(WALKTHROUGH, lang=lang, state_file=tmp_path / "p.json")
    async with app.run_test(size=size) as pilot:
        await settled(pilot, close_the_end=False)
        box = app.screen.query_one("#finish")
        width, height = size
        assert box.region.x >= 0 and box.region.right <= width and box.region.bottom <= height
        assert box.max_scroll_x == 0  # nothing runs off to the right
        for row in box.children:
            assert row.region.width == 0 or row.region.right <= box.region.right
        text = await read_all(pilot)
        assert NEXT_HEADING[lang] in text
        assert all(link.url in flat(text) for link in app.session.lesson.finish.links)
        verdicts = [row for row in box.children if row.has_class("finish-verdict")]
        assert all(row.display for row in verdicts) == (height >= 32)  # the sentences only where they fit


async def _the_end(pilot) -> None:
    await settled(pilot, close_the_end=False)
    app = pilot.app
    assert isinstance(app.screen, FinishScreen)
    app.clear_notifications()
    await pilot.pause()  # the notices' line redrawn empty


@pytest.mark.parametrize("size", [(60, 20), (80, 24), (100, 30), (160, 48)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_finish_snapshot(snap_compare, lang, size, tmp_path):
    app = make_app(WALKTHROUGH, lang=lang, state_file=tmp_path / "p.json")
    assert snap_compare(app, terminal_size=size, run_before=_the_end)
