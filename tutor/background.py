"""A blocking loop on a daemon thread, stopped through an Event (file watcher, replay)."""

from __future__ import annotations

import threading


class BackgroundLoop:
    thread_name = "loop"

    def __init__(self) -> None:
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def run(self) -> None:  # pragma: no cover - each subclass has its own
        raise NotImplementedError

    def start(self):
        self._thread = threading.Thread(target=self.run, name=self.thread_name, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()

    def join(self, timeout: float | None = None) -> None:
        if self._thread:
            self._thread.join(timeout)
