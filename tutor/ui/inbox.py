"""Where source threads put items for the UI thread.

Threads append to a queue and post one SourceReady message when the queue goes from empty to
non-empty; the UI drains everything in one go. A burst of 10,000 watch events thus costs one
message, not 10,000, and no widget is touched off the UI thread.

One SourceReady at most is in flight: the UI says when it has applied everything it drained
(`settled`), and only then may a thread post another. Textual handles the messages already
queued without giving the event loop a turn, so a second message posted while the UI works
through a burst in slices would make each turn one slice longer, and a third longer still.
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

    @property
    def waiting(self) -> bool:
        """Whether items were put that the UI has not taken yet."""
        return not self._q.empty()

    def drain(self) -> list:
        """Everything put so far. Threads post no message until `settled`."""
        items = []
        while True:
            try:
                items.append(self._q.get_nowait())
            except queue.Empty:
                return items

    def settled(self) -> None:
        """The UI has applied all it drained: the next put posts a message (this call does, if
        something was put meanwhile)."""
        with self._lock:
            if self._q.empty():
                self._signalled = False
                return
        self._notify()
