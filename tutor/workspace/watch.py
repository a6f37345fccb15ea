"""The answer files under the workdir: a snapshot, and a watcher that keeps it current.

The watcher runs on its own thread and only reads. It uses file events (watchfiles) and falls
back to polling when events are unavailable (a workdir that does not exist yet, NFS, WSL's /mnt)
or when asked to with --poll.
"""

from __future__ import annotations

import os
from typing import Callable, Iterable

from tutor.background import BackgroundLoop
from tutor.workspace.files import FileRead, Problem, read_answer

POLL_INTERVAL = 1.0


class Workspace:
    """Name -> FileRead for the answer files. Applied on one thread only."""

    def __init__(self, workdir: str, reads: Iterable[FileRead] = ()):
        self.workdir = workdir
        self._files: dict[str, FileRead] = {}
        self.version = 0
        self.file_version: dict[str, int] = {}  # name -> `version` when that file last changed
        for r in reads:
            self.update(r)

    def get(self, name: str) -> FileRead:
        return self._files.get(name) or FileRead(name, problem=Problem.MISSING)

    def update(self, read: FileRead) -> bool:
        if self._files.get(read.name) == read:
            return False
        self._files[read.name] = read
        self.version += 1
        self.file_version[read.name] = self.version
        return True

    def path(self, name: str) -> str:
        return os.path.join(self.workdir, name)


def _fingerprint(path: str) -> tuple | None:
    try:
        st = os.stat(path)
    except OSError as exc:
        return ("error", exc.errno)
    return (st.st_ino, st.st_mode, st.st_size, st.st_mtime_ns)


class FileWatcher(BackgroundLoop):
    """Reads every answer file once, then again whenever it changes, and calls emit(FileRead)."""

    thread_name = "answer-files"

    def __init__(self, workdir: str, names: Iterable[str], emit: Callable[[FileRead], None],
                 force_poll: bool = False, poll_interval: float = POLL_INTERVAL):
        super().__init__()
        self.workdir = workdir
        self.names = sorted(set(names))
        self.emit = emit
        self.force_poll = force_poll
        self.poll_interval = poll_interval
        self.mode = "poll" if force_poll else "events"
        self._last: dict[str, FileRead] = {}

    def refresh(self, names: Iterable[str] | None = None) -> None:
        for name in names if names is not None else self.names:
            read = read_answer(os.path.join(self.workdir, name), name)
            if self._last.get(name) != read:
                self._last[name] = read
                self.emit(read)

    def run(self) -> None:
        self.refresh()
        while not self._stop.is_set():
            if not self.force_poll and os.path.isdir(self.workdir):
                self.mode = "events"
                if self._watch_events():
                    continue
            self.mode = "poll"
            self._poll_until_events_possible()

    def _watch_events(self) -> bool:
        """Follows file events until stopped; False if events cannot be used here."""
        try:
            import watchfiles
        except ImportError:  # pragma: no cover - a declared dependency
            return False
        wanted = set(self.names)
        first = True
        try:
            for changes in watchfiles.watch(self.workdir, stop_event=self._stop, debounce=50,
                                            step=25, recursive=False, raise_interrupt=False,
                                            yield_on_timeout=True, rust_timeout=1000):
                if not os.path.isdir(self.workdir):
                    return True  # the workdir went away: poll until it is back
                hit = {os.path.basename(p) for _, p in changes} & wanted
                if first:
                    # The watch is set up lazily: re-read everything once it surely is, so a
                    # write between the first read and the watch's start is not lost.
                    first = False
                    self.refresh()
                elif hit:
                    self.refresh(hit)
        except (OSError, RuntimeError):
            return False
        return True

    def _poll_until_events_possible(self) -> None:
        prints: dict[str, tuple | None] = {}
        while not self._stop.wait(self.poll_interval if prints else 0):
            new = {n: _fingerprint(os.path.join(self.workdir, n)) for n in self.names}
            changed = [n for n in self.names if new[n] != prints.get(n)]
            prints = new
            if changed:
                self.refresh(changed)
            if not self.force_poll and os.path.isdir(self.workdir):
                return

