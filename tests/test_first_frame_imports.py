"""What the tutor's first frame does not wait for: markdown-it (the step files' headings are found
by a line scanner, tutor/lesson/headings.py) and the current step's checker (no checker runs, and
no pod is named, before the sources start). Checked in a fresh process, as `lwstutor --replay`
starts (tests/bench/firstframe.py), by the modules it holds when the first frame is up."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import WALKTHROUGH

ROOT = Path(__file__).resolve().parents[1]

NOTE_MODULES = """
import sys
import tests.bench.firstframe as firstframe

ready = firstframe.ready

def noted():
    print(" ".join(sorted(sys.modules)))
    ready()

firstframe.ready = noted
sys.argv = ["firstframe", *sys.argv[1:]]
firstframe.main()
"""


def test_the_first_frame_imports_neither_markdown_it_nor_a_checker(tmp_path):
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"), "KUBECONFIG": "", "PYTHONPATH": str(ROOT)}
    res = subprocess.run([sys.executable, "-c", NOTE_MODULES, "--replay", str(WALKTHROUGH), "--speed", "0"],
                         capture_output=True, text=True, timeout=300, env=env, cwd=ROOT, stdin=subprocess.DEVNULL)
    assert res.returncode == 0, res.stderr[-3000:]
    modules = set(res.stdout.strip().splitlines()[-3].split())
    assert "tutor.ui.app" in modules and "tutor.lesson.loader" in modules  # the first frame was the tutor's
    assert not {m for m in modules if m.split(".")[0] == "markdown_it"}
    assert not {m for m in modules if m.startswith("tutor.lessons.") and ".checks" in m}
