"""A lesson whose step file is broken fails clearly, wherever its text is first split: the loader
reads the step files but splits them only when a text is asked for (the tutor's first frame needs
only the current step's). Every command but the tutor splits them all before it starts, and the
tutor splits the current one before its first frame and the others just after it; each says the
file and what is wrong in one line, with exit code 2, never a traceback."""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path

import pytest

import tutor.commands.setup as setup
from tests import waits
from tests.conftest import WALKTHROUGH
from tutor.cli import build_parser, main
from tutor.commands.results import UsageError
from tutor.commands.tui import tui_app
from tutor.lesson.loader import LessonError, load

PROBLEM = "unknown section '## Surprise'"


def broken_lws(tmp_path: Path, step_file: str) -> Path:
    """A copy of the LWS lesson whose `step_file` has a section no lesson may have."""
    root = tmp_path / "lws"
    shutil.copytree(Path(str(resources.files("tutor.lessons").joinpath("lws"))), root,
                    ignore=shutil.ignore_patterns("__pycache__"))
    path = root / "steps" / step_file
    path.write_text(path.read_text(encoding="utf-8") + "\n## Surprise\n\nnot a section\n", encoding="utf-8")
    return root


@pytest.fixture
def lesson_with_broken(tmp_path, monkeypatch):
    """Makes the installed LWS lesson, as the commands load it, the copy with the broken file."""
    def install(step_file: str) -> Path:
        root = broken_lws(tmp_path, step_file)
        monkeypatch.setattr(setup, "load", lambda name: load(name, root=root))
        return root / "steps" / step_file
    return install


def test_the_loader_splits_a_step_when_its_text_is_asked_for(tmp_path):
    lesson = load("lws", root=broken_lws(tmp_path, "05-restart-group.en.md"))  # the files are read, not split
    assert lesson.step(1).text("en").hints and lesson.step(5).text("ko").hints
    with pytest.raises(LessonError, match=f"05-restart-group.en.md: {PROBLEM}"):
        lesson.step(5).text("en")
    with pytest.raises(LessonError, match=f"05-restart-group.en.md: {PROBLEM}"):
        lesson.check_texts()
    lesson.check_texts([1, 2, 3, 4, 6, 7, 8])


def test_a_missing_step_file_still_fails_the_load(tmp_path):
    root = broken_lws(tmp_path, "03-env.ko.md")
    (root / "steps" / "03-env.ko.md").unlink()
    with pytest.raises(LessonError, match="03-env.ko.md"):
        load("lws", root=root)


def test_a_command_says_the_broken_file_in_one_line(lesson_with_broken, capsys, tmp_path):
    path = lesson_with_broken("07-exclusive.ko.md")
    code = main(["check", "--replay", str(WALKTHROUGH), "--lang", "en", "--state-file", str(tmp_path / "p.json")])
    err = capsys.readouterr().err
    assert code == 2
    assert err.strip() == f"lwstutor: --lesson lws: {path}: {PROBLEM} (expected '## 힌트', '## 풀이' or '## 방금 본 것')"


def tutor_args(tmp_path):
    return build_parser().parse_args(["--replay", str(WALKTHROUGH), "--speed", "0", "--lang", "en",
                                      "--state-file", str(tmp_path / "p.json")])


def test_the_tutor_with_a_broken_current_step_stops_before_its_ui(lesson_with_broken, tmp_path):
    path = lesson_with_broken("01-create-llm.en.md")  # step 1: the one a new learner sees first
    with pytest.raises(UsageError) as err:
        tui_app(tutor_args(tmp_path))
    assert str(err.value.text("en")) == f"--lesson lws: {path}: {PROBLEM} " \
                                        "(expected '## Hint', '## Solution' or '## What you just saw')"


async def test_the_tutor_with_another_broken_step_ends_after_its_first_frame(lesson_with_broken, tmp_path):
    path = lesson_with_broken("06-rollout.en.md")
    app = tui_app(tutor_args(tmp_path))  # step 1's text is split; the first frame can come
    async with app.run_test(size=(120, 40)) as pilot:
        await waits.until(pilot.pause, lambda: not app.is_running, "the app to end after its first frame",
                          seen=lambda: f"still running, error noted: {app.connect_error!r}")
    assert isinstance(app.connect_error, UsageError)
    assert app.connect_error.text("en") == f"--lesson lws: {path}: {PROBLEM} " \
                                           "(expected '## Hint', '## Solution' or '## What you just saw')"
    assert app.session.store.version == 0  # the replay never started
