"""The store's evidence on one time axis: what happened to each LeaderWorkerSet group, in order.

Checkers read evidence in time order through this module, and only here are the rules written:
- a recreation, deletion or UID change that falls inside a rolling update (between a template
  revision change and the next "all groups ready") belongs to the rollout, not to a failure;
- a pod's UID replaced by one of another template revision was replaced by the rollout;
- what counts as a failure of a group (`failures`): a container restart, a deletion asked for,
  a replacement of its pods' UIDs, or LWS's RecreateGroup event, outside a rollout;
- a recreation is LWS's event that says so: its reason (RecreateGroup, RecreateGroupOnPodRestart),
  or whatever its reason and words, an LWS event deleting a leader pod (action Delete, related
  Pod), or one whose words say it recreates a group. Without any such event (missing, expired,
  renamed past recognition) a recreation is known by its effects (`source="effects"`): a leader's
  UID deleted outside a rollout right after a container of its group restarted (the kubelet's
  restartCount, lastState, or its Started/BackOff events). A leader replaced with no restart
  before it is no recreation: a pod deleted by hand.

The axis is wall-clock time, seconds since the epoch (UTC). Events and object timestamps are wall
clock already. What the tutor saw itself (a UID going, a restart count rising) carries the store's
`t`, seconds since its source started; `anchor` relates the two (the source's start time, sharpened
by the pods the tutor saw being created). Facts from whole-second timestamps, or from the tutor's
own clock, are marked `precise=False`: ordering them against others allows a second of slack.

A Fact is (at, kind, lws, group, pod, uid, revision, detail, source, evidence); `evidence` is the
object it was read from (an Event dict, a store UidSeen or RestartSeen, a Pod dict; for a
recreation known by its effects, the restart it followed). `timeline(store,
namespace)` builds the Timeline once per store version. It holds at most MAX_FACTS facts (the
newest), on top of the store's own bounds on history. It says nothing in words: tutor/narration
tells its facts as lines.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from enum import Enum
from typing import Any, Callable

from tutor.cluster import objects as o
from tutor.cluster.objects import Obj
from tutor.cluster.objects import parse_time as parse_time  # the one parser; checkers import it from here too
from tutor.cluster.derived import cached_by, per_store_version
from tutor.cluster.instant import Instant, Timed, maybe_in_order
from tutor.cluster import deps, kinds
from tutor.cluster.handlers import named_after
from tutor.cluster.store import Store

MAX_FACTS = 2000
RECREATE_REASONS = ("RecreateGroup", "RecreateGroupOnPodRestart")  # v0.9+, and v0.8 and older
RESTART_POD_REASONS = ("BackOff",)  # kubelet: "Back-off restarting failed container"
EVENT_RESTART_RANK = (*RESTART_POD_REASONS, "Started", "Created")  # which event tells a restart best
# The LWS event reasons the tutor reads (lws-facts: the controllers' events). Any other reason, a
# newer LWS's, is kept as it is (Kind.LWS_EVENT): shown with its words, never dropped.
KNOWN_LWS_REASONS = (*RECREATE_REASONS, "CreatingRevision", "GroupsProgressing", "GroupsUpdating", "AllGroupsReady",
                     "FailedCreate", "FailedUpdate")
KILLING_REASON = "Killing"  # kubelet: "Stopping container <c>", once a pod's deletion reached it
REACTION = 10.0  # seconds: LWS deletes the leader within this of the restart it reacts to (ms, really)
DEFAULT_GRACE = 30.0  # seconds: terminationGracePeriodSeconds unless the pod says otherwise


class Kind(str, Enum):
    POD_CREATED = "pod-created"  # a pod name got a UID; detail = the UID it replaced ("" if none known)
    POD_DELETING = "pod-deleting"  # its deletion was asked for (deletionTimestamp - grace period)
    POD_GONE = "pod-gone"  # the tutor saw this UID go
    RESTARTED = "restarted"  # a container of this pod UID restarted; detail = "exit <code>" when known
    REVISION_CREATED = "revision-created"  # LWS made a template revision; detail = "initial" | "update"
    GROUPS_UPDATING = "groups-updating"  # the rollout moved on to a group; detail = the event's message
    GROUP_RECREATED = "group-recreated"  # LWS deleted the group's leader to recreate it; uid = that leader's
    ALL_READY = "all-ready"  # LWS reported every group ready
    LWS_EVENT = "lws-event"  # an LWS event of a reason the tutor does not know; detail = "<reason>: <message>"


@dataclass(frozen=True)
class Fact(Timed):
    at: float  # wall-clock seconds since the epoch
    kind: Kind
    lws: str
    group: int | None = None
    pod: str = ""
    uid: str = ""
    revision: str = ""
    detail: str = ""
    source: str = "event"  # "event" (an Event the cluster keeps), "object" (a field of a live
    # object), "watched" (the tutor saw it change), or "effects" (a recreation no event tells,
    # known by what followed a restart: its leader deleted and replaced)
    precise: bool = True
    evidence: object = field(default=None, compare=False, repr=False)

    def clock(self) -> str:
        return clock(self.at, self.precise)


def clock(at: float, precise: bool = True) -> str:
    """HH:MM:SS.t in UTC; a time known only to the second is ≈HH:MM:SS."""
    stamp = time.strftime("%H:%M:%S", time.gmtime(at))
    return f"{stamp}.{int(at * 10) % 10}" if precise else f"≈{stamp}"


@dataclass(frozen=True)
class Window:
    """A rolling update of one LWS: from a template revision change to the next all-ready (None:
    still rolling, as far as the evidence goes)."""

    lws: str
    start: float
    end: float | None
    revision: str = ""


def occurrences(ev: Obj) -> list[tuple[float, bool]]:
    """When an Event happened: once, or first and last for a series or an aggregated core event
    (count > 1); the times between are not kept by the cluster."""
    series = o.as_dict(ev.get("series"))
    first = (parse_time(ev.get("eventTime")) or parse_time(ev.get("firstTimestamp"))
             or parse_time(ev.get("lastTimestamp")) or parse_time(o.dig(ev, "metadata", "creationTimestamp")))
    last = parse_time(series.get("lastObservedTime")) if series else (
        parse_time(ev.get("lastTimestamp")) if o.event_count(ev) > 1 else None)
    out = [t for t in (first, last) if t is not None]
    return sorted(set(out))


_LEADER_RE = re.compile(r"^(.+)-(\d+)$")
_WORKER_RE = re.compile(r"^(.+)-(\d+)-(\d+)$")


class Timeline:
    def __init__(self, facts: list[Fact], anchor: float, lws_names: set[str]):
        self.facts: tuple[Fact, ...] = tuple(_causal_order(facts)[-MAX_FACTS:])
        self.anchor = anchor
        self.lws_names = lws_names
        self._uids: dict[str, list[Fact]] = {}  # pod -> its POD_CREATED facts, oldest first
        for f in self.facts:
            if f.kind is Kind.POD_CREATED:
                self._uids.setdefault(f.pod, []).append(f)
        self._windows = {name: self._rollouts(name) for name in lws_names}

    # --- reading facts ------------------------------------------------------------------------
    def of(self, lws: str | None = None, group: int | None = None, kinds: tuple[Kind, ...] | None = None,
           pod: str | None = None, since: float | None = None) -> list[Fact]:
        """Facts in time order, filtered; `since` keeps those at or after it (less a second of slack
        for imprecise facts)."""
        return [f for f in self.facts
                if (lws is None or f.lws == lws) and (group is None or f.group == group)
                and (kinds is None or f.kind in kinds) and (pod is None or f.pod == pod)
                and (since is None or f.maybe_after(since))]

    def uids(self, pod: str) -> list[Fact]:
        """Every UID known for a pod name, oldest first (POD_CREATED facts)."""
        return list(self._uids.get(pod, ()))

    def created(self, pod: str, uid: str) -> Fact | None:
        return next((f for f in self.uids(pod) if f.uid == uid), None)

    def uid_at(self, pod: str, at: float) -> Fact | None:
        """The pod's UID at a moment (its POD_CREATED fact), or None when nothing known is older."""
        before = [f for f in self.uids(pod) if f.at <= at]
        return before[-1] if before else None

    def earlier_uids(self, pod: str, uid: str) -> set[str]:
        """The UIDs a pod name had before this one (lower case; none when this UID is unknown).
        A name is held by one object at a time, so each was gone before the next was created, and
        the kubelet restarts no container of a pod marked for deletion: a restart of an earlier
        UID, and a recreation that deleted one, came before this UID existed, whichever whole
        second their timestamps and its creationTimestamp read."""
        chain = [f.uid.lower() for f in self.uids(pod)]
        return set(chain[:chain.index(uid.lower())]) if uid.lower() in chain else set()

    def successor(self, pod: str, uid: str) -> Fact | None:
        """The UID that replaced this one, if known."""
        return next((f for f in self.uids(pod) if f.detail == uid), None)

    def covers(self, at: float) -> bool:
        """Whether the evidence reaches back to a moment: the tutor was watching then, or the
        cluster still keeps an event from then or before (events expire, by default after an hour)."""
        # the anchor relates the tutor's clock to the wall's only to the second
        return Instant(self.anchor, False).maybe_before(at) or any(f.source == "event" and f.at <= at for f in self.facts)

    def recreations(self, lws: str, group: int) -> list[Fact]:
        return self.of(lws, group, (Kind.GROUP_RECREATED,))

    # --- the rules ----------------------------------------------------------------------------
    def rollouts(self, lws: str) -> list[Window]:
        return self._windows.get(lws, [])

    def in_rollout(self, fact: Fact) -> bool:
        """Whether a fact belongs to a rolling update rather than to a failure: a pod UID replaced
        by one of another revision, or anything inside a rollout window of its LWS."""
        if fact.kind in (Kind.POD_CREATED, Kind.POD_DELETING, Kind.POD_GONE) and self._replaced_by_new_revision(fact):
            return True
        # A whole-second time t stands for [t, t+1): it may be in a window that starts before t+1.
        return any(fact.maybe_after(w.start) and (w.end is None or fact.at <= w.end)
                   for w in self.rollouts(fact.lws))

    def failures(self, lws: str, group: int, since: float | None = None) -> list[Fact]:
        """What went wrong in a group (outside rollouts), in time order: restarts, deletions
        asked for, UID replacements and LWS's recreations; since `since` (a UID created at that
        very moment is the one current then, not a replacement)."""
        kinds = (Kind.RESTARTED, Kind.POD_DELETING, Kind.GROUP_RECREATED, Kind.POD_CREATED)
        return [f for f in self.of(lws, group, kinds, since=since)
                if not (f.kind is Kind.POD_CREATED and (not f.detail or (since is not None and f.at <= since)))
                and not self.in_rollout(f)]

    def _replaced_by_new_revision(self, fact: Fact) -> bool:
        chain = self.uids(fact.pod)
        for prev, nxt in zip(chain, chain[1:]):
            if fact.uid in (prev.uid, nxt.uid) and prev.revision and nxt.revision and prev.revision != nxt.revision:
                return fact.uid == nxt.uid if fact.kind is Kind.POD_CREATED else fact.uid == prev.uid
        return False

    def _rollouts(self, lws: str) -> list[Window]:
        starts: list[tuple[float, str]] = []
        # LWS also moves its partition on the revision it was created with (after a creation or
        # a recreation: "Updating replicas 1 to -1 (inclusive)"). That is no rolling update, and a
        # window opened by it would hide a real failure next to it.
        initial = {f.revision for f in self.of(lws, kinds=(Kind.REVISION_CREATED,))
                   if f.detail == "initial" and f.revision}
        for f in self.of(lws, kinds=(Kind.REVISION_CREATED, Kind.GROUPS_UPDATING)):
            if f.detail == "update" or (f.kind is Kind.GROUPS_UPDATING and f.revision not in initial):
                starts.append((f.at, f.revision))
        seen_revs: list[str] = []
        for f in self.of(lws, kinds=(Kind.POD_CREATED,)):  # a pod of a revision not seen before
            if f.revision and f.revision not in seen_revs:
                if seen_revs:
                    starts.append((f.at, f.revision))
                seen_revs.append(f.revision)
        ready = [f.at for f in self.of(lws, kinds=(Kind.ALL_READY,))]
        windows: list[Window] = []
        for start, rev in sorted(starts):
            end = next((t for t in ready if t > start), None)
            if windows and windows[-1].end == end:
                continue  # the same rollout, seen through another piece of evidence
            windows.append(Window(lws, start, end, rev))
        return windows

    # --- for programs (tutor/narration words the facts for people) ----------------------------
    def to_json(self, lws: str, group: int | None = None, limit: int = 100) -> list[Obj]:
        """The newest `limit` facts of an LWS (or one group), oldest first, as JSON-ready dicts;
        `rollout` says whether the fact belongs to a rolling update."""
        return [{"at": datetime.fromtimestamp(f.at, timezone.utc).isoformat(timespec="milliseconds"),
                 "kind": f.kind.value, "lws": f.lws, "group": f.group, "pod": f.pod, "uid": f.uid,
                 "revision": f.revision, "detail": f.detail, "source": f.source, "precise": f.precise,
                 "rollout": self.in_rollout(f)}
                for f in self.of(lws, group)[-limit:]]


