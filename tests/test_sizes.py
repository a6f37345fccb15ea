"""The house stays one a newcomer can read: no class over 300 lines, and the app's module under
400 (the app keeps what is global; the lesson's screen, its page and the driver hold the rest)."""

from __future__ import annotations

import ast
from pathlib import Path

import tutor

ROOT = Path(tutor.__file__).parent
CLASS_LINES = 300
APP_LINES = 400


def classes(path: Path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef):
            yield node.name, node.end_lineno - node.lineno + 1


def test_no_class_is_over_300_lines():
    big = [f"{p.relative_to(ROOT)}:{name} {size}" for p in sorted(ROOT.rglob("*.py"))
           for name, size in classes(p) if size > CLASS_LINES]
    assert not big, big


def test_the_app_module_is_under_400_lines():
    lines = len((ROOT / "ui" / "app.py").read_text(encoding="utf-8").splitlines())
    assert lines < APP_LINES, lines


def test_a_class_too_long_is_found(tmp_path):
    long = tmp_path / "long.py"
    long.write_text("class Long:\n" + "    x = 1\n" * CLASS_LINES)
    assert list(classes(long)) == [("Long", CLASS_LINES + 1)]
