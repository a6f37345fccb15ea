"""The words of notices (the notices' line is tutor/ui/widgets/notice_bar.py)."""

from __future__ import annotations


def step_ranges(steps: list[int]) -> str:
    """1, 2, 3, 5 → "1–3, 5": a catch-up that passed every step says so in a few characters."""
    runs: list[list[int]] = []
    for n in sorted(set(steps)):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs)
