"""One verdict everywhere: the TUI's replay, at any speed, passes what `check --replay` passes
(a step that passed for a moment during the recording stays passed in both), on every recording."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests import waits
from tests.ui.harness import make_app
from tests.ui.settle import settled
from tests.verdict_lines import ALL


def check_passed(path, tmp_path) -> set[int]:
    env = {"XDG_STATE_HOME": str(tmp_path / "state"), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-m", "tutor", "check", "--replay", str(path), "--json", "--lang", "en"],
                         capture_output=True, text=True, env=env, timeout=waits.PROCESS)
    assert out.returncode in (0, 1, 3), out.stderr  # 3: nothing failed, something cannot be confirmed
    return {s["step"] for s in json.loads(out.stdout)["steps"] if s["status"] == "pass"}


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
async def test_the_tutor_at_speed_0_passes_what_check_replay_passes(path, tmp_path):
    app = make_app(path, speed=0, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        tui = set(app.session.progress.passed)
    assert tui == check_passed(path, tmp_path), path.stem


@pytest.mark.parametrize("name", ["group1-failed-after-step5", "orphan-without-llm"])
async def test_a_fast_replay_keeps_a_step_that_passed_for_a_moment(name, tmp_path):
    """Both once failed at --speed 0: the step passed between two refreshes and was never seen."""
    path = next(p for p in ALL if p.stem == name)
    app = make_app(path, speed=200, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        assert set(app.session.progress.passed) == check_passed(path, tmp_path)
