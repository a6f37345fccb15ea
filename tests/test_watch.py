"""The answer-file watcher: file events, the polling fallback, and a workdir that appears later."""

from __future__ import annotations

import queue
import time

import pytest

from tests import waits
from tutor.workspace.files import Problem
from tutor.workspace.watch import FileWatcher


class Reads:
    """Collects a watcher's reads; waits until the newest read of a file matches."""

    def __init__(self):
        self.q: queue.SimpleQueue = queue.SimpleQueue()
        self.latest: dict = {}

    def put(self, item) -> None:
        self.q.put(item)

    def wait(self, name: str, pred, timeout: float = waits.MOMENT):
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            r = self.latest.get(name)
            if r is not None and pred(r):
                return r
            try:
                item = self.q.get(timeout=0.1)
            except queue.Empty:
                continue
            self.latest[item.name] = item
        raise waits.ran_out(f"a matching read of {name}", time.monotonic() - start, self.latest.get(name))


@pytest.mark.parametrize("poll", [False, True], ids=["events", "poll"])
def test_changes_are_seen(tmp_path, poll):
    q = Reads()
    w = FileWatcher(str(tmp_path), ["names.txt", "env.txt"], q.put, force_poll=poll, poll_interval=0.1).start()
    try:
        q.wait("names.txt", lambda r: r.problem is Problem.MISSING)
        (tmp_path / "names.txt").write_text("pod=llm-0 group=0 worker=0\n")
        # A poll may catch the file between its creation and its write (empty): wait for the text.
        q.wait("names.txt", lambda r: r.ok and r.text.startswith("pod=llm-0"))
        tmp = tmp_path / ".env.txt.swp"  # editors write a temp file and rename it
        tmp.write_text("LWS_GROUP_SIZE=2\n")
        tmp.rename(tmp_path / "env.txt")
        q.wait("env.txt", lambda r: r.ok and r.text == "LWS_GROUP_SIZE=2\n")
        (tmp_path / "names.txt").unlink()
        q.wait("names.txt", lambda r: r.problem is Problem.MISSING)
        assert w.mode == ("poll" if poll else "events")
    finally:
        w.stop()
        w.join(waits.MOMENT)


def test_workdir_created_after_start(tmp_path):
    q = Reads()
    workdir = tmp_path / "gsb-lws"
    w = FileWatcher(str(workdir), ["dns.txt"], q.put, poll_interval=0.1).start()
    try:
        q.wait("dns.txt", lambda r: r.problem is Problem.MISSING)
        workdir.mkdir()
        (workdir / "dns.txt").write_text("Address: 10.42.0.2\n")
        q.wait("dns.txt", lambda r: r.ok and r.text == "Address: 10.42.0.2\n")
    finally:
        w.stop()
        w.join(waits.MOMENT)
    assert not w._thread.is_alive()
