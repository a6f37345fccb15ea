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
