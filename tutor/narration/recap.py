"""An episode told short: the lines a verdict and the lesson's recap show (the brief), and the
entries `check --json` gives, in English or Korean."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from tutor.narration.story_words import because, what

if TYPE_CHECKING:
    from tutor.cluster.story import Episode, Line

# The lines of an episode its brief keeps, by the episode's kind, and those it tells with their
# cause: the key links (what LWS reacted to, what moved the rollout on).
BRIEF_KINDS = {"failure": ("restarted", "recreate-group", "garbage-collected", "new-uid", "running-again"),
               "rollout": ("revision", "group-replaced", "mixed-revisions", "recreate-group", "rollout-done"),
               "gang-held": ("gang-held",), "gang-placed": ("gang-bound", "gang-placed")}
BRIEF_CAUSES = ("recreate-group", "group-replaced")


def offset(episode: Episode, line: Line) -> str:
    """A line's time in its episode: "+1.23s"."""
    return f"+{episode.offset(line):.2f}s"


def with_cause(line: Line, lang: str) -> str:
    """What happened, then "← its cause" where the data shows one."""
    return what(line, lang) + (f" ← {because(line, lang)}" if line.cause else "")


def brief_items(episode: Episode, lang: str) -> list[tuple[str, str]]:
    """The brief as (offset, what with the cause of the key links), for a verdict or a list."""
    return [(offset(episode, line), with_cause(line, lang) if line.kind in BRIEF_CAUSES else what(line, lang))
            for line in episode.lines if line.kind in BRIEF_KINDS.get(episode.kind, ())]


def brief(episode: Episode, lang: str) -> list[str]:
    """An episode as short lines for a verdict: offset, what, and the cause of the key link."""
    return [f"{at} {text}" for at, text in brief_items(episode, lang)]


def entries(episode: Episode, lang: str) -> list[dict]:
    """The lines as `check --json` gives them."""
    return [{"time": iso(line.at, line.precise), "offset": round(episode.offset(line), 3), "lws": episode.lws,
             "group": line.group, "kind": line.kind, "what": what(line, lang),
             "cause": because(line, lang) or None} for line in episode.lines]


def iso(at: float, precise: bool = True) -> str:
    """UTC ISO 8601, with milliseconds when the time has them."""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(at))
    return f"{stamp}.{int(round(at * 1000)) % 1000:03d}Z" if precise else f"{stamp}Z"