def _causal_order(facts: list[Fact]) -> list[Fact]:
    """Facts by time. One known only to the second (an object's timestamp, a core Event) may have
    happened anywhere in that second: it is put just after the last precise fact of its LWS in
    that second that can be its cause (a kind no later in _KIND_ORDER), or at the second's start
    when there is none. So the deletion LWS asked for at 42.4 is not told at 42, before it was
    asked. Only its own LWS's facts place it: one LWS's timeline is its part of the whole."""
    causes: dict[tuple[str, int], list[Fact]] = {}
    for f in facts:
        if f.precise:
            causes.setdefault((f.lws, int(f.at)), []).append(f)

    def when(f: Fact) -> float:
        if f.precise:
            return f.at
        rank = _KIND_ORDER[f.kind]
        return max((g.at for g in causes.get((f.lws, int(f.at)), ()) if _KIND_ORDER[g.kind] <= rank),
                   default=float(int(f.at)))

    return sorted(facts, key=lambda f: (when(f), _KIND_ORDER[f.kind], not f.precise))


_KIND_ORDER = {k: i for i, k in enumerate((Kind.REVISION_CREATED, Kind.GROUPS_UPDATING, Kind.RESTARTED,
                                           Kind.GROUP_RECREATED, Kind.POD_DELETING, Kind.POD_GONE,
                                           Kind.POD_CREATED, Kind.ALL_READY, Kind.LWS_EVENT))}


