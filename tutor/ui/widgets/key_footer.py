"""The tutor's footer: Textual's compact footer that says when its width changed.

The keys it shows are fitted to its width (tutor/ui/footer_fit.py). That width is the screen's
until the keys panel (the palette's "Keys") splits a third of the screen off at the right, under
which the footer shrinks: fitted to the screen, q and ? were cut off there."""

from __future__ import annotations

from textual import events
from textual.message import Message
from textual.widgets import Footer


class KeyFooter(Footer):
    class Resized(Message):
        """The footer's width changed: its keys are fitted again."""

    def on_resize(self, event: events.Resize) -> None:
        self.post_message(self.Resized())
