"""Where source threads put items for the UI thread.

Threads append to a queue and post one SourceReady message when the queue goes from empty to
non-empty; the UI drains everything in one go. A burst of 10,000 watch events thus costs one
message, not 10,000, and no widget is touched off the UI thread.
"""

from __future__ import annotations

import queue
import threading
from typing import Callable


class Inbox:
    def __init__(self, notify: Callable[[], None]):
        self._q: queue.SimpleQueue = queue.SimpleQueue()
        self._notify = notify
        self._lock = threading.Lock()
        self._signalled = False

    def put(self, item) -> None:
        self._q.put(item)
        with self._lock:
            if self._signalled:
                return
            self._signalled = True
        self._notify()

    def drain(self) -> list:
        with self._lock:
            self._signalled = False
        items = []
        while True:
            try:
                items.append(self._q.get_nowait())
            except queue.Empty:
                return items