# --- building ---------------------------------------------------------------------------------

def timeline(store: Store, namespace: str) -> Timeline:
    """The Timeline of a namespace, built once per store version."""
    return _timeline_cached(store, namespace)


def timeline_of(store: Store, namespace: str, lws: str) -> Timeline:
    """One LWS's Timeline: the facts of timeline(store, namespace) about it, built from its own
    evidence only and again only when that changed (evidence_version), so a busy LWS beside it
    costs nothing."""
    return _timeline_of_cached(store, (namespace, lws))


def evidence_keys(lws: str) -> tuple[deps.Dep, ...]:
    """The Store.name_version keys under which a change to anything one LWS's timeline and story
    read is noted: the LWS, the Events about it, and every pod, StatefulSet and Event subject
    named after it (handlers.named_after), labelled as its or not. The checkers that read them
    declare the same (tutor/checks/reads.py)."""
    return (deps.Named("LeaderWorkerSet", lws), deps.PodsOf(lws), deps.EventsAbout(lws), deps.NamedAfter(lws))


def evidence_version(store: Store, lws: str) -> tuple[float | None, ...] | None:
    """What one LWS's timeline and story are built from, as counts: equal means equal evidence.
    None when the clock is the wall clock (no source start time, no pod seen created)."""
    clock = store.clock()
    if clock is None:
        return None
    return (*(store.name_version.get(k, 0) for k in evidence_keys(lws)), *clock)


