"""The lesson's checkers are imported soon after the first frame, with no pod in the store. On the
lab the namespace is empty when the tutor starts: imported on demand, every checker came with the
learner's first pod, in the frame that showed it (the lab reaction's slowest changes). Checked in
a fresh process, whose modules no other test has imported."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests import waits

ROOT = Path(__file__).resolve().parents[1]

EMPTY_CLUSTER = """
import asyncio, sys, tempfile, time
from pathlib import Path
from tutor.lesson.loader import load
from tutor.progress import Progress
from tutor.session import Session
from tutor.ui.app import TutorApp

async def main(bound):
    tmp = Path(tempfile.mkdtemp(dir=sys.argv[2]))
    session = Session(load(), str(tmp), "en", Progress.load(tmp / "progress.json", 8))
    app = TutorApp(session, start_sources=lambda app: None)  # no source: nothing ever arrives
    checkers = [step.checker for step in session.lesson.steps]
    async with app.run_test(headless=True, size=(80, 24)):
        deadline = time.monotonic() + bound
        while time.monotonic() < deadline and not all(c in sys.modules for c in checkers):
            await asyncio.sleep(0.05)
        print("store", session.store.version)
        print("cold", " ".join(c for c in checkers if c not in sys.modules) or "-")

asyncio.run(main(float(sys.argv[1])))
"""


def test_the_checkers_are_imported_before_the_first_pod(tmp_path):
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"), "KUBECONFIG": "", "PYTHONPATH": str(ROOT)}
    res = subprocess.run([sys.executable, "-c", EMPTY_CLUSTER, str(waits.MOMENT), str(tmp_path)],
                         capture_output=True, text=True, timeout=waits.PROCESS + waits.MOMENT, env=env, cwd=ROOT,
                         stdin=subprocess.DEVNULL)
    assert res.returncode == 0, res.stderr[-3000:]
    lines = dict(line.split(" ", 1) for line in res.stdout.strip().splitlines()[-2:])
    assert lines["store"] == "0"  # no item came: the imports were not a pod's
    assert lines["cold"] == "-", f"waited {waits.MOMENT:.0f} s for every checker to be imported; still cold: {lines['cold']}"
