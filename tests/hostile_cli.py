"""Shared by the hostile-inputs tests of the CLI (paths here, cluster failures in tests/e2e): a
sandbox of odd paths, a picture of it to prove nothing changed, and one run of the CLI judged
by the rules every command must keep (exit code, one line, no traceback, bounded time)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from tests import waits

TIME_LIMIT = waits.PROCESS  # a hang is what this catches: a loaded machine's bound, not a quiet one's


DEAD = "https://127.0.0.1:1"  # nothing listens on port 1: a refused connection, never a request sent


def dead_kubeconfig(path: Path) -> Path:
    """A kubeconfig whose only cluster refuses every connection."""
    path.write_text(json.dumps({"apiVersion": "v1", "kind": "Config", "current-context": "dead",
                                "clusters": [{"name": "dead", "cluster": {"server": DEAD}}],
                                "users": [{"name": "u", "user": {"token": "t"}}],
                                "contexts": [{"name": "dead", "context": {"cluster": "dead", "user": "u"}}]}))
    return path


def make_sandbox(root: Path) -> dict[str, str]:
    """The odd paths a learner (or a slip of the keyboard) can give, by name."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "a-dir").mkdir()
    (root / "a-dir" / "inside.txt").write_text("kept\n")
    os.mkfifo(root / "a-fifo")
    (root / "link-to-dir").symlink_to("a-dir")
    (root / "link-to-device").symlink_to("/dev/null")
    (root / "loop").symlink_to("loop")
    (root / "dangling").symlink_to("nowhere")
    (root / "notes.txt").write_text("my own notes, not the tutor's\n")
    return {
        "directory": str(root / "a-dir"),
        "fifo": str(root / "a-fifo"),
        "symlink to a directory": str(root / "link-to-dir"),
        "symlink to a device": str(root / "link-to-device"),
        "device": "/dev/null",
        "symlink loop": str(root / "loop"),
        "dangling symlink": str(root / "dangling"),
        "someone else's file": str(root / "notes.txt"),
        "missing parent": str(root / "no-such-dir" / "file"),
        "a file under /proc": "/proc/self/status",
        "a new file under /proc": "/proc/lwstutor-no-such-file",
    }


def picture(root: Path) -> dict[str, tuple]:
    """Every entry under root with its type, size and mtime (a directory: its type only, since
    a file of the tutor's own inside it changes its mtime)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = os.path.join(dirpath, name)
            st = os.lstat(p)
            kind = stat.S_IFMT(st.st_mode)
            out[os.path.relpath(p, root)] = (kind,) if stat.S_ISDIR(st.st_mode) else (kind, st.st_size, st.st_mtime_ns)
    return out


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    seconds: float


def lwstutor(*args: str, env: dict | None = None, cwd: Path | None = None) -> Run:
    t0 = time.monotonic()
    res = subprocess.run([sys.executable, "-m", "tutor", *args], capture_output=True, text=True,
                         timeout=TIME_LIMIT * 2, stdin=subprocess.DEVNULL, cwd=cwd,
                         env={**os.environ, "KUBECONFIG": "", **(env or {})})
    return Run(res.returncode, res.stdout, res.stderr, time.monotonic() - t0)


def assert_one_line_error(run: Run, *phrases: str, json_out: bool = False) -> str:
    """Exit 2, no traceback, in time; one line on stderr (or a JSON error on stdout) holding
    every phrase. Returns the message."""
    assert run.seconds < TIME_LIMIT, f"took {run.seconds:.1f}s"
    assert "Traceback" not in run.stderr + run.stdout, run.stderr
    assert run.code == 2, (run.code, run.stdout, run.stderr)
    if json_out:
        err = json.loads(run.stdout)["error"]
        assert set(err) >= {"kind", "message"}, err
        message = err["message"]
    else:
        lines = [ln for ln in run.stderr.splitlines() if ln.strip() and not ln.startswith("  ")]
        assert len(lines) == 1, run.stderr
        message = lines[0]
        assert message.startswith("lwstutor: "), message
    assert "\n" not in message
    for phrase in phrases:
        assert phrase in message, (phrase, message)
    return message