def anchor_of(store: Store) -> float:
    """Wall-clock time of the store's t=0. Pods the tutor saw being created sharpen the source's
    own start time: a pod created at wall time c and first seen at t means t=0 is at least c - t
    (the store keeps the largest such bound, Observations.created_bound)."""
    bounds = [b for b in (store.started_at, store.obs.created_bound) if b is not None]
    return max(bounds) if bounds else time.time() - store.now


class _Names:
    """Pod name -> (lws, group), from its name. Which LWS a name belongs to depends on no other
    LWS's name (a worker's `<lws>-<g>-<i>` is tried before a leader's), so one LWS's evidence is
    found without the rest of the namespace (`only`)."""

    def __init__(self, store: Store, namespace: str, only: str | None = None):
        if only is None:
            lws_objs = store.all("LeaderWorkerSet", namespace)
            self.lws = {o.name(x) for x in lws_objs} | store.lws_with_pods(namespace)
            self.lws |= {str(o.event_regarding(e).get("name", "")) for e in store.events_for(namespace)
                         if o.event_regarding(e).get("kind") == kinds.LEADER_WORKER_SET.kind}
        else:
            live = store.get("LeaderWorkerSet", only, namespace)
            lws_objs = [live] if live is not None else []
            known = live is not None or store.pods_of(only, namespace) or any(
                o.event_regarding(e).get("kind") == kinds.LEADER_WORKER_SET.kind for e in store.events_about(only, namespace))
            self.lws = {only} if known else set()
        self.lws_uid = {o.name(x): o.uid(x) for x in lws_objs if o.uid(x)}
        self.lws.discard("")

    def mine(self, name: str) -> bool:
        """Whether a pod (or the subject of an Event) may be named after one of these LWS: the
        cheap test that spares a busy namespace's other names the regular expressions."""
        return any(lws in self.lws for lws in named_after(name))

    def of(self, pod: str) -> tuple[str, int] | None:
        for rx in (_WORKER_RE, _LEADER_RE):
            m = rx.match(pod)
            if m and m.group(1) in self.lws:
                return m.group(1), int(m.group(2))
        return None


