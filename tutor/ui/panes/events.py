"""The events pane: the newest MAX_EVENTS events about pods, LWS and StatefulSets, whole
messages wrapped (step 8 needs the full FailedScheduling text), and under the newest
FailedScheduling event of each pod that still waits, the tutor's node-by-node explanation.

From scratch: lesson_events, and event_blocks, what the pane shows of them. Kept up to date:
LessonEvents, the newest events merged with those that changed, and WaitingPods, the pods that
wait for a node (tests/ui/test_incremental.py holds them equal to lesson_events and
explanations_key). Drawn by EventList on Textual's Line API (text_blocks.TextBlocks): each
event's wrapped lines are kept while it says the same, and a frame renders only the lines in view.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from typing import NamedTuple

from rich.text import Text

from tutor.cluster import kinds, objects as o
from tutor.cluster.memo import LRU
from tutor.cluster.store import Store
from tutor.ui.panes.common import LiveData, memo, waits_for_a_node
from tutor.ui.widgets.redraw import LastKey
from tutor.ui.widgets.text_blocks import TextBlocks
from tutor.i18n.bilingual import say

MAX_EVENTS = 60
# The kinds the pane reads, named by their rows in the kinds table.
POD, NODE, EVENT = kinds.POD.kind, kinds.NODE.kind, kinds.EVENT.kind
LESSON_KINDS = (POD, kinds.LEADER_WORKER_SET.kind, kinds.STATEFUL_SET.kind)  # the events shown are about these


# --- from scratch -------------------------------------------------------------------------------

def _about_lesson_kind(e: dict) -> bool:
    return o.event_regarding(e).get("kind") in LESSON_KINDS


def _is_lesson(e: dict) -> bool:
    return memo(e, "lesson", _about_lesson_kind)


def event_order(e: dict) -> tuple:
    return memo(e, "order", o.event_order)


def lesson_events(store: Store, namespace: str) -> list[dict]:
    evs = [e for e in store.events_for(namespace) if _is_lesson(e)]
    # The newest first; stable for equal keys, like sorted(..., reverse=True)[:MAX_EVENTS].
    return heapq.nlargest(MAX_EVENTS, evs, key=event_order)


def _event_text(e: dict) -> Text:
    warn = o.event_type(e) != "Normal"
    reg = o.event_regarding(e)
    out = Text()
    out.append("⚠ " if warn else "  ", style="bold yellow")
    out.append(o.event_reason(e), style="bold yellow" if warn else "bold")
    out.append(f" {str(reg.get('kind', '')).lower()}/{reg.get('name', '')}", style="cyan")
    count = o.event_count(e)
    if count > 1:
        out.append(f" ×{count}", style="dim")
    out.append("\n")
    out.append(f"  {o.event_message(e)}", style="" if warn else "dim")
    return out


def event_text(e: dict) -> Text:
    """One event as the events pane shows it: its headline, then the whole message. Kept while
    the store holds the same event object, so the pane can keep its wrapped lines too."""
    return memo(e, "text", _event_text)


# --- why a pod waits, under its FailedScheduling event ------------------------------------------

class _Explained(NamedTuple):
    event: dict
    why: object  # checks/explain.py's explanation, or None
    text: Text


_why_cache = LRU(64)  # (id(event), id(why), lang) -> _Explained


def explanations_key(store: Store, namespace: str) -> tuple:
    """What the explanations under events depend on: nothing while no pod waits, else every
    pod and node (where they are decides why)."""
    if not any(waits_for_a_node(p) for p in store.pods_named(namespace).values()):
        return ()
    return (store.kind_version[POD], store.kind_version[NODE])


def _explained(e: dict, pod: dict, store: Store, namespace: str, lang: str) -> Text:
    """The event's text with the explanation under it; the same Text while the event and the
    explanation (checks/explain.py keeps one per state that matters) are the same."""
    from tutor.checks.explain import explain_in_store

    why = explain_in_store(store, namespace, o.name(pod), lang)
    key = (id(e), id(why), lang)
    hit = _why_cache.get(key)
    if hit is not None and hit.event is e and hit.why is why:
        return hit.text
    out = event_text(e).copy()
    out.append("\n  ↳ " + say(lang, "node by node, now:", "노드별로, 지금:"), style="bold cyan")
    for depth, line in why.lines if why is not None else ():
        out.append("\n    " + "  " * depth + line, style="cyan" if depth else "")
    _why_cache[key] = _Explained(e, why, out)
    return out


def event_blocks(store: Store, namespace: str, lang: str = "en",
                 events: list[dict] | None = None) -> tuple[Text, ...]:
    """What the events pane shows: one Text per lesson event, newest first, or a word that
    there are none yet. Under the newest FailedScheduling event of each pod that still waits,
    the tutor's node-by-node explanation (checks/explain.py). `events`: lesson_events, when the
    caller keeps them (LessonEvents)."""
    if events is None:
        events = lesson_events(store, namespace)
    newest: dict[str, dict] = {}
    for e in events:
        reg = o.event_regarding(e)
        if o.event_reason(e) == "FailedScheduling" and reg.get("kind") == POD:
            newest.setdefault(str(reg.get("name", "")), e)
    blocks = []
    for e in events:
        name = str(o.event_regarding(e).get("name", ""))
        pod = store.get(POD, name, namespace) if newest.get(name) is e else None
        if waits_for_a_node(pod) and o.event_regarding(e).get("uid") in (None, "", o.uid(pod)):
            blocks.append(_explained(e, pod, store, namespace, lang))
        else:
            blocks.append(event_text(e))
    return tuple(blocks) or (Text(say(lang, "No events yet.", "아직 이벤트가 없습니다."), style="dim"),)


# --- kept up to date ----------------------------------------------------------------------------

class _ShownEvent(NamedTuple):
    order: tuple  # event_order, then the store's order of changes
    key: str  # the store's key for it (Store.events_named)
    event: dict


class LessonEvents:
    """lesson_events, kept up to date: the newest MAX_EVENTS lesson events, merged with the events
    that changed. Equal times keep the store's order (the order of their last change), as the
    from-scratch sort does; when a shown event was changed or forgotten and nothing new takes its
    place for sure, the list is rebuilt from the store."""

    def __init__(self) -> None:
        self._shown: list[_ShownEvent] = []  # newest first
        self._seq = 0  # the position of the next changed event in the store's order
        self._namespace: str | None = None

    def update(self, store: Store, namespace: str) -> list[dict]:
        changes = store.take_changes(self)
        if changes.everything or namespace != self._namespace:
            return self._rebuild(store, namespace)
        changed = [key for ns, key in changes.events if ns == namespace]
        if not changed:
            return self._events()
        gone = set(changed)
        kept = [s for s in self._shown if s.key not in gone]
        lost = len(kept) < len(self._shown)
        floor = self._shown[-1].order if len(self._shown) == MAX_EVENTS else None
        seen = store.events_named(namespace)
        for key in changed:
            ev = seen.get(key)
            if ev is not None and _is_lesson(ev):
                kept.append(_ShownEvent(self._order(ev), key, ev))
        kept.sort(key=lambda s: s.order, reverse=True)
        if lost and floor is not None and (len(kept) < MAX_EVENTS or kept[MAX_EVENTS - 1].order < floor):
            # a shown event left; one not shown may now be among the newest
            return self._rebuild(store, namespace)
        self._shown = kept[:MAX_EVENTS]
        return self._events()

    def _events(self) -> list[dict]:
        return [s.event for s in self._shown]

    def _order(self, ev: dict) -> tuple:
        """event_order, then the store's: a later change sorts as older among equal times."""
        self._seq += 1
        return (*event_order(ev), -self._seq)

    def _rebuild(self, store: Store, namespace: str) -> list[dict]:
        self._namespace = namespace
        shown = []
        for key, ev in store.events_named(namespace).items():
            if _is_lesson(ev):
                shown.append(_ShownEvent(self._order(ev), key, ev))
        self._shown = heapq.nlargest(MAX_EVENTS, shown, key=lambda s: s.order)
        return self._events()


