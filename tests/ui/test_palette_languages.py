"""The palette finds a command by its name in either language and shows it in the learner's:
in Korean mode `screenshot` finds 스크린샷 (Textual's own entry) and `step 3` a step of the lesson;
in English mode 스크린샷 finds Screenshot. The query is typed into the palette's input as a
keyboard in the other layout (or an IME) would put it there."""

from __future__ import annotations

import pytest
from textual.command import CommandPalette
from textual.widgets import Input

from tests.ui.harness import empty_recording, make_app
from tests.ui.settle import on_screen, palette_choice, settled, until


async def choice_for(pilot, query: str, want: str) -> None:
    await pilot.press("ctrl+p")
    palette = await on_screen(pilot, CommandPalette)
    palette.query_one(Input).value = query
    await until(pilot, lambda: palette_choice(pilot.app).split("\n")[0] == want, f"{query!r} to find {want!r}",
                seen=lambda: palette_choice(pilot.app))  # its name, over its help


@pytest.mark.parametrize("lang,query,want", [
    ("ko", "screenshot", "스크린샷"),  # Textual's own entry
    ("en", "스크린샷", "Screenshot"),
    ("ko", "reset all", "전체 진행 초기화…"),  # the tutor's own
    ("en", "전체 진행", "Reset all progress…"),
    ("ko", "스크린샷", "스크린샷"),  # its own language still finds it, highlighted
])
async def test_a_command_is_found_by_its_name_in_either_language(lang, query, want, tmp_path):
    app = make_app(empty_recording(tmp_path), lang=lang, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        await choice_for(pilot, query, want)


async def test_what_it_finds_by_the_other_name_runs(tmp_path):
    app = make_app(empty_recording(tmp_path), lang="ko", state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        await choice_for(pilot, "go to step 5", "5단계로 가기: " + app.session.lesson.step(5).title("ko"))
        await pilot.press("enter")
        await until(pilot, lambda: app.session.progress.current == 5, "step 5 chosen by its English name",
                    seen=lambda: app.session.progress.current)