def build(store: Store, namespace: str, only: str | None = None) -> Timeline:
    """The namespace's timeline, or `only` one LWS's: exactly that LWS's facts of the whole one
    (below MAX_FACTS, which bounds what is built)."""
    anchor = anchor_of(store)
    names = _Names(store, namespace, only)
    facts: list[Fact] = []

    def wall(t: float) -> float:
        return anchor + t

    uid_hists = store.obs.uids.items() if only is None else [
        (pod, hist) for pod, hist in store.obs.uids.items() if names.mine(pod)]
    # What the tutor watched: every UID of every pod, its deletion and its going.
    known: dict[str, list[str]] = {}
    for pod, hist in uid_hists:
        where = names.of(pod)
        if where is None:
            continue
        lws, group = where
        prev = ""
        for seen in hist:
            created = parse_time(seen.created)
            facts.append(Fact(created[0] if created else wall(seen.first_t), Kind.POD_CREATED, lws, group, pod,
                              seen.uid, seen.revision, prev, "watched", False, seen))
            if seen.deletion is not None:
                ts = parse_time(seen.deletion[0])
                if ts is not None:
                    facts.append(Fact(ts[0] - seen.deletion[1], Kind.POD_DELETING, lws, group, pod, seen.uid,
                                      seen.revision, "", "object", False, seen))
            if seen.gone_t is not None:
                facts.append(Fact(wall(seen.gone_t), Kind.POD_GONE, lws, group, pod, seen.uid, seen.revision,
                                  "", "watched", False, seen))
            known.setdefault(pod, []).append(seen.uid)
            prev = seen.uid
    # Restarts: the store notes a rising restartCount, also one already above 0 when the pod is
    # first seen; that one happened before the tutor looked, and lastState says when.
    restarted = set()
    first_seen = {seen.uid: seen.first_t for _, hist in uid_hists for seen in hist}
    live = {o.uid(p): p for name, p in store.pods_named(namespace).items() if only is None or names.mine(name)}
    for r in store.obs.restarts:
        where = names.of(r.pod) if only is None or names.mine(r.pod) else None
        if where is None:
            continue
        restarted.add(r.uid)
        detail = f"#{r.count}" + (f", exit {r.exit_code}" if r.exit_code is not None else "")
        finished = _finished(live.get(r.uid)) if first_seen.get(r.uid) == r.t else None
        if finished is not None:
            facts.append(Fact(finished, Kind.RESTARTED, *where, r.pod, r.uid, "", detail, "object", False, r))
        else:
            facts.append(Fact(wall(r.t), Kind.RESTARTED, *where, r.pod, r.uid, "", detail, "watched", False, r))

    # What the cluster kept: LWS events, and pod events that name a pod's UID.
    uid_from_events: dict[tuple[str, str], tuple[float, bool, Obj]] = {}
    event_restarts: dict[str, tuple[int, Fact]] = {}
    killed: dict[str, tuple[float, bool]] = {}  # pod UID -> when the kubelet began stopping it
    for ev in store.events_for(namespace):
        about = o.event_regarding(ev)
        kind, name = about.get("kind"), str(about.get("name", ""))
        if only is not None and name != only and not names.mine(name):
            continue
        times = occurrences(ev)
        if not times:
            continue
        if kind == kinds.LEADER_WORKER_SET.kind:
            if only is not None and name != only:
                continue  # another LWS named like one of its pods
            if about.get("uid") and names.lws_uid.get(name, about["uid"]) != about["uid"]:
                continue  # about an earlier LeaderWorkerSet of that name, deleted since
            facts.extend(_lws_facts(ev, name, times))
        elif kind == "Pod":
            where = names.of(name)
            uid = str(about.get("uid") or "")
            if where is None or not uid:
                continue
            if uid not in known.get(name, []):
                at, precise = times[0]
                if (name, uid) not in uid_from_events or at < uid_from_events[(name, uid)][0]:
                    uid_from_events[(name, uid)] = (at, precise, ev)
            if o.event_reason(ev) == KILLING_REASON:
                killed[uid] = min(killed.get(uid, times[0]), times[0])
            if o.event_reason(ev) in RESTART_POD_REASONS or (
                    o.event_reason(ev) in ("Started", "Created") and o.event_count(ev) > 1):
                # One restart leaves both a Created and a Started event counted twice: one line
                # per UID, from the most telling of them, whatever order the list has.
                rank = EVENT_RESTART_RANK.index(o.event_reason(ev))
                if uid not in restarted and rank < event_restarts.get(uid, (len(EVENT_RESTART_RANK),))[0]:
                    at, precise = times[-1]
                    event_restarts[uid] = (rank, Fact(at, Kind.RESTARTED, *where, name, uid, "", o.event_reason(ev),
                                                      "event", precise, ev))
    facts.extend(fact for _, fact in event_restarts.values())
    # UIDs known only from events: in time order among the watched ones, each replacing the one before.
    by_pod: dict[str, list[tuple[float, bool, str, Obj]]] = {}
    for (pod, uid), (at, precise, ev) in uid_from_events.items():
        by_pod.setdefault(pod, []).append((at, precise, uid, ev))
    for pod, found in by_pod.items():
        where = names.of(pod)
        assert where is not None  # by_pod holds the pods names.of placed only (uid_from_events)
        lws, group = where
        chain = sorted([(f.at, f.precise, f.uid, f.evidence, f.revision) for f in facts
                        if f.kind is Kind.POD_CREATED and f.pod == pod]
                       + [(at, precise, uid, ev, "") for at, precise, uid, ev in found], key=lambda c: c[0])
        facts = [f for f in facts if not (f.kind is Kind.POD_CREATED and f.pod == pod)]
        prev = ""
        for at, precise, uid, evidence, rev in chain:
            source = "event" if isinstance(evidence, dict) else "watched"
            facts.append(Fact(at, Kind.POD_CREATED, lws, group, pod, uid, rev, prev, source, precise, evidence))
            prev = uid
    # Live pods' revisions fill in what events cannot say.
    facts = [f if f.revision or f.uid not in live else _with(f, revision=o.revision(live[f.uid])) for f in facts]
    # Only what happened to the LeaderWorkerSet that exists now: one deleted and created again
    # under the same name left events about pods of the same names.
    lws_objs = store.all("LeaderWorkerSet", namespace) if only is None else [
        x for x in (store.get("LeaderWorkerSet", only, namespace),) if x is not None]
    born = {name: parse_time(o.dig(x, "metadata", "creationTimestamp")) for x in lws_objs if (name := o.name(x))}
    facts = [f for f in facts if (b := born.get(f.lws)) is None or f.at >= b[0]]
    tl = Timeline(_chained(facts), anchor, names.lws)
    grace = {o.name(p): o.int_or_none(o.dig(p, "spec", "terminationGracePeriodSeconds"))
             for p in live.values()}
    inferred = _recreated_by_effects(tl, killed, grace)
    return Timeline(list(tl.facts) + inferred, anchor, names.lws) if inferred else tl


