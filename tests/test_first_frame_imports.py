"""What the tutor's first frame does not wait for, checked in a fresh process as `lwstutor
--replay` starts (tests/bench/firstframe.py), by the modules it holds when the first frame is up.
Each is imported later, by what uses it (see UNUSED_BY_THE_FIRST_FRAME)."""

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


# A module (or a package, with everything in it) the first frame has no use for: what does without
# it, or who imports it.
UNUSED_BY_THE_FIRST_FRAME = {
    "markdown_it": "the step files' headings are found by a line scanner (tutor/lesson/headings.py)",
    "zipfile": "the tutor's files are found beside its modules, as installed, not by importlib.resources",
    "importlib.resources": "likewise",
    "importlib.readers": "likewise",
    "tutor.cluster.story": "the timeline's, imported when it is first opened",
    "tutor.demo.pace": "the demo's (tutor/commands/demo.py)",
    "tutor.classroom": "a class's, imported with --join",
    "tutor.cluster.placement": "the checkers' and `why`'s; a pane reads a node's facts from tutor.cluster.objects",
}


def unused_held(modules: set[str]) -> set[str]:
    return {m for m in modules for unused in UNUSED_BY_THE_FIRST_FRAME if m == unused or m.startswith(unused + ".")}


def test_the_first_frame_imports_nothing_it_has_no_use_for(tmp_path):
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"), "KUBECONFIG": "", "PYTHONPATH": str(ROOT)}
    res = subprocess.run([sys.executable, "-c", NOTE_MODULES, "--replay", str(WALKTHROUGH), "--speed", "0"],
                         capture_output=True, text=True, timeout=300, env=env, cwd=ROOT, stdin=subprocess.DEVNULL)
    assert res.returncode == 0, res.stderr[-3000:]
    modules = set(res.stdout.strip().splitlines()[-3].split())
    assert "tutor.ui.app" in modules and "tutor.lesson.loader" in modules  # the first frame was the tutor's
    assert not unused_held(modules)
    # no checker runs, and no pod is named, before the sources start
    assert not {m for m in modules if m.startswith("tutor.lessons.") and ".checks" in m}
