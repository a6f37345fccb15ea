"""Verdicts under watch skew: every recording replayed in order, and with one kind's items late.

The tutor's store is fed by one watch per kind (tutor/cluster/live.py: a thread and a connection
per resource, all feeding one inbox in the order they arrive). Each watch delivers its own kind in
the API server's order; nothing orders one watch against another. On a busy machine one kind's
watch can run a few events behind the others, so the store holds, for a moment, a mix of kinds
that the cluster never held together: a rollout's pods Terminating beside the LeaderWorkerSet
from before the apply that started it.

The skew made here is only that one: items of one kind are each held back behind a few items of
other kinds, never moved past an item of their own kind, so every kind keeps its own order.

Two rules, checked after every item, for every step:
1. A fail or pass the skewed replay shows is one the in-order replay showed from the moment
   just before the held-back kind's first item not yet applied on: the store holds the other
   kinds ahead, so a verdict may come early, but one the cluster justified at no moment the
   store's mix spans, nor after, is a verdict the real cluster never justified.
2. While the store holds a Terminating pod, a step fails only when the in-order replay fails
   it at the store's newest item too. A pod on its way out whose cause has not reached the
   store (the LeaderWorkerSet whose new template started a rollout, the events that tell a
   rollout from a failure) is the store behind, not the learner's mistake: the e2e test
   requires `waiting`, with the grace-period note, for every sample with a Terminating pod.
Rule 1 alone misses the rollout's case: the fail it gave was the in-order verdict of the
moment before the apply, which the store's mix spans.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache

import pytest

from tests.conftest import RECORDINGS
from tests.states import check, event, file_written, recording, started_at, state
from tutor.cluster import objects as o
from tutor.cluster.source_events import ObjectEvent
from tutor.lesson.loader import load
from tutor.session import Session

NAMES = sorted(p.stem for p in RECORDINGS.glob("*.jsonl")) + ["walkthrough"]
HELD_BACK = ("LeaderWorkerSet", "StatefulSet", "Pod", "Event")
BEHIND = (2, 5, 12)  # items of other kinds each held-back item is moved behind
ROLLOUT_STEP = 6


def kind_of(item) -> str:
    return o.kind(item.obj) if isinstance(item, ObjectEvent) else "file"


def first_lists(items: list) -> int:
    """How many items the recording opens with before its first change: the first list of each
    kind (every object ADDED) and the answer files. The tutor judges nothing until every watch
    has brought its first list (Session.awaiting_lists), so their order never shows."""
    return next((i for i, it in enumerate(items) if isinstance(it, ObjectEvent) and it.type != "ADDED"), len(items))


def held_back(items: list, kind: str, behind: int) -> list[int]:
    """The items' positions in the order of a store whose `kind` watch runs `behind` items of
    other kinds late: each item of that kind after the first lists comes after the next `behind`
    items of other kinds (or at the end), in its own kind's order; the other kinds keep theirs."""
    listed = first_lists(items)
    order: list[int] = list(range(listed))
    late: list[list[int]] = []  # [items of other kinds still to pass, position]
    for i, item in enumerate(items[listed:], start=listed):
        if kind_of(item) == kind:
            late.append([behind, i])
            continue
        order.append(i)
        for waiting in late:
            waiting[0] -= 1
        while late and late[0][0] <= 0:
            order.append(late.pop(0)[1])
    order.extend(i for _, i in late)
    return order


@dataclasses.dataclass
class Replay:
    verdicts: list[set[tuple[int, str, str]]]  # after k items (0: none): (step, status, message)
    terminating: list[bool]  # after k items: the store holds a Terminating pod


def replay(name: str, order: list[int]) -> Replay:
    rec = recording(name)
    lesson = load(rec.header.lesson or "lws")
    s = Session(lesson, rec.header.workdir or lesson.workdir, "en")
    s.store.started_at = started_at(name)
    out = Replay([], [])

    def sample() -> None:
        s.evaluate()
        out.verdicts.append({(n, v.status.value, v.message) for n, v in s.verdicts.items()})
        out.terminating.append(any(o.is_terminating(p) for p in s.store.all("Pod", lesson.namespace)))

    sample()
    last_t = 0.0
    for i in order:
        item = rec.items[i]
        if item.t < last_t:  # a late item reaches the store when the items before it have
            item = dataclasses.replace(item, t=last_t)
        last_t = item.t
        s.apply(item)
        sample()
    return out


