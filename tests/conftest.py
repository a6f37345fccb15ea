"""Shared fixtures. The lab control plane fixture lives in tests/e2e/conftest.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.demo import walkthrough

DATA = Path(__file__).parent / "data"
RECORDINGS = DATA / "recordings"  # the wrong turns; the walkthrough ships with the package (the demo)
WALKTHROUGH = walkthrough()


# The other lessons' recordings, each made on the lab for its lesson (the header names it).
LESSON_RECORDINGS = DATA / "lessons"


# A lesson's walkthrough ships with the package as its demo (tutor/demo): "lesson-gang" is that of gang.
GANG_WALKTHROUGH = walkthrough("gang")


def recording_path(name: str) -> Path:
    if name == "walkthrough":
        return WALKTHROUGH
    if name == "lesson-gang":
        return GANG_WALKTHROUGH
    return (LESSON_RECORDINGS if name.startswith("lesson-") else RECORDINGS) / f"{name}.jsonl"


@pytest.fixture(autouse=True)
def _isolated_state(tmp_path, monkeypatch):
    """Progress files go to a temp dir: tests never touch the developer's own state."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


# Tiers by folder, so `-m` can pick them (docs/testing.md: the fast path). tests/e2e marks its own.
_TIERS = {"tests/ui/": "ui", "tests/bench/": "bench"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        where = str(item.fspath).replace("\\", "/")
        for folder, marker in _TIERS.items():
            if f"/{folder}" in where:
                item.add_marker(getattr(pytest.mark, marker))