def _recreated_by_effects(tl: Timeline, killed: dict[str, tuple[float, bool]],
                          grace: dict[str, int | None]) -> list[Fact]:
    """The recreations no LWS event tells: a leader UID deleted (its deletion asked for, the
    kubelet stopping it, it gone, or another UID in its place) outside a rollout, right after a
    container of its group restarted, while no recreation event covers that UID. Timed by its
    deletion when that is known, else by the restart it followed."""
    out = []
    for lws in sorted(tl.lws_names):
        told = tl.of(lws, kinds=(Kind.GROUP_RECREATED,))
        for group in sorted({f.group for f in tl.of(lws, kinds=(Kind.POD_CREATED,)) if f.group is not None}):
            leader = f"{lws}-{group}"
            for born in tl.uids(leader):
                fact = _by_effects(tl, born, killed, float(grace.get(leader) or DEFAULT_GRACE), told)
                if fact is not None:
                    out.append(fact)
    return out


def _by_effects(tl: Timeline, born: Fact, killed: dict[str, tuple[float, bool]], grace: float,
                told: list[Fact]) -> Fact | None:
    uid, group = born.uid, born.group
    nxt = tl.successor(born.pod, uid)
    gone = [f for f in tl.of(born.lws, group, (Kind.POD_DELETING, Kind.POD_GONE), pod=born.pod) if f.uid == uid]
    if nxt is None and not gone:
        return None  # still the leader, as far as the evidence goes
    if any(tl.in_rollout(f) for f in [*gone, *([nxt] if nxt else [])]):
        return None
    # when its deletion was asked for (or reached the kubelet); else only that it was over by then
    asked = [(f.at, f.precise) for f in gone if f.kind is Kind.POD_DELETING] + ([killed[uid]] if uid in killed else [])
    over = [(f.at, f.precise) for f in gone if f.kind is Kind.POD_GONE] + ([(nxt.at, nxt.precise)] if nxt else [])
    at, precise = min(asked) if asked else min(over)
    wait = REACTION + (0.0 if asked else grace)
    # since the leader was created (its creationTimestamp, to the second), up to its deletion, and
    # no longer before it than LWS takes to react (or a grace period, when only its end is known)
    since = Instant(max(born.at, at - wait), False)
    restarts = [r for r in tl.of(born.lws, group, (Kind.RESTARTED,))
                if since.maybe_before(r.at) and maybe_in_order(r, Instant(at, precise)) and not tl.in_rollout(r)]
    if not restarts:
        return None  # replaced, but nothing in the group failed first: deleted by hand
    first = restarts[-1]
    # an event naming this UID, or naming none, from around the restart to the new leader
    if any(f.uid == uid or (not f.uid and Instant(f.at, False).within(first.at, nxt.at if nxt else at))
           for f in told):
        return None  # an event tells it
    if not asked:
        at, precise = first.at, False
    return Fact(at, Kind.GROUP_RECREATED, born.lws, group, first.pod, uid, "", "", "effects", precise, first)


