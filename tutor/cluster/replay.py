"""Replay source: feeds a recording through the same path as a live cluster, timed or instantly."""

from __future__ import annotations

import threading
import time
from typing import Callable

from tutor.cluster.events import Conn, SourceState
from tutor.cluster.recording import Recording

RESOURCE = "replay"


class ReplaySource:
    """Emits the recording's items at `speed` times their recorded pace (0 = all at once)."""

    def __init__(self, recording: Recording, emit: Callable, speed: float = 1.0):
        self.recording = recording
        self.emit = emit
        self.speed = speed
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> "ReplaySource":
        self._thread = threading.Thread(target=self.run, name="replay", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()

    def join(self, timeout: float | None = None) -> None:
        if self._thread:
            self._thread.join(timeout)

    def run(self) -> None:
        self.emit(SourceState(RESOURCE, Conn.OK, self.recording.path, 0.0))
        start = time.monotonic()
        for item in self.recording.items:
            if self.speed > 0:
                delay = item.t / self.speed - (time.monotonic() - start)
                if delay > 0 and self._stop.wait(delay):
                    return
            elif self._stop.is_set():
                return
            self.emit(item)
        self.emit(SourceState(RESOURCE, Conn.ENDED, self.recording.path, self.recording.duration))
