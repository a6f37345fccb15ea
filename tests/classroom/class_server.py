"""`lwstutor class` as a real process on 127.0.0.1 with its SQLite file in a test's tmp dir, and
plain HTTP to it (urllib: no client of the tutor's own between the test and the server)."""

from __future__ import annotations

import json
import os
import re
import queue
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from tests import waits
from tests.ports import free_port


class ClassServer:
    def __init__(self, db: Path, port: int | None = None):
        self.db, self.port = db, port or free_port()
        self.proc: subprocess.Popen | None = None
        self.join_url = self.instructor_url = self.state_url = ""

    def start(self) -> "ClassServer":
        env = {**os.environ, "XDG_STATE_HOME": str(self.db.parent / "state")}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tutor", "class", "--port", str(self.port), "--db", str(self.db), "--lang", "en"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        lines: queue.Queue[str] = queue.Queue()  # read in a thread: select() on a text pipe misses buffered lines
        threading.Thread(target=lambda: [lines.put(line) for line in self.proc.stdout], daemon=True).start()
        out, deadline = "", time.monotonic() + waits.PROCESS
        while "/i/" not in out:
            try:
                out += lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                running = self.proc.poll() is None
                self.kill()  # a server that did not come up is not left behind
                err = "(it was still running)" if running else self.proc.stderr.read()
                raise AssertionError(f"the class server did not start: {out!r} {err}") from None
        self.said = lines
        self.join_url = re.search(r"--join (\S+)", out).group(1)
        self.instructor_url = re.search(r"(http://\S+/i/\S+)", out).group(1)
        self.state_url = f"{self.instructor_url}/state"
        return self

    def kill(self) -> None:
        """SIGKILL: no clean stop, so what survives is what was on disk."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(timeout=waits.PROCESS)

    def stop(self) -> int:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=waits.PROCESS)

    # --- HTTP -------------------------------------------------------------------------------------
    def post(self, what: str, body: bytes | dict, key: str = "", url: str = "") -> tuple[int, dict]:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})}
        req = urllib.request.Request(f"{url or self.join_url}/{what}", data=data, headers=headers, method="POST")
        return _answer(req)

    def state(self, url: str = "") -> tuple[int, dict]:
        return _answer(urllib.request.Request(url or self.state_url))

    def learners(self) -> dict[str, dict]:
        code, body = self.state()
        assert code == 200, body
        return {learner["name"]: learner for learner in body["learners"]}

    def join(self, name: str, lesson: str = "lws", key: str = "") -> tuple[str, str]:
        code, body = self.post("join", {"name": name, "lesson": lesson, **({"key": key} if key else {})})
        assert code == 200, body
        return body["learner"], body["key"]


def _answer(req: urllib.request.Request) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(req, timeout=waits.PROCESS) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())
