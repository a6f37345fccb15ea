"""Shared fixtures. The lab control plane fixture lives in tests/e2e/conftest.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.demo import walkthrough

DATA = Path(__file__).parent / "data"
RECORDINGS = DATA / "recordings"  # the wrong turns; the walkthrough ships with the package (the demo)
WALKTHROUGH = walkthrough()


def recording_path(name: str) -> Path:
    return WALKTHROUGH if name == "walkthrough" else RECORDINGS / f"{name}.jsonl"


@pytest.fixture(autouse=True)
def _isolated_state(tmp_path, monkeypatch):
    """Progress files go to a temp dir: tests never touch the developer's own state."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
