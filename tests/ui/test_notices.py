"""Notices keep out of the way: one line of their own under the header (test_notice_line.py),
each passed step named once (a pass while a notice is up joins it), no recap repeated, esc
closes them, and a Korean notice is drawn with every character. ctrl+c quits as q does."""

from __future__ import annotations

import pytest

from tests.conftest import WALKTHROUGH
from tests.ui.harness import empty_recording, make_app
from tests.ui.screen_text import notices_read, screen_lines
from tests.ui.settle import screen_reads, settled, until
from tutor.ui.services import notices as notices_module
from tutor.ui.step_page import step_ranges
from tutor.ui.widgets.notice_bar import notice_text
from tutor.i18n.bilingual import say, saying
from tutor.ui import app as app_module


async def line_reads(pilot, text: str) -> None:
    """Waits until the notices' line reads `text` ("" hidden): it is drawn a few frames after the
    notice came or went."""
    await until(pilot, lambda: notices_read(pilot.app) == text, f"the notices' line to read {text!r}",
                seen=lambda: notices_read(pilot.app))


@pytest.mark.parametrize("lang", ["ko", "en"])
async def test_a_catch_up_names_every_passed_step_once_in_one_line(lang, tmp_path, monkeypatch):
    # Up for good: a pass joins a notice only while it is up, and a loaded machine can take
    # longer than its 5 s between two passes of the catch-up, or between the last and the read.
    monkeypatch.setattr(notices_module, "PASS_NOTICE_SECONDS", 3600)
    app = make_app(WALKTHROUGH, lang=lang, state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settled(pilot)
        expected = "✓ 1–8단계 통과" if lang == "ko" else "✓ Steps 1–8 passed"
        await line_reads(pilot, expected)  # one line under the header
        passes = [n.message for n in app.notices if n.message.startswith("✓")]
        assert passes == [expected]  # one notice, however many re-checks passed steps on the way


async def test_a_switch_of_language_says_the_pass_notice_again_and_drops_the_rest(tmp_path, monkeypatch):
    """No notice stays up in the language just left: the pass notice is said again in the new
    one, a passing remark goes, a warning stays."""
    monkeypatch.setattr(notices_module, "PASS_NOTICE_SECONDS", 3600)
    app = make_app(empty_recording(tmp_path), state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settled(pilot)
        # Textual's own notices, its text only: the passing one goes, the warning stays
        app.notify("Copied.", timeout=3600)
        app.notify("Progress not saved.", severity="warning", timeout=3600)
        app.passed([1, 2, 3])
        await pilot.press("l")
        await line_reads(pilot, "✓ 1–3단계 통과 · Progress not saved.")


async def test_a_pass_while_a_notice_is_up_joins_it(tmp_path):
    app = make_app(empty_recording(tmp_path), state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.passed([1])
        app.passed([2, 3])  # in the same turn: the first is not drawn yet
        await pilot.pause()
        assert [n.message for n in app.notices] == ["✓ Steps 1–3 passed"]
        await pilot.press("escape")
        app.passed([5])  # after esc closed it: a notice of its own
        await pilot.pause()
        assert [n.message for n in app.notices] == ["✓ Step 5 passed: recap in the step"]
        assert "The lines below" not in screen_lines(app)[0]  # the recap stays in the lesson pane


async def test_esc_closes_notices_and_restores_a_zoomed_pane_together(tmp_path):
    app = make_app(empty_recording(tmp_path), state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.notice(saying("one", "하나"))
        app.notice(saying("two", "둘"), severity="warning", timeout=30)
        await pilot.press("z")
        await line_reads(pilot, "two · one")
        assert app.screen.maximized is not None
        await pilot.press("escape")
        await line_reads(pilot, "")
        assert not list(app.notices) and app.screen.maximized is None


async def test_a_long_korean_notice_keeps_every_character_up_to_its_cut(tmp_path):
    """A notice longer than its line ends in "…", cut between two characters, never in one
    (a Korean character is two cells)."""
    app = make_app(empty_recording(tmp_path), lang="ko", state_file=tmp_path / "p.json")
    recap = " ".join(app.session.lesson.step(5).text("ko").recap.replace("`", "").split())[:200]
    async with app.run_test(size=(81, 24), notifications=True) as pilot:
        app.notice(saying(recap, recap), timeout=30)
        line = await until(pilot, lambda: notices_read(app).endswith("…") and notices_read(app),
                           "the notice cut to its line", seen=lambda: notices_read(app))
        assert recap.startswith(line.rstrip("…").rstrip())


def test_step_ranges():
    assert step_ranges([1]) == "1"
    assert step_ranges([2, 1]) == "1, 2"
    assert step_ranges([1, 2, 3, 5, 7, 8]) == "1–3, 5, 7, 8"


@pytest.mark.parametrize("lang", ["ko", "en"])
async def test_ctrl_c_quits(lang, tmp_path):
    app = make_app(empty_recording(tmp_path), lang=lang, state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("h")
        await pilot.press("ctrl+c")
        await until(pilot, lambda: app._exit, "ctrl+c to quit")  # as q does; no "press ctrl+q" notice
        assert not [n for n in app.notices if "ctrl+q" in n.message]
    assert app.session.progress.hints == {1: 1}  # progress was kept, as q keeps it


async def test_ctrl_c_copies_a_selection_first_then_quits(tmp_path):
    app = make_app(empty_recording(tmp_path), state_file=tmp_path / "p.json")
    copied = []
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.copy_to_clipboard = copied.append
        app.screen.get_selected_text = lambda: "f08d70f6"  # as a mouse drag over a UID leaves it
        await pilot.press("ctrl+c")
        await until(pilot, lambda: copied, "the selection copied")
        assert copied == ["f08d70f6"] and not app._exit
        app.screen.get_selected_text = lambda: None
        await pilot.press("ctrl+c")
        await until(pilot, lambda: app._exit, "the second ctrl+c to quit")


async def test_notices_taken_away_leave_no_trace_before_the_next(tmp_path):
    app = make_app(empty_recording(tmp_path), state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        for n in range(1, 5):
            app.passed([n])
            await line_reads(pilot, notice_text(list(app.notices)[-1]))  # each drawn before the next comes
        await pilot.press("escape")
        app.passed([6])
        await line_reads(pilot, "✓ Step 6 passed: recap in the step")


@pytest.mark.parametrize("lang", ["ko", "en"])
async def test_a_pass_notice_goes_when_the_step_shown_changes(lang, tmp_path):
    app = make_app(empty_recording(tmp_path), lang=lang, state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.passed([1])
        app.notice(saying("Progress saved again.", "진행 상황을 다시 저장했습니다."), timeout=30)  # another notice stays
        passed = say(app.lang, "✓ Step {n} passed: recap in the step", "✓ {n}단계 통과: 정리는 설명 끝에", n=1)
        await screen_reads(pilot, (passed,))
        await pilot.press("2")
        saved = say(app.lang, "Progress saved again.", "진행 상황을 다시 저장했습니다.")
        await line_reads(pilot, saved)
        assert [n.message for n in app.notices] == [saved]


@pytest.mark.parametrize("lang,first,then", [
    ("en", "Step 1 is the first: there is no step before it.", "1단계가 처음이라 이전 단계가 없습니다."),
    ("ko", "1단계가 처음이라 이전 단계가 없습니다.", "Step 1 is the first: there is no step before it.")])
async def test_a_notice_up_when_l_is_pressed_is_said_again_in_the_new_language(lang, first, then, tmp_path,
                                                                                monkeypatch):
    """The notice keeps what it says, not its text: l says it again, the same notice, with the
    time it had left (esc and its timer still end it)."""
    monkeypatch.setattr(app_module, "WHY_SECONDS", 3600)
    app = make_app(empty_recording(tmp_path), lang=lang, state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settled(pilot)
        await pilot.press("p")  # step 1: nothing before it, and it says so
        await line_reads(pilot, first)
        [shown] = list(app.notices)
        await pilot.press("l")
        await line_reads(pilot, then)
        assert [n.identity for n in app.notices] == [shown.identity] and shown.timeout == 3600


async def test_a_notice_with_fields_keeps_them_across_a_switch(tmp_path):
    app = make_app(empty_recording(tmp_path), lang="ko", state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settled(pilot)
        app.notice(saying("Progress not saved to {path}: {err}.", "진행 상황을 {path}에 저장하지 못했습니다: {err}.",
                          path="~/p.json", err=("disk full", "디스크 공간이 없습니다")), severity="warning", timeout=3600)
        await line_reads(pilot, "진행 상황을 ~/p.json에 저장하지 못했습니다: 디스크 공간이 없습니다.")
        await pilot.press("l")
        await line_reads(pilot, "Progress not saved to ~/p.json: disk full.")
