"""Replay source: feeds a recording through the same path as a live cluster, timed or instantly."""

from __future__ import annotations

import time
from typing import Callable, Iterable

from tutor.background import BackgroundLoop
from tutor.cluster.events import Conn, SourceState
from tutor.cluster.recording import Recording

RESOURCE = "replay"


class ReplaySource(BackgroundLoop):
    """Emits the recording's items at `speed` times their recorded pace (0 = all at once)."""

    thread_name = "replay"

    def __init__(self, recording: Recording, emit: Callable, speed: float = 1.0, items: Iterable | None = None):
        super().__init__()
        self.recording = recording
        self.items = recording.items if items is None else items  # the demo passes re-timed ones
        self.emit = emit
        self.speed = speed

    def run(self) -> None:
        self.emit(SourceState(RESOURCE, Conn.OK, self.recording.path, 0.0))
        start = time.monotonic()
        for item in self.items:
            if self.speed > 0:
                delay = item.t / self.speed - (time.monotonic() - start)
                if delay > 0 and self._stop.wait(delay):
                    return
            elif self._stop.is_set():
                return
            self.emit(item)
        self.emit(SourceState(RESOURCE, Conn.ENDED, self.recording.path, self.recording.duration))
