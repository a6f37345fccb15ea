"""Every notice the tutor shows follows a switch of language (l): each is given as what it says
(Said, both languages), never as text of one language. The type holds every place the tutor
notifies (mypy reads each call of app.notice and Notices.say); these tests hold the type, that
no tutor code takes Textual's plain-text way (App.notify), and one notice made of a file's
problem, said again after l."""

from __future__ import annotations

import ast
import typing
from pathlib import Path

import pytest

from tests.ui.harness import empty_recording, make_app
from tests.ui.settle import settled, until
from tutor.i18n.bilingual import Said, pick
from tutor.ui.app import TutorApp
from tutor.ui.screens.lesson import LessonHost
from tutor.ui.services.notices import Notices

TUTOR = Path(__file__).resolve().parents[2] / "tutor"


@pytest.mark.parametrize("say", [TutorApp.notice, LessonHost.notice, Notices.say],
                         ids=lambda f: f.__qualname__)
def test_a_notice_is_given_as_what_it_says(say):
    hints = typing.get_type_hints(say)
    assert hints["message"] is Said, hints["message"]
    if "title" in hints:  # the app's notice passes its title on to Notices.say
        assert hints["title"] == Said | None, hints["title"]


def test_no_tutor_code_notifies_in_plain_text():
    """App.notify takes text: a notice made with it cannot be said again in the other language."""
    found = []
    for path in sorted(TUTOR.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "notify" \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id in ("self", "app"):
                found.append(f"{path.relative_to(TUTOR.parent)}:{node.lineno}")
    assert not found, found


@pytest.mark.parametrize("lang", ["ko", "en"])
async def test_the_progress_files_notice_is_said_again_after_l(lang, tmp_path):
    state = tmp_path / "state" / "lwstutor" / "replay-empty.json"  # the replay's own progress file
    state.parent.mkdir(parents=True)
    state.write_text("{not json")
    app = make_app(empty_recording(tmp_path), lang=lang)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settled(pilot)
        problem = app.session.progress.problem
        assert [n.message for n in app.notices] == [pick(problem, lang)]
        await pilot.press("l")
        other = "en" if lang == "ko" else "ko"
        await until(pilot, lambda: [n.message for n in app.notices] == [pick(problem, other)],
                    "the notice in the new language", seen=lambda: [n.message for n in app.notices])
