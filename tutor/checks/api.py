"""The checker API: everything a lesson's checkers (lessons/*/checks) use, and the one tutor
module they may import (pyproject.toml's import-linter contract holds them to it). What the
store keeps about pods over time is asked by name here (uid_owner, uid_history,
mixed_revisions), never read from its internals, so the store can change beneath the lessons;
an object is read by its kind's row of the kinds table (named, every), namespaced or not.
"""

from __future__ import annotations

from typing import Any

from tutor.checks.helpers import (MAX_LINES, UID_RE, PodNotes, answer_text, file_then_live, find_doc, find_lws_doc, grace_note,
                                 kv_lines, live_lws, lwt, misplaced_fields, pods_running, template_containers,
                                 template_gpus, templates, yaml_docs)
from tutor.checks.context import Context
from tutor.checks.prediction import Seen
from tutor.checks.reads import EXPLAIN, Reads, evidence, merged
from tutor.checks.verdict import Stop, Verdict, failed, passed, unconfirmed, waiting
from tutor.checks.explain import exclusive_lines, verdict_lines
from tutor.cluster import kinds
from tutor.cluster import objects as o
from tutor.cluster.instant import Instant
from tutor.cluster.observations import MixedRevisions, UidSeen
from tutor.cluster.story import Episode, Story
from tutor.cluster.objects import parse_time  # the one parser (tutor.cluster.timeline uses it too)
from tutor.cluster.timeline import Fact, Kind, Timeline, timeline_of
from tutor.i18n.particles import attach
from tutor.lesson.lab import FakeNodes, Lab, Taint
from tutor.narration import restart_detail, timeline_lines
from tutor.i18n.bilingual import say

__all__ = [
    # the checker's context, its declaration and its verdicts
    "Context", "Reads", "EXPLAIN", "evidence", "merged", "Verdict", "Stop", "failed", "passed", "unconfirmed",
    "waiting", "Seen",
    # answer files, manifests and pods (tutor/checks/helpers.py)
    "MAX_LINES", "UID_RE", "PodNotes", "answer_text", "file_then_live", "find_doc", "find_lws_doc", "grace_note", "kv_lines",
    "live_lws", "lwt", "misplaced_fields", "pods_running", "template_containers", "template_gpus", "templates",
    "yaml_docs",
    # the scheduler's explanations (tutor/checks/explain.py)
    "exclusive_lines", "verdict_lines",
    # objects, time, the timeline and the story
    "o", "Instant", "Fact", "Kind", "Timeline", "parse_time", "timeline_of", "Episode", "Story",
    "restart_detail", "timeline_lines", "attach",
    # the one way to word a message: both languages side by side (tutor/i18n/bilingual.py)
    "say",
    # the lesson's lab (lesson.yaml `lab`)
    "Lab", "FakeNodes", "Taint",
    # what the store keeps, by name
    "timeline", "uid_owner", "uid_history", "mixed_revisions", "named", "every",
    "MixedRevisions", "UidSeen",
]


def timeline(ctx: Context, lws: str) -> Timeline:
    """The timeline of one LWS of the lesson's namespace (declare evidence(lws) in READS)."""
    return timeline_of(ctx._store, ctx.ns, lws)


def uid_owner(ctx: Context, uid: str) -> str | None:
    """The pod that held this UID, of any the tutor saw (declare uid_owners=True), or None."""
    return ctx._store.obs.uid_owner.get(uid.lower())


def uid_history(ctx: Context, pod: str) -> list[UidSeen]:
    """Each UID a pod of this name had while the tutor watched, oldest first, with its IPs."""
    return ctx._store.obs.uid_history(pod)


def mixed_revisions(ctx: Context, lws: str) -> list[MixedRevisions]:
    """The times a group of this LWS ran pods of two revisions at once, oldest first."""
    return [m for m in ctx._store.obs.mixed if m.lws == lws]


def named(ctx: Context, kind: str, name: str) -> dict[str, Any] | None:
    """The object of a kind the tutor watches by its name: in the lesson's namespace when the kind
    is namespaced (the kinds table says), else cluster-wide (a Node). Terminating pods included."""
    row = kinds.of(kind)
    if row is None:
        raise ValueError(f"the tutor does not watch {kind}")
    return ctx._store.get(kind, name, ctx.ns if row.namespaced else "")


def every(ctx: Context, kind: str) -> list[dict[str, Any]]:
    """Every object of a kind the tutor watches, in the lesson's namespace when it is namespaced."""
    row = kinds.of(kind)
    if row is None:
        raise ValueError(f"the tutor does not watch {kind}")
    return ctx._store.all(kind, ctx.ns if row.namespaced else None)
