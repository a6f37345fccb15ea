"""Korean mode shows no English chrome: the footer, the help screen, the palette and the
timeline's footer speak the learner's language, switch with l, and fit 80 columns."""

from __future__ import annotations

from textual.command import CommandPalette

from tests.conftest import WALKTHROUGH
from tests.ui.harness import make_app
from tests.ui.screen_text import screen_lines
from tests.ui.settle import footer_reads, on_screen, screen_reads, settled, until
from tutor.ui.screens.timeline_view import TimelineScreen
from tutor.i18n.bilingual import say


async def test_the_footer_speaks_korean_and_switches_with_l(tmp_path):
    app = make_app(WALKTHROUGH, lang="ko", state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        # the step shown has passed: s (the solution, to compare) has h's place
        await footer_reads(pilot, ("다음", "이전", "풀이", "확대", "도움말", "종료", "팔레트"), ("Next", "Quit"))
        await pilot.press("l")
        await footer_reads(pilot, ("Next", "Quit"), ("종료",))  # every key fits 80 columns


async def test_help_and_palette_in_korean(tmp_path):
    app = make_app(WALKTHROUGH, lang="ko", state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 30)) as pilot:
        await settled(pilot)
        await pilot.press("question_mark")
        await screen_reads(pilot, ("다음 힌트 보기", "선택한 창을 크게 보기"), ("Reveal the next hint",))
        await pilot.press("escape")
        await pilot.press("ctrl+p")
        await screen_reads(pilot, ("명령 찾기", "1단계로 가기"), ("Search for commands",))  # the tutor's own entries
        titles = [c.title for c in app.get_system_commands(app.screen)]  # Textual's, listed as its provider answers
        assert "도움말: 키" in titles and "테마" in titles and "Theme" not in titles, titles


async def test_the_timelines_footer_in_korean(tmp_path):
    app = make_app(WALKTHROUGH, lang="ko", state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await pilot.press("t")
        await on_screen(pilot, TimelineScreen)
        await footer_reads(pilot, ("닫기",), ("Close",))


async def test_a_confirm_dialog_wraps_its_question_in_both_languages(tmp_path):
    for lang, question in (("en", "Reset all progress? Every pass, revealed hint and prediction is forgotten."),
                           ("ko", None)):
        app = make_app(WALKTHROUGH, lang=lang, state_file=tmp_path / f"{lang}.json")
        async with app.run_test(size=(60, 20)) as pilot:
            await settled(pilot)
            app.lesson.action_reset_all()
            want = question or say(app.lang, "Reset all progress? Every pass, revealed hint and prediction is forgotten.",
                                   "전체 진행을 초기화할까요? 모든 통과 기록과 힌트, 예측이 지워집니다.")

            def shown() -> str:
                return " ".join(" ".join(line.strip(" │╭╮╰╯─") for line in screen_lines(app)).split())

            # the question comes from a worker, a few frames after the action
            await until(pilot, lambda: " ".join(want.split()) in shown(), "the whole question", seen=shown)


async def test_at_60x20_every_pane_keeps_its_first_rows(tmp_path):
    app = make_app(WALKTHROUGH, lang="ko", state_file=tmp_path / "small.json")
    async with app.run_test(size=(60, 20)) as pilot:
        await settled(pilot)
        await pilot.press("5")
        await until(pilot, lambda: "5." in screen_lines(app)[app.query_one("#lesson").region.y + 1],
                    "step 5's title on the lesson's first row", seen=lambda: screen_lines(app))
        bottom = 19  # the footer's row
        for pane in ("#lesson", "#verdict", "#groups", "#pods", "#events"):
            region = app.query_one(pane).region
            assert region.height >= 3 and region.bottom <= bottom, (pane, region)  # borders and a row, all on screen
        assert app.query_one("#pods").region.height >= 5  # the header, a pod, and its scrollbar
        lines = screen_lines(app)
        lesson = app.query_one("#lesson").region
        assert "5." in lines[lesson.y + 1]  # the step's title is on its first row


async def test_the_palette_says_nothing_matched_in_korean(tmp_path):
    app = make_app(WALKTHROUGH, lang="ko", state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await pilot.press("ctrl+p")
        await on_screen(pilot, CommandPalette)
        await pilot.press(*"zqzq")
        # Textual waits half a second before saying nothing matched
        await screen_reads(pilot, ("맞는 명령이 없습니다",), ("No matches", "Exit the command palette"))
        assert "palette" not in "\n".join(screen_lines(app)).lower()
