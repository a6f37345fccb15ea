"""Reading a footer row as the learner does: whole keys, or something cut."""

from __future__ import annotations


def not_whole(keys: str, labels: set[str]) -> str:
    """What of `keys` (the footer row left of the palette's key) is not a run of whole key labels,
    each followed by a space: "" when every key is whole. Longer labels are tried first, so a
    label that begins another ("z" and "z Zoom") is not taken for it."""
    rest, whole = keys.strip(), sorted(labels, key=len, reverse=True)
    while rest:
        first = next((w for w in whole if rest == w or rest.startswith(w + " ")), None)
        if first is None:
            return rest
        rest = rest[len(first):].strip()
    return ""
