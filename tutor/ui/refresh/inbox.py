"""Where source threads put items for the UI thread.

Threads append to a queue and post one SourceReady message when the queue goes from empty to
non-empty; the UI drains everything in one go. A burst of 10,000 watch events thus costs one
message, not 10,000, and no widget is touched off the UI thread.

One SourceReady at most is in flight: the UI says when it has applied everything it drained
(`settled`), and only then may a thread post another. Textual handles the messages already
queued without giving the event loop a turn, so a second message posted while the UI works
through a burst in slices would make each turn one slice longer, and a third longer still.

At most ROOM items are put and not yet applied: a source thread that would put more waits until
the UI applies one (its watch's socket holds the rest meanwhile). Unbounded, a burst queued
every parsed object at once: at 1,000 pods, 10,000 events put from a thread held some 40 MB
above what the store keeps. The UI's own thread never waits (it is the one that applies), and
when nothing is applied for STALLED_AFTER (the app not started yet, or closing) puts stop
waiting until the UI applies again.
"""

from __future__ import annotations

import queue
import threading
from typing import Callable

ROOM = 500  # items put and not yet applied before a source thread waits
STALLED_AFTER = 1.0  # seconds a put waits for room before it stops waiting for the UI


class Inbox:
    def __init__(self, notify: Callable[[], None]):
        self._q: queue.SimpleQueue = queue.SimpleQueue()
        self._notify = notify
        self._lock = threading.Lock()
        self._signalled = False
        self._owner = threading.get_ident()  # the UI's thread: it applies, so it never waits
        self._room = threading.Condition(threading.Lock())
        self._unapplied = 0  # items put and not yet applied
        self._stalled = False  # a wait for room ran out: none waits until the UI applies again

    def put(self, item) -> None:
        with self._room:
            if self._unapplied >= ROOM and not self._stalled and threading.get_ident() != self._owner:
                if not self._room.wait_for(lambda: self._unapplied < ROOM, STALLED_AFTER):
                    self._stalled = True
            self._unapplied += 1
        self._q.put(item)
        with self._lock:
            if self._signalled:
                return
            self._signalled = True
        self._notify()

    def applied(self) -> None:
        """The UI applied one item it took from here: a thread waiting for room may put one."""
        with self._room:
            self._unapplied = max(0, self._unapplied - 1)
            self._stalled = False
            self._room.notify()

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
