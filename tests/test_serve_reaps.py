"""The server's loop closes only after its tutors' processes are reaped: textual-serve never
waits for a tab's process, and one still ending as `serve` stopped was reaped into a closed loop,
which printed a traceback as the server's last words (seen in tests/serve/test_start_failure.py).
Each case runs a loop in a fresh interpreter, as `serve` does, and reads what it printed."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests import waits

# A child, its output piped as textual-serve pipes a tab's tutor, that outlives the coroutine that
# started it (as a tab's tutor may outlive its websocket).
PROGRAM = """
import asyncio, gc, sys, time
from tutor.serve.server import children_reaped

async def main(wait):
    await asyncio.create_subprocess_exec(sys.executable, "-c", "import time; time.sleep(0.3)",
                                         stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    if wait:
        await children_reaped(10)

asyncio.run(main(sys.argv[1] == "wait"))
time.sleep(0.6)  # the server goes on a moment (its last words), the child ends meanwhile
gc.collect()
"""


def _run(mode: str) -> str:
    done = subprocess.run([sys.executable, "-c", PROGRAM, mode], capture_output=True, text=True,
                          timeout=waits.PROCESS)
    assert done.returncode == 0, done.stderr
    return done.stderr


def test_a_child_still_running_when_the_loop_ends_is_waited_for():
    assert "Event loop is closed" not in _run("wait")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the children are read from /proc")
def test_without_the_wait_the_loop_closes_under_the_child():
    """What the wait prevents, shown: the same loop without it ends with the traceback."""
    said = _run("no-wait")
    assert "Event loop is closed" in said, said
