"""Panes are told what to show on every refresh; redrawing one relayouts the screen, so each
redraws only when what it would show differs from what it last showed."""

from __future__ import annotations


class RedrawsOnChange:
    _shown: object = None  # what the widget last drew, as a comparable key

    def _is_new(self, key: object) -> bool:
        """True, and remembered, when key differs from the last one drawn."""
        if key == self._shown:
            return False
        self._shown = key
        return True
