"""Short notices (Textual toasts) that keep out of the learner's way.

A notice is drawn over the header, at the top right (the Toast rules in tutor.tcss): one line
for a passed step, gone in a few seconds or at esc.

Why over the header: when a widget beneath a toast redraws, Textual repaints only that widget's
region, toast included, and a wide character of the toast that straddles the region's edge is
cut to a blank there; the toast itself is not drawn again, so the terminal keeps the blank. Over
the live panes (their edges at columns 40-42 at 80x24, their scrollbars near the right) Korean
notices lost characters at the start of their lines ("래 줄들이" for "아래 줄들이"). The header
is one widget from column 0 to the screen's edge: a one-line notice over it has no such edge.
Textual's own wrapping keeps every character, but a toast of several wrapped lines is one row
too short for them (Textual 8.2 sizes it before wrapping it): its last line went missing. A
notice is wrapped here, with Rich's cell-aware wrapping, to the width the toast has, so there is
nothing left for Textual to wrap and the toast is as tall as its lines."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

TOAST_WIDTH = 60  # Textual's Toast: width 60, max-width 50% of the screen
TOAST_FRAME = 4  # its left border, the padding either side (tutor.tcss), and a cell to spare


def text_width(screen_width: int) -> int:
    """The cells a toast has for its text on a screen this wide."""
    return max(10, min(TOAST_WIDTH, screen_width // 2) - TOAST_FRAME)


def prewrap(message: str, width: int) -> str:
    """The message in lines of at most `width` cells, broken between words where it can be."""
    console = Console(width=width, color_system=None, legacy_windows=False)
    return "\n".join(line.plain.rstrip() for line in Text(message).wrap(console, width))


def step_ranges(steps: list[int]) -> str:
    """1, 2, 3, 5 → "1–3, 5": a catch-up that passed every step says so in a few characters."""
    runs: list[list[int]] = []
    for n in sorted(set(steps)):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs)
