"""Which keys the footer shows: as many as its one row holds, by priority, q and ? always.

Textual's footer lays its keys out in a row and cuts what does not fit at the right, where q
is: at 80 columns with the lab check panel's x, or at 60 columns, q and ? were lost or cut in
the middle of a Korean word. Here each key's width is counted as the compact footer draws it
(key, a space, its words, a cell between keys; the palette's key docked at the right with its
rule), and the keys of least use give way first. Every key still works; ? lists them all."""

from __future__ import annotations

from dataclasses import replace

from rich.cells import cell_len

from tutor.ui.textual_compat import bindings_by_key

# Most needed first: the way out and the way to every key, then moving through the lesson.
PRIORITY = ("quit", "help", "next", "prev", "hint", "solution", "dismiss_doctor", "toggle_lang", "recheck",
            "maximize_pane")


def key_cells(key_display: str, description: str) -> int:
    """Cells a key takes in the compact footer, the cell after it included."""
    return cell_len(key_display) + (1 + cell_len(description) if description else 0) + 1


def fitting(keys: list[tuple[str, int]], room: int) -> set[str]:
    """The actions, among (action, cells) in priority order, that fit in `room` cells."""
    shown: set[str] = set()
    for action, cells in keys:
        if cells <= room:
            shown.add(action)
            room -= cells
    return shown


def fit_footer(app, wanted: dict[str, bool], width: int) -> None:
    """Sets `show` on the app's bindings: a key is shown when `wanted` (by action; what the step
    offers, e.g. h or s) and when it fits the footer's `width` after the keys before it."""
    bindings = bindings_by_key(app)
    palette = next((b for b in bindings.get(app.COMMAND_PALETTE_BINDING, ())), None)
    if palette is not None and app.ENABLE_COMMAND_PALETTE:
        width -= 1 + key_cells(app.get_key_display(palette), palette.description)  # its rule, then the key
    # The app's own keys only (Textual's ctrl+q also quits: it stays out of the footer).
    ours = {(key.strip(), b.action) for b in type(app).BINDINGS if b.action in wanted for key in b.key.split(",")}
    first = {}
    for key, key_bindings in bindings.items():
        for b in key_bindings:
            if (key, b.action) in ours:
                first.setdefault(b.action, b)
    candidates = [(a, key_cells(app.get_key_display(first[a]), first[a].description))
                  for a in PRIORITY if a in first and wanted[a]]
    shown = fitting(candidates, width)
    for key, key_bindings in bindings.items():
        bindings[key] = [replace(b, show=b.action in shown) if (key, b.action) in ours else b for b in key_bindings]