class WaitingPods:
    """explanations_key, kept up to date: the pods of the namespace that wait for a node,
    followed through the pods' changes instead of a walk over all of them."""

    def __init__(self) -> None:
        self._waiting: set[str] = set()
        self._namespace: str | None = None

    def key(self, store: Store, namespace: str) -> tuple:
        changes = store.take_changes(self)
        pods = store.pods_named(namespace)
        if changes.everything or namespace != self._namespace:
            self._namespace = namespace
            self._waiting = {name for name, p in pods.items() if waits_for_a_node(p)}
        else:
            for ns, name in changes.pods:
                if ns == namespace:
                    if waits_for_a_node(pods.get(name)):
                        self._waiting.add(name)
                    else:
                        self._waiting.discard(name)
        if not self._waiting:
            return ()
        return (store.kind_version[POD], store.kind_version[NODE])


# --- the widget ---------------------------------------------------------------------------------

class EventList(TextBlocks):
    MIN_LINES_PER_BLOCK = 2  # an event's head line and its message

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._events = LessonEvents()  # the events shown, followed through the store's changes
        self._waiting = WaitingPods()  # explanations_key, without a walk over the namespace's pods
        self._inputs = LastKey()  # the cheap counters it was last drawn from

    def redraw(self, live: LiveData) -> Iterator[None]:
        """Redraws when an event or a waiting pod may have changed, yielding after each event it
        had to wrap anew and once more at the end: after a burst all 60 are new, and the app gives
        the loop a turn between them (tutor/ui/refresh/pump.py)."""
        unavailable = live.unavailable(kinds.EVENT.name)
        key = (live.store.kind_version[EVENT], unavailable, live.lang, self._waiting.key(live.store, live.namespace))
        if key != self._inputs.last:
            store, namespace = live.store, live.namespace
            events = self._events.update(store, namespace)  # followed even while unavailable: no change is missed
            if unavailable:
                blocks: tuple[Text, ...] = (Text(unavailable),)
            else:
                blocks = event_blocks(store, namespace, live.lang, events)
            yield from self.set_blocks_in_steps(blocks)
            self._inputs.last = key  # only once drawn: a redraw dropped half-way redoes it
            yield
