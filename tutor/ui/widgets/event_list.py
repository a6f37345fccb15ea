"""The events pane: whole messages, wrapped (step 8 needs the full FailedScheduling text), on
Textual's Line API (text_blocks.TextBlocks): each event's wrapped lines are kept while it says
the same, and a frame renders only the lines in view."""

from __future__ import annotations

from rich.text import Text

from tutor.cluster.store import Store
from tutor.ui import render
from tutor.ui.incremental import LessonEvents, WaitingPods
from tutor.ui.widgets.text_blocks import TextBlocks


class EventList(TextBlocks):
    MIN_LINES_PER_BLOCK = 2  # an event's head line and its message

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._events = LessonEvents()  # the events shown, followed through the store's changes
        self._waiting = WaitingPods()

    def explanations_key(self, store: Store, namespace: str) -> tuple:
        """render.explanations_key, without a walk over the namespace's pods."""
        return self._waiting.key(store, namespace)

    def show(self, store: Store, namespace: str, denied: str = "", t: render.Translate = render._en,
             lang: str = "en") -> None:
        for _ in self.show_in_steps(store, namespace, denied, t, lang):
            pass

    def show_in_steps(self, store: Store, namespace: str, denied: str = "", t: render.Translate = render._en,
                      lang: str = "en"):
        """show, yielding after each event it had to wrap anew: after a burst all 60 are new, and
        the app gives the loop a turn between them (TutorApp.recheck)."""
        events = self._events.update(store, namespace)  # followed even while denied: no change is missed
        if denied:
            blocks: tuple[Text, ...] = (Text(denied),)
        else:
            blocks = render.event_blocks(store, namespace, t, lang, events)
        yield from self.set_blocks_in_steps(blocks)
