"""The inbox holds at most ROOM items put and not yet applied (tutor/ui/refresh/inbox.py): a source
thread that would put more waits for the UI to apply one, so a burst is never queued whole; the
UI's own thread never waits, and a UI that applies nothing stops holding the sources back."""

from __future__ import annotations

import threading
import time

from tutor.ui.refresh import inbox as inbox_module
from tutor.ui.refresh.inbox import ROOM, Inbox


def test_a_source_thread_puts_no_further_ahead_than_room_of_what_the_ui_applied():
    inbox = Inbox(lambda: None)
    total = ROOM * 6
    most_ahead = 0
    applied = 0

    def source():
        for i in range(total):
            inbox.put(i)

    th = threading.Thread(target=source)
    th.start()
    deadline = time.monotonic() + 60
    while applied < total:
        assert time.monotonic() < deadline, f"the source put {applied} of {total} items in 60 s"
        items = inbox.drain()
        most_ahead = max(most_ahead, len(items))
        for _ in items:  # the UI applies them, slowly
            time.sleep(0.0001)
            inbox.applied()
            applied += 1
        time.sleep(0.005)
    th.join(10)
    assert not th.is_alive()
    assert most_ahead <= ROOM, most_ahead  # never more than ROOM items at once
    assert most_ahead >= ROOM // 2, most_ahead  # and the source did fill the room: it was held back


def test_the_ui_threads_own_puts_never_wait():
    inbox = Inbox(lambda: None)
    started = time.monotonic()
    for i in range(ROOM * 3):
        inbox.put(i)
    assert time.monotonic() - started < inbox_module.STALLED_AFTER / 2
    assert len(inbox.drain()) == ROOM * 3


def test_a_ui_that_applies_nothing_holds_a_source_back_once_then_not_until_it_applies(monkeypatch):
    monkeypatch.setattr(inbox_module, "STALLED_AFTER", 0.3)
    made = threading.Event()
    box: list = []

    def make():  # the inbox is made by the UI's thread; this thread is not it
        box.append(Inbox(lambda: None))
        made.set()

    maker = threading.Thread(target=make)
    maker.start()
    made.wait(10)
    inbox = box[0]
    started = time.monotonic()
    for i in range(ROOM * 3):  # from this thread, a source's: nobody applies
        inbox.put(i)
    took = time.monotonic() - started
    assert 0.3 <= took < 3, took  # one wait ran out, the rest did not wait
    inbox.applied()  # the UI applies again: a put beyond the room waits again
    started = time.monotonic()
    inbox.put("one more")
    assert time.monotonic() - started >= 0.3
