"""Each module of the engine has a name no other has: a name that says what it holds, and an
import or a traceback that cannot be read as its twin (there were nine twins, and three recaps).
A lesson's checker modules are named by its step ids, which are the lesson's to choose."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import tutor

ROOT = Path(tutor.__file__).parent


def twins(root: Path) -> list[str]:
    names = Counter(p.name for p in root.rglob("*.py") if p.name != "__init__.py")
    return sorted(name for name, n in names.items() if n > 1)


def test_no_two_engine_modules_share_a_name():
    assert twins(ROOT) == []


def test_a_twin_is_found(tmp_path):
    for room in ("a", "b"):
        (tmp_path / room).mkdir()
        (tmp_path / room / "recap.py").write_text("")
    assert twins(tmp_path) == ["recap.py"]
