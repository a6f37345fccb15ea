"""tests.bench.loaded: the command runs beside busy processes, its status comes back, and no busy
process outlives it."""

from __future__ import annotations

import subprocess
import sys

from tests.procs import alive


def test_the_command_s_status_and_time_come_back_and_the_hogs_are_gone():
    # the command names its siblings (the hogs), then fails with 3
    probe = ("import os, sys; from tests.procs import descendants; "
             "print(*sorted(descendants(os.getppid()) - {os.getpid()})); sys.exit(3)")
    r = subprocess.run([sys.executable, "-m", "tests.bench.loaded", "--hogs", "1", "--", sys.executable, "-c", probe],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 3, r.stderr
    assert "exit 3 after" in r.stderr and "with 1 hogs" in r.stderr
    hogs = [int(pid) for pid in r.stdout.split()]
    assert len(hogs) == 1, r.stdout
    assert not alive(hogs[0])  # ended by its PID when the command ended


def test_no_command_is_one_line():
    r = subprocess.run([sys.executable, "-m", "tests.bench.loaded", "--hogs", "0"], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 2 and "no command given" in r.stderr and "Traceback" not in r.stderr