def _chained(facts: list[Fact]) -> list[Fact]:
    """Each POD_CREATED names the UID it replaced: the pod's UID before it, in time order."""
    prev: dict[str, str] = {}
    out = []
    for f in sorted(facts, key=lambda f: f.at):
        if f.kind is Kind.POD_CREATED:
            if f.detail != prev.get(f.pod, ""):  # most are chained already: no copy for those
                f = _with(f, detail=prev.get(f.pod, ""))
            prev[f.pod] = f.uid
        out.append(f)
    return out


def _finished(pod: Obj | None) -> float | None:
    """When a container of the pod last ended, from its lastState (wall clock)."""
    for cs in o.container_statuses(pod or {}):
        ts = parse_time(o.dig(cs, "lastState", "terminated", "finishedAt"))
        if ts is not None:
            return ts[0]
    return None


def _with(f: Fact, **kw: Any) -> Fact:
    from dataclasses import replace
    return replace(f, **kw)


_GROUP_RE = re.compile(r"\bgroup (\d+)\b")
_WORKER_POD_RE = re.compile(r"Worker pod (\S+) failed")
_RECREATE_WORDS_RE = re.compile(r"recreat", re.I)
_KEY_RE = re.compile(r"\bkey (\S+)")
_REPLICA_RE = re.compile(r"Updating replicas? (\d+)")


