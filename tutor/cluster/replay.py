"""Replay source: feeds a recording through the same path as a live cluster, timed or instantly."""

from __future__ import annotations

import time
from typing import Any, Callable, Iterable

from tutor.background import BackgroundLoop
from tutor.cluster.source_events import Conn, SourceState
from tutor.cluster.recording import Recording, RecordingError

RESOURCE = "replay"


class ReplaySource(BackgroundLoop):
    """Emits the recording's items at `speed` times their recorded pace (0 = all at once).

    The items are parsed here, on the source's thread, not before the UI starts. `items` is
    what to emit instead of the recording's own items: an iterable (the demo passes them paced,
    as (when, item) pairs) or a function returning one, called on this thread. A recording found
    to be broken at this point calls `on_error` with its RecordingError (the line it names, in both languages) and emits
    nothing."""

    thread_name = "replay"

    def __init__(self, recording: Recording, emit: Callable[[Any], None], speed: float = 1.0,
                 items: Iterable[Any] | Callable[[], Iterable[Any]] | None = None,
                 on_error: Callable[[RecordingError], None] | None = None) -> None:
        super().__init__()
        self.recording = recording
        self.items = items
        self.emit = emit
        self.speed = speed
        self.on_error = on_error

    def run(self) -> None:
        try:
            self._run()
        except RecordingError as exc:
            if self.on_error is not None:
                self.on_error(exc)
            else:
                raise

    def _run(self) -> None:
        self.recording.items  # noqa: B018 - parse it all first: a bad line stops it before anything is shown
        items = self.items() if callable(self.items) else self.items
        if items is None:
            items = self.recording.items
        self.emit(SourceState(RESOURCE, Conn.OK, self.recording.path, 0.0))
        start = time.monotonic()
        for entry in items:
            # An item, emitted at its own time, or (when, item): the demo's pauses move only when
            # an item is emitted, never the time it says it happened at.
            due, item = entry if isinstance(entry, tuple) else (entry.t, entry)
            if self.speed > 0:
                delay = due / self.speed - (time.monotonic() - start)
                if delay > 0 and self._stop.wait(delay):
                    return
            elif self._stop.is_set():
                return
            self.emit(item)
        self.emit(SourceState(RESOURCE, Conn.ENDED, self.recording.path, self.recording.duration))
