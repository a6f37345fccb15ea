"""Every string the app itself shows through self.text has its Korean."""

from __future__ import annotations

import re
from pathlib import Path

import tutor.ui.app as app_module
import tutor.ui.confirmed as confirmed_module
from tutor.ui.i18n import KO


def test_every_app_string_has_korean():
    source = "".join(Path(m.__file__).read_text() for m in (app_module, confirmed_module))
    # a string split over lines is one string: "a " "b" -> "a b"
    source = re.sub(r'"\s*\n\s*"', "", source)
    said = set(re.findall(r'self\.text\("((?:[^"\\]|\\.)+)"[,)]', source))
    assert "✓ Steps {ns} passed" in said and "↓ more" in said  # the pattern finds them
    assert "Its solution stays shown: it was seen." in said and "Solution" in said
    assert sorted(s for s in said if s not in KO) == []


def test_every_string_of_the_predict_screen_has_korean():
    """tutor/ui/predict.py says its words through app.text (read from its syntax tree: its long
    strings are written in pieces)."""
    import ast

    import tutor.ui.predict as predict

    tree = ast.parse(Path(predict.__file__).read_text())
    said = {node.args[0].value for node in ast.walk(tree) if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute) and node.func.attr == "text" and node.args
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)}
    assert len(said) >= 6 and "Press `w` for the next question." in said
    assert sorted(s for s in said if s not in KO) == []
