"""The offline install a lab author does for a VM image (README, "In a lab VM, offline"):
a wheelhouse of lwstutor and its dependencies built where PyPI is reachable, then installed into a
fresh venv with `pip install --no-index --find-links`, then the installed `lwstutor demo` run in
a terminal (a pty), read until it has drawn the lab to its last step, and quit with `q`.

Building the wheelhouse needs PyPI (CI has it). With CI=true this test never skips; elsewhere,
a machine that cannot reach PyPI skips it. Everything is built in a temp dir, nothing in the repo.
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from tests import waits

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("pyproject.toml", "setup.py", "README.md", "tutor", "lessons")  # what the wheel is built from
ANSI = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[PX^_][^\x1b]*\x1b\\|.)")

pytestmark = pytest.mark.install


def pypi_reachable() -> bool:
    try:
        socket.create_connection(("pypi.org", 443), timeout=5).close()
        return True
    except OSError:
        return False


def sh(*argv, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    res = subprocess.run([str(a) for a in argv], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                         stdin=subprocess.DEVNULL)
    assert res.returncode == 0, f"{' '.join(map(str, argv))}\n{res.stdout[-2000:]}\n{res.stderr[-2000:]}"
    return res


def copy_sources(src: Path) -> Path:
    """A copy of what the wheel is built from, so an in-tree build leaves nothing in the repo."""
    src.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(ROOT / name, src / name)
    return src


def test_offline_wheelhouse_install_runs_the_demo(tmp_path):
    if os.environ.get("CI") != "true" and not pypi_reachable():
        pytest.skip("PyPI is not reachable: the wheelhouse cannot be built here")
    src, wheels, venv = copy_sources(tmp_path / "src"), tmp_path / "wheelhouse", tmp_path / "venv"

    # Where PyPI is reachable: lwstutor's wheel and a wheel of every dependency.
    sh(sys.executable, "-m", "pip", "wheel", "-q", "--wheel-dir", wheels, src, cwd=tmp_path)
    assert any(wheels.glob("lwstutor-*.whl")) and any(wheels.glob("textual-*.whl"))

    # In the VM: a fresh venv, and no index at all.
    sh(sys.executable, "-m", "venv", venv, cwd=tmp_path)
    sh(venv / "bin/python", "-m", "pip", "install", "-q", "--no-index", "--find-links", wheels, "lwstutor",
       cwd=tmp_path)
    lwstutor = venv / "bin/lwstutor"
    where = sh(venv / "bin/python", "-c", "import tutor.demo as d; print(d.__file__); print(d.walkthrough())",
               cwd=tmp_path).stdout.split()
    assert all(p.startswith(str(venv)) for p in where), where  # the installed copy, not the repo's

    # The shipped walkthrough, checked by the installed package: every step passes.
    res = sh(lwstutor, "check", "--json", "--replay", where[1], cwd=tmp_path)
    assert [s["status"] for s in json.loads(res.stdout)["steps"]] == ["pass"] * 8

    # The installed demo in a 100x30 terminal: its first frame, then the lab played to step 8, then q.
    # the walkthrough's three minutes at speed 20 and its pauses are paced by the clock, about
    # 12 s whatever the load; starting, replaying and drawing are not
    seen, code = run_in_pty([str(lwstutor), "demo", "--speed", "20", "--pause", "0.2", "--lang", "en"], tmp_path,
                            until=lambda text: "8/8" in text, timeout=12 + waits.REPLAY)
    # The header's count in the first frame: at --speed 20 the replay may already have passed steps
    # by then, and steps can pass in one refresh, so which counts show varies; 8/8 ends the run.
    first = seen[:seen.find("LeaderWorkerSet") + 1]
    assert "lwstutor" in first and re.search(r"\b[0-8]/8\b", first), seen[:2000]
    assert "8/8" in seen, f"waited {12 + waits.REPLAY:.0f} s for the demo's 8/8; the last seen: {seen[-2000:]}"
    assert code == 0


def run_in_pty(argv: list[str], cwd: Path, until, timeout: float, cols: int = 100, rows: int = 30):
    """Runs argv on a pty of cols x rows, reads what it draws (escape sequences removed) until
    until(text) holds, then presses q and waits for the exit. Returns (text, exit code)."""
    env = {**os.environ, "TERM": "xterm-256color", "LANG": "C.UTF-8"}
    env.pop("TEXTUAL", None)
    pid, fd = pty.fork()
    if pid == 0:  # the child: the pty is its terminal; give it its size before the app asks
        try:
            os.chdir(cwd)
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    raw, pressed, deadline = b"", False, time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:  # EIO: the child closed the terminal
                    break
                if not chunk:
                    break
                raw += chunk
            if not pressed and until(ANSI.sub("", raw.decode("utf-8", "replace"))):
                os.write(fd, b"q")
                pressed = True
        code = None
        ends = time.monotonic() + waits.MOMENT
        while time.monotonic() < ends:  # the terminal is closed; the process ends right after
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                code = os.waitstatus_to_exitcode(status)
                break
            time.sleep(0.1)
        else:
            os.kill(pid, signal.SIGKILL)  # it did not end: the caller's assertions say so
            os.waitpid(pid, 0)
    finally:
        os.close(fd)
    return ANSI.sub("", raw.decode("utf-8", "replace")), code
