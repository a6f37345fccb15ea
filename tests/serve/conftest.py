"""The served tutor and a real Chromium for the browser tests.

Chromium is Debian's (tests/run.sh installs it when run as root); Playwright drives it and never
downloads a browser. Without it the tests skip and say why, and under CI=true they fail.
"""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests import waits
from tests.procs import alive, descendants
from tests.serve.browser import Tab, launched, need_chromium

REPO = Path(__file__).resolve().parents[2]
# A short recording of the lab from the real control plane: step 1 passes, step 2 waits for its file.
RECORDING = REPO / "tests" / "data" / "recordings" / "wrong-annotation.jsonl"


# Module scope: Playwright's sync API keeps an event loop running while it is open, and the
# asyncio tests that a worker runs next (Pilot's, this directory's) need none running.
@pytest.fixture(scope="module")
def chromium():
    need_chromium()
    with launched() as browser:
        yield browser


@pytest.fixture
def tabs(chromium):
    """Opens tabs, each in its own browser context (its own cookies), closed at the end."""
    contexts = []

    def open_tab(context=None) -> Tab:
        if context is None:
            context = chromium.new_context(viewport={"width": 1280, "height": 800})
            contexts.append(context)
        return Tab(context.new_page())

    yield open_tab
    for c in contexts:
        c.close()


class Served:
    """`lwstutor serve` as the learner starts it, in a process of its own."""

    def __init__(self, tmp: Path, *extra: str, lang: str = "en", lwstutor: list[str] | None = None,
                 cwd: Path = REPO):
        """`lwstutor` is the command that runs the CLI (this checkout's by default), `cwd` where."""
        self.state = tmp / "progress.json"
        env = {**os.environ, "XDG_STATE_HOME": str(tmp / "state")}
        self.proc = subprocess.Popen(
            [*(lwstutor or [sys.executable, "-m", "tutor"]), "serve", "--port", "0", "--lang", lang,
             "--replay", str(RECORDING), "--state-file", str(self.state), *extra],
            cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.said = self._read_until(r"\?token=")
        self.url = re.search(r"(https?://\S+?)/?\?token=", self.said).group(1)
        self.token = re.search(r"\?token=(\S+)", self.said).group(1)
        self.port = int(re.search(r":(\d+)", self.url.split("//", 1)[1]).group(1)) if "//127.0.0.1:" in self.url \
            else None
        self.seen: set[int] = set()

    def _read_until(self, pattern: str, timeout: float = waits.PROCESS) -> str:
        # The pipe's own fd: a text-mode readline would buffer lines select() no longer sees.
        said, deadline, fd = "", time.monotonic() + timeout, self.proc.stdout.fileno()
        while not re.search(pattern + r"\S*\n", said):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"lwstutor serve did not start: {said}{self.proc.stderr.read()}")
            if select.select([fd], [], [], 0.5)[0]:
                said += os.read(fd, 65536).decode()
        return said

    def tutors(self) -> set[int]:
        """The tutor processes running now (each tab's, and the shell that started it)."""
        now = descendants(self.proc.pid)
        self.seen |= now
        return now

    def stop(self) -> str:
        self.tutors()
        self.proc.send_signal(signal.SIGTERM)
        out, err = self.proc.communicate(timeout=waits.PROCESS)
        return out + err


@pytest.fixture
def serve(tmp_path):
    started: list[Served] = []

    def start(*extra: str, **kw) -> Served:
        s = Served(tmp_path, *extra, **kw)
        started.append(s)
        return s

    yield start
    for s in started:
        if s.proc.poll() is None:
            s.stop()
        deadline = time.monotonic() + waits.MOMENT
        while any(alive(p) for p in s.seen) and time.monotonic() < deadline:
            time.sleep(0.2)
        left = [p for p in s.seen if alive(p)]
        for p in left:  # ours, by pid: a failed test must not leave tutors running
            os.kill(p, signal.SIGKILL)
        assert not left, f"tutor processes outlived the server: {left}"


@pytest.fixture
def proxy():
    procs = []

    def start(upstream: str, prefix: str, keep: bool) -> int:
        p = subprocess.Popen([sys.executable, "-m", "tests.serve.proxy", "--upstream", upstream, "--prefix", prefix,
                              *(["--keep-prefix"] if keep else [])],
                             cwd=REPO, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
        procs.append(p)
        line = p.stdout.readline()
        return int(line.split()[-1])

    yield start
    for p in procs:
        p.terminate()
        p.wait(timeout=waits.MOMENT)
