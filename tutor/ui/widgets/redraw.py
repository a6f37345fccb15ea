"""Panes are told what to show on every refresh; redrawing one relayouts the screen, so each
redraws only when what it would show differs from what it last showed."""

from __future__ import annotations


class LastKey:
    """A key remembered: what a part of the screen was last drawn from, as a comparable value."""

    def __init__(self) -> None:
        self.last: object = None

    def changed(self, key: object) -> bool:
        """True, and remembered, when key differs from the last one."""
        if key == self.last:
            return False
        self.last = key
        return True


class RedrawsOnChange:
    _drawn_key: LastKey | None = None  # what the widget last drew

    def _is_new(self, key: object) -> bool:
        """True, and remembered, when key differs from the last one drawn."""
        if self._drawn_key is None:
            self._drawn_key = LastKey()
        return self._drawn_key.changed(key)
