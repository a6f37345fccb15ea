"""Shared fixtures. The lab control plane fixture lives in tests/e2e/conftest.py."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
RECORDINGS = DATA / "recordings"


@pytest.fixture(autouse=True)
def _isolated_state(tmp_path, monkeypatch):
    """Progress files go to a temp dir: tests never touch the developer's own state."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
