"""The words' home, tutor/i18n: a floor of its own, below everything that says something. It
imports neither textual (the keys' words, which are Textual bindings, stay in tutor/ui/bindings/key_words.py)
nor any other part of the tutor."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import tutor.i18n

ROOT = Path(__file__).resolve().parents[1]


def test_the_words_import_nothing_of_the_tutor_and_no_textual():
    modules = [f"tutor.i18n.{m.name}" for m in pkgutil.iter_modules(tutor.i18n.__path__)]
    assert len(modules) >= 6, modules
    code = f"import sys\nfor m in {modules!r}:\n    __import__(m)\nprint(' '.join(sorted(sys.modules)))"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert res.returncode == 0, res.stderr
    loaded = res.stdout.split()
    assert not [m for m in loaded if m.split(".")[0] == "textual"]
    assert [m for m in loaded if m.startswith("tutor") and m != "tutor" and not m.startswith("tutor.i18n")] == []
