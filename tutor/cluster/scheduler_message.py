"""The scheduler's FailedScheduling message, split into its counted clauses: "0/3 nodes are
available: 1 Insufficient nvidia.com/gpu, 2 node(s) had untolerated taint(s). preemption: …"."""

from __future__ import annotations

import re
from dataclasses import dataclass

_HEAD = re.compile(r"^0/(\d+) nodes are available:\s*")
_CLAUSE = re.compile(r"^(\d+) (.+)$")


@dataclass(frozen=True)
class SchedulerMessage:
    total: int | None  # N of "0/N nodes are available", None when the message has another shape
    clauses: tuple[tuple[int, str], ...]  # (count, reason) of the first sentence
    prefilter: str  # the first sentence's text when it holds no counted clause (a PreFilter failure)
    rest: str  # what follows (the preemption report), verbatim

    def histogram(self) -> dict[str, int]:
        return {reason: n for n, reason in self.clauses}


def parse_message(message: str) -> SchedulerMessage:
    """Splits "0/3 nodes are available: 1 Insufficient nvidia.com/gpu, 2 node(s) had
    untolerated taint(s). preemption: ..." into (3, [(1, ...), (2, ...)], rest)."""
    text = " ".join(str(message).split())
    m = _HEAD.match(text)
    if not m:
        return SchedulerMessage(None, (), "", text)
    body = text[m.end():]
    first, sep, rest = body.partition(". ")
    if not sep:
        first, rest = body.rstrip("."), ""
    parts = [p.strip() for p in first.split(", ")]
    clauses = []
    for p in parts:
        cm = _CLAUSE.match(p)
        if not cm:
            return SchedulerMessage(int(m.group(1)), (), first, rest)
        clauses.append((int(cm.group(1)), cm.group(2)))
    return SchedulerMessage(int(m.group(1)), tuple(clauses), "", rest)