@lru_cache(maxsize=None)
def in_order(name: str) -> Replay:
    return replay(name, list(range(len(recording(name).items))))


def defects(name: str, kind: str, behind: int) -> dict[tuple[str, int, str, str], str]:
    """The verdicts the skewed replay gives that a rule forbids, each with where it was seen."""
    items = recording(name).items
    truth = in_order(name)
    order = held_back(items, kind, behind)
    skewed = replay(name, order)
    found: dict[tuple[str, int, str, str], str] = {}
    applied: set[int] = set()
    for k, i in enumerate(order):
        applied.add(i)
        newest = max(applied)
        oldest_missing = next((j for j in range(len(items)) if j not in applied), len(items))
        # truth.verdicts[q + 1]: the in-order verdicts after item q; the mix spans q from oldest_missing - 1 to newest
        spanned = set().union(*truth.verdicts[oldest_missing:])
        now = truth.verdicts[newest + 1]
        for step, status, message in skewed.verdicts[k + 1]:
            where = f"{name}, {kind} {behind} behind, after item {k} (in order: {oldest_missing - 1}..{newest})"
            if status in ("fail", "pass") and (step, status, message) not in spanned:
                found.setdefault(("1", step, status, message), where)
            if status == "fail" and skewed.terminating[k + 1] and (step, "fail") not in {(n, st) for n, st, _ in now}:
                found.setdefault(("2", step, status, message), where)
    return found


@pytest.mark.parametrize("name", NAMES)
def test_a_kind_held_back_gives_no_verdict_the_cluster_never_justified(name):
    assert recording(name).items, name
    found = {}
    for kind in HELD_BACK:
        for behind in BEHIND:
            for key, where in defects(name, kind, behind).items():
                found.setdefault(key, where)
    assert not found, "\n".join(f"rule {r}, step {n} {st}: {m}\n    seen: {w}" for (r, n, st, m), w in found.items())


def test_the_skew_keeps_each_kinds_own_order():
    items = recording("walkthrough").items
    for kind in HELD_BACK:
        order = held_back(items, kind, 5)
        assert sorted(order) == list(range(len(items)))
        for k in {kind_of(it) for it in items}:
            mine = [i for i in order if kind_of(items[i]) == k]
            assert mine == sorted(mine), (kind, k)
        assert order != list(range(len(items))), kind  # it did move something


def _terminating(pod: str):
    return event("Pod", pod, where=o.is_terminating)


def test_a_rollout_the_store_has_not_seen_the_template_of_waits_with_the_grace_period():
    """The e2e failure, made on purpose: llm's StatefulSet and its first Terminating pod are in,
    the LeaderWorkerSet with VERSION=v2 is not (its watch is behind)."""
    for lang in ("en", "ko"):
        s = state("walkthrough", after=_terminating("llm-1"), lang=lang)
        # the LWS back to the one from before the apply, as a watch running behind leaves it
        before = [it for it in recording("walkthrough").items[:148]
                  if isinstance(it, ObjectEvent) and o.kind(it.obj) == "LeaderWorkerSet" and o.name(it.obj) == "llm"]
        s.apply(dataclasses.replace(before[-1], t=s.store.now))
        v = check(s, ROLLOUT_STEP)
        assert v.status.value == "waiting", v.message
        assert "llm-1 Terminating" in v.message
        assert any("grace period" in d or "유예 시간" in d for d in v.details), v.details


def test_a_pod_deleted_by_hand_fails_the_step_once_nothing_is_being_replaced():
    """Group 0 recreated with the template unchanged: waiting while its old leader is
    Terminating, and the step's fail once the group runs again."""
    during = check(state("walkthrough", after=_terminating("llm-0")), ROLLOUT_STEP)
    assert during.status.value == "waiting" and "llm-0 Terminating" in during.message, during.message
    assert any("grace period" in d for d in during.details), during.details
    after = check(state("walkthrough", stop=file_written("lws.yaml", "VERSION")), ROLLOUT_STEP)
    assert after.status.value == "fail" and after.message.startswith("Add env VERSION=v2"), after.message