def _revision_of(related: Obj, lws: str) -> str:
    """The revision key a ControllerRevision named `<lws>-<key>-<n>` stands for, or ""."""
    name = str(related.get("name") or "") if related.get("kind") == "ControllerRevision" else ""
    key = name[len(lws) + 1:].rpartition("-")[0] if name.startswith(lws + "-") else ""
    return key


def _first_or_update(related: Obj, lws: str, msg: str) -> str:
    """"initial" for an LWS's first revision, "update" for a later one, by the revision history:
    the ControllerRevision the event names is `<lws>-<key>-<revision>`, and the first is 1. Only
    an event that names none falls back to its words (v0.9 says "a newly created LeaderWorkerSet")."""
    name = str(related.get("name") or "") if related.get("kind") == "ControllerRevision" else ""
    number = name.rpartition("-")[2] if name.startswith(lws + "-") else ""
    if number.isdigit():
        return "initial" if int(number) == 1 else "update"
    return "initial" if "newly created" in msg else "update"


def _recreates(ev: Obj, reason: str, msg: str) -> bool:
    """Whether an LWS event tells a group's recreation: by its reason (v0.9+, v0.8 and older),
    else, for a reason renamed, by what it does (deleting a leader pod: action Delete, related
    Pod, as v0.9's RecreateGroup does) or says (it recreates a group)."""
    if reason in RECREATE_REASONS:
        return True
    # the action as v0.9 writes it, or in another tense
    if str(ev.get("action") or "") in ("Delete", "Deleted", "Deleting") \
            and o.as_dict(ev.get("related")).get("kind") == "Pod":
        return True
    return bool(_RECREATE_WORDS_RE.search(reason) or (_RECREATE_WORDS_RE.search(msg) and _GROUP_RE.search(msg)))


def _lws_facts(ev: Obj, lws: str, times: list[tuple[float, bool]]) -> list[Fact]:
    reason, msg = o.event_reason(ev), o.event_message(ev)
    related = o.as_dict(ev.get("related"))
    out = []
    for at, precise in times:
        if _recreates(ev, reason, msg):
            m = _GROUP_RE.search(msg)
            worker = _WORKER_POD_RE.search(msg)
            deleted = related if related.get("kind") == "Pod" else {}
            uid = str(deleted.get("uid") or "")
            leader = _LEADER_RE.match(str(deleted.get("name") or ""))
            group = int(m.group(1)) if m else int(leader.group(2)) if leader and leader.group(1) == lws else None
            out.append(Fact(at, Kind.GROUP_RECREATED, lws, group,
                            worker.group(1) if worker else "", uid, "", msg, "event", precise, ev))
        elif reason == "CreatingRevision":
            m = _KEY_RE.search(msg)
            key = _revision_of(related, lws) or (m.group(1) if m else "")
            out.append(Fact(at, Kind.REVISION_CREATED, lws, None, "", "", key,
                            _first_or_update(related, lws, msg), "event", precise, ev))
        elif reason == "GroupsUpdating" and (m := _REPLICA_RE.search(msg)):
            single = msg.startswith("Updating replica ") and " to " not in msg
            out.append(Fact(at, Kind.GROUPS_UPDATING, lws, int(m.group(1)) if single else None, "", "",
                            _revision_of(related, lws),
                            msg, "event", precise, ev))
        elif reason == "AllGroupsReady":
            out.append(Fact(at, Kind.ALL_READY, lws, None, "", "", "", msg, "event", precise, ev))
        elif reason not in KNOWN_LWS_REASONS:
            about = _LEADER_RE.match(str(related.get("name") or "")) if related.get("kind") == "Pod" else None
            group = int(about.group(2)) if about and about.group(1) == lws else None
            out.append(Fact(at, Kind.LWS_EVENT, lws, group, "", "", "", f"{reason}: {msg}", "event", precise, ev))
    return out


_timeline_cached = per_store_version(build)
_timeline_of_cached: Callable[[Store, tuple[str, str]], Timeline] = cached_by(lambda store, key: evidence_version(store, key[1]),
                                lambda store, key: build(store, *key))
