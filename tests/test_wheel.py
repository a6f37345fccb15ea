"""The wheel holds every lesson and every file the tutor reads: pyproject.toml and setup.py find
the packages and their data by pattern, so a new lesson, package or data file needs no line there,
and this test builds the wheel (offline: setuptools' own backend, no build isolation) and looks.
tests/test_install.py goes further where PyPI is reachable: it installs the wheel and runs it."""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

from tests.test_install import ROOT, copy_sources, sh
from tutor.lesson.loader import available

DATA = ("*.py", "*.tcss", "*.jsonl", "*.yaml", "*.md", "*.po")  # what the tutor reads, as pyproject.toml's package-data


def build_wheel(src: Path, out: Path) -> set[str]:
    """The names inside the wheel setuptools builds from `src`."""
    out.mkdir()
    sh(sys.executable, "-c", f"from setuptools import build_meta; build_meta.build_wheel({str(out)!r})", cwd=src, timeout=120)
    (wheel,) = out.glob("lwstutor-*.whl")
    with zipfile.ZipFile(wheel) as z:
        return set(z.namelist())


def installed_name(path: Path) -> str:
    """Where a file of the repo lands in the wheel: lessons/ installs as tutor/lessons/."""
    rel = path.relative_to(ROOT).as_posix()
    return "tutor/" + rel if rel.startswith("lessons/") else rel


def test_the_wheel_holds_every_lesson_and_every_file_the_tutor_reads(tmp_path):
    src = copy_sources(tmp_path / "src")
    # What no line names yet: a new package with a translation in a directory of its own, and a new lesson.
    (src / "tutor" / "newpkg" / "locale" / "ko" / "LC_MESSAGES").mkdir(parents=True)
    (src / "tutor" / "newpkg" / "__init__.py").write_text("")
    (src / "tutor" / "newpkg" / "locale" / "ko" / "LC_MESSAGES" / "argparse.po").write_text('msgid ""\nmsgstr ""\n')
    (src / "lessons" / "newlesson" / "steps").mkdir(parents=True)
    (src / "lessons" / "newlesson" / "checks").mkdir()
    (src / "lessons" / "newlesson" / "lesson.yaml").write_text("id: newlesson\n")
    (src / "lessons" / "newlesson" / "steps" / "1-first.md").write_text("# First\n")
    (src / "lessons" / "newlesson" / "checks" / "__init__.py").write_text("")
    names = build_wheel(src, tmp_path / "dist")

    lessons = available()
    assert {"lws", "scale", "gang"} <= set(lessons)
    missing = []
    for lesson in lessons:
        root = ROOT / "lessons" / lesson
        files = [root / "lesson.yaml", *root.glob("steps/*.md"), *root.glob("checks/*.py")]
        assert len(files) > 3, files
        missing += [installed_name(f) for f in files if installed_name(f) not in names]
    shipped = [*(ROOT / "tutor" / "ui").glob("*.tcss"), *(ROOT / "tutor" / "demo").glob("*.jsonl")]
    assert len(shipped) >= 3, shipped
    missing += [installed_name(f) for f in shipped if installed_name(f) not in names]
    # and every module and data file of the tutor and the lessons, whatever its directory
    for pattern in DATA:
        for top in ("tutor", "lessons"):
            missing += [installed_name(f) for f in (ROOT / top).rglob(pattern)
                        if "__pycache__" not in f.parts and installed_name(f) not in names]
    missing += [n for n in ("tutor/newpkg/__init__.py", "tutor/newpkg/locale/ko/LC_MESSAGES/argparse.po",
                            "tutor/lessons/newlesson/lesson.yaml", "tutor/lessons/newlesson/steps/1-first.md",
                            "tutor/lessons/newlesson/checks/__init__.py") if n not in names]
    assert not missing, missing
    # and nothing from beside them: the tests, the repo's tools
    assert not [n for n in names if n.split("/")[0] not in ("tutor", "lwstutor-0.1.0.dist-info")], sorted(names)[:20]
