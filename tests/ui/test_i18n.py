"""Every string the app itself shows through self.text has its Korean."""

from __future__ import annotations

import re
from pathlib import Path

import tutor.ui.app as app_module
from tutor.ui.i18n import KO


def test_every_app_string_has_korean():
    source = Path(app_module.__file__).read_text()
    said = set(re.findall(r'self\.text\("((?:[^"\\]|\\.)+)"[,)]', source))
    assert "✓ Steps {ns} passed" in said and "↓ more" in said  # the pattern finds them
    assert sorted(s for s in said if s not in KO) == []
