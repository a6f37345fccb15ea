"""What happened to each LeaderWorkerSet, told in order, each effect tied to its cause.

Built on the timeline (tutor/cluster/timeline.py: the facts on one time axis, and the rules of what
belongs to a rollout). The story groups its facts into episodes: an LWS created, a group recreated
after a failure, a rolling update, a pod the scheduler could not place. A line names its cause only
from evidence, never from what usually happens:
- a RecreateGroup event's own message names the failed worker; a restart of that worker seen
  before it is the failure it reacts to; a recreation no event tells (the timeline's, known by
  its effects) is told as such, after the restart it followed;
- a worker StatefulSet removed with its pods is garbage collection only when its owner reference
  names the deleted leader's UID, and each pod's names that StatefulSet;
- a new UID is made by its controller (the pod's owner reference), a new worker by the worker
  StatefulSet whose owner is the new leader;
- the rollout's order comes from LWS's GroupsUpdating events, else from when each group's pods got
  the new revision.
LWS's oddities are lines marked `odd`: a RecreateGroup inside a rollout when nothing in the group
restarted, and a new leader Running beside an old worker (the store's mixed-revision moments).

Everything the tutor saw itself is timed on its own clock (`t`, mapped through the timeline's
anchor); the cluster's records carry wall-clock times, some only to the second (`precise=False`).
A Story is built once per store version (`story(store, namespace)`), from the timeline's bounded
facts, and keeps at most MAX_EPISODES per LWS (the newest).

A line, its cause and an episode's title are facts, not words: a kind and the fields its words
are made from (a pod, a UID, a revision, a span in seconds, a flag). tutor/narration words them in
either language, so switching language rebuilds nothing, and nothing decides by reading words.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tutor.cluster import objects as o
from tutor.cluster.derived import cached_by, per_store_version
from tutor.cluster.instant import Instant, Timed
from tutor.cluster.objects import Obj
from tutor.cluster.observations import MixedRevisions, RestartSeen, StatefulSetSeen, UidSeen
from tutor.cluster.store import Store
from tutor.cluster.timeline import Fact, Kind, Timeline, Window, evidence_version, occurrences, parse_time, timeline, timeline_of

MAX_EPISODES = 40  # per LWS, the newest
EPISODE_GAP = 30.0  # seconds: failure facts of one group further apart than this are two episodes
SIGHTING_SLACK = 0.25  # seconds past a whole-second creationTimestamp still counted as seeing the creation
DEFAULT_GRACE = 30  # seconds: a pod's terminationGracePeriodSeconds unless its deletion says otherwise


@dataclass(frozen=True)
class Fields:
    """The facts a line's, a cause's or a title's words are made from, by name; hashable, so a
    line is a value (the cached story, equal lines compare equal)."""

    pairs: tuple[tuple[str, object], ...] = ()

    @classmethod
    def of(cls, **named: object) -> Fields:
        return cls(tuple(named.items()))

    def as_dict(self) -> dict[str, object]:
        return dict(self.pairs)


@dataclass(frozen=True)
class Cause:
    """Why a line happened, as the evidence shows it: a kind (restarted-before, event, owner, ...)
    and its fields."""

    kind: str
    fields: Fields = Fields()

    @classmethod
    def of(cls, kind: str, **named: object) -> Cause:
        return cls(kind, Fields.of(**named))


@dataclass(frozen=True)
class Line(Timed):
    at: float  # wall-clock seconds since the epoch
    group: int | None
    kind: str  # what it is: restarted, recreate-group, garbage-collected, new-uid, ...
    what: Fields  # what its words are made from, by kind (tutor/narration)
    cause: Cause | None = None  # only where the data shows the link
    precise: bool = True  # False: known to the second only
    odd: bool = False  # an LWS oddity, shown as what it is
    pods: tuple[str, ...] = ()  # the pods it is about: restarted's and new-uid's pod; mixed-revisions' on the new one
    old: tuple[str, ...] = ()  # mixed-revisions: the pods still on the old revision


@dataclass(frozen=True)
class Episode:
    lws: str
    kind: str  # created | failure | rollout | scheduling | gang-held | gang-placed | event (LWS events of unknown reasons)
    group: int | None  # the group it is about (None: the whole LWS)
    title: Fields  # what its title is made from, by kind (tutor/narration)
    lines: tuple[Line, ...]
    failed: str = ""  # a failure episode: the pod whose failure LWS reacted to, where evidence names it

    @property
    def start(self) -> float:
        return self.lines[0].at

    @property
    def end(self) -> float:
        return self.lines[-1].at

    def offset(self, line: Line) -> float:
        return line.at - self.start


@dataclass(frozen=True)
class Story:
    episodes: tuple[Episode, ...]  # by LWS name, then in time order
    anchor: float | None = None  # wall-clock time of the tutor's t=0: what it saw itself, it saw from then on

    def of(self, lws: str | None = None, kind: str | None = None, group: int | None = None) -> list[Episode]:
        return [e for e in self.episodes if (lws is None or e.lws == lws) and (kind is None or e.kind == kind)
                and (group is None or e.group == group)]

    def lws_names(self) -> list[str]:
        return list(dict.fromkeys(e.lws for e in self.episodes))

    def step_episode(self, lws: str, episode: str, group: int | None = None, failed: str = "") -> Episode | None:
        """The episode of one LWS's story a step is about (lesson.yaml's `story`): "recreation", the
        newest recreation of `group` after a failure (of the pod `failed` names, when there is one:
        the one the step fails); "rollout", the newest rolling update; "gang-held" and "gang-placed",
        the newest gang of `group` held by the scheduler, and placed whole. tutor/narration tells it
        short, for the step's verdict and the lesson's recap."""
        if episode == "recreation":
            eps = [e for e in self.of(lws, "failure", group) if any(line.kind == "recreate-group" for line in e.lines)]
            eps = [e for e in eps if e.failed == failed] or eps if failed else eps
        elif episode == "rollout":
            eps = self.of(lws, "rollout")
        elif episode in ("gang-held", "gang-placed"):
            eps = self.of(lws, episode, group)
        else:
            return None
        return eps[-1] if eps else None


# --- building ---------------------------------------------------------------------------------

def story(store: Store, namespace: str) -> Story:
    """The Story of a namespace, built once per store version."""
    return _story_cached(store, namespace)


def story_of(store: Store, namespace: str, lws: str) -> Story:
    """Only the episodes of one LWS, exactly those of story(store, namespace).of(lws), built
    without the others' (a step's recap in a namespace of hundreds of groups) from its own
    timeline (timeline_of); again only when its evidence changed."""
    return _story_of_cached(store, (namespace, lws))


def build(store: Store, namespace: str) -> Story:
    ev = _Evidence(store, namespace, timeline(store, namespace))
    out = [mine for lws in sorted(ev.tl.lws_names) if (mine := _episodes(ev, lws))]
    # the LWS that moved last comes last: the newest at the bottom
    return Story(tuple(e for mine in sorted(out, key=lambda eps: max(e.end for e in eps)) for e in mine), ev.anchor)


def _build_of(store: Store, key: tuple[str, str]) -> Story:
    namespace, lws = key
    ev = _Evidence(store, namespace, timeline_of(store, namespace, lws))
    return Story(tuple(_episodes(ev, lws)) if lws in ev.tl.lws_names else (), ev.anchor)


def _episodes(ev: _Evidence, lws: str) -> list[Episode]:
    """One LWS's episodes in time order, the newest MAX_EPISODES; each reads only that LWS's facts."""
    mine = _created(ev, lws) + _rollouts(ev, lws) + _scheduling(ev, lws) + _gangs(ev, lws) + _unknown(ev, lws)
    for g in sorted({f.group for f in ev.tl.of(lws) if f.group is not None}):
        mine += _failures(ev, lws, g)
    return sorted((e for e in mine if e.lines), key=lambda e: e.start)[-MAX_EPISODES:]


class _Evidence:
    """The timeline plus what the store keeps beside it, on one clock."""

    def __init__(self, store: Store, namespace: str, tl: Timeline):
        self.store, self.ns, self.tl = store, namespace, tl
        self.where = {f.pod: (f.lws, f.group) for f in tl.facts if f.kind is Kind.POD_CREATED}
        # the tutor's clock against the cluster's: the timeline's anchor, sharpened by the Events
        # seen (each happened before the tutor saw it)
        bound = store.obs.start_bound
        self.anchor = max(tl.anchor, bound) if bound is not None else tl.anchor

    def wall(self, t: float) -> float:
        return self.anchor + t

    def at(self, f: Fact) -> float:
        """A fact's time, on the story's clock."""
        return f.at + (self.anchor - self.tl.anchor) if f.source == "watched" else f.at

    def seen(self, pod: str, uid: str) -> UidSeen | None:
        return self.store.obs.uid_seen(pod, uid)

    def born(self, f: Fact) -> tuple[float, bool]:
        """When a pod UID was created: the tutor's own sighting when it saw the creation (within
        the second of creationTimestamp), else the cluster's whole-second time."""
        seen = f.evidence if isinstance(f.evidence, UidSeen) else None
        created = parse_time(seen.created) if seen else None
        if seen is None or created is None:
            return self.at(f), f.precise
        sighted = self.wall(seen.first_t)
        return (sighted, True) if self.sighted(f) else (created[0], False)

    def sighted(self, f: Fact) -> bool:
        seen = f.evidence if isinstance(f.evidence, UidSeen) else None
        created = parse_time(seen.created) if seen else None
        # creationTimestamp is cut to the second; the watch brings the pod milliseconds later,
        # which can be in the next second, and the two clocks agree only to a fraction of one
        return seen is not None and created is not None \
            and created[0] <= self.wall(seen.first_t) < Instant(*created).latest + SIGHTING_SLACK

    def pods_of_group(self, lws: str, group: int | None) -> list[str]:
        return sorted(p for p, (lw, g) in self.where.items() if lw == lws and g == group)

    def statefulsets_owned_by(self, uid: str) -> list[StatefulSetSeen]:
        return [s for s in self.store.obs.statefulsets.values() if s.owner and s.owner[2] == uid]

    def statefulset(self, uid: str) -> StatefulSetSeen | None:
        return self.store.obs.statefulsets.get(uid)


# --- a group rebuilt: garbage collection, new UIDs, Running again --------------------------------

def _rebuilt(ev: _Evidence, lws: str, group: int | None, leader: str, old_uid: str, start: float,
             until: float | None, revision: str = "") -> list[Line]:
    """What followed the deletion of a group's leader (UID old_uid): the worker StatefulSet and its
    pods removed by the garbage collector, the new UIDs with their makers, and the group Running."""
    lines: list[Line] = []
    for sts in ev.statefulsets_owned_by(old_uid):
        if sts.gone_t is None:
            continue
        pods = [(pod, s) for pod in ev.pods_of_group(lws, group) for s in ev.store.obs.uid_history(pod)
                if s.owner and s.owner[2] == sts.uid and s.gone_t is not None]
        at = ev.wall(min([sts.gone_t] + [s.gone_t for _, s in pods if s.gone_t is not None]))  # each, as kept
        lines.append(Line(at, group, "garbage-collected",
                          Fields.of(statefulset=sts.name, pods=tuple(pod for pod, _ in pods)),
                          Cause.of("deleted-owner", leader=leader, uid=old_uid)))
    new_leader = next((f for f in ev.tl.uids(leader) if f.detail == old_uid), None)
    if new_leader is None:
        return lines
    new_uids = [new_leader]
    lines.append(_new_uid(ev, new_leader, revision, _made_by(ev, new_leader, None)))
    # each worker's first new UID after its new leader (less a second: whole-second times), unless
    # its owner references name another leader
    floor = ev.born(new_leader)[0] - 1.0
    later = until if until is not None else float("inf")
    for pod in ev.pods_of_group(lws, group):
        f = next((f for f in ev.tl.uids(pod) if pod != leader and f.detail and floor <= ev.born(f)[0] <= later
                  and _owner_leader(ev, f) in (new_leader.uid, None)), None)
        if f is not None:
            new_uids.append(f)
            lines.append(_new_uid(ev, f, revision, _made_by(ev, f, new_leader)))
    back = _running_again(ev, new_uids, start, group)
    if back is not None:
        lines.append(back)
    return lines


def _owner_leader(ev: _Evidence, f: Fact) -> str | None:
    """The UID of the leader pod owning the worker StatefulSet that made this pod, if known."""
    seen = f.evidence if isinstance(f.evidence, UidSeen) else None
    sts = ev.statefulset(seen.owner[2]) if seen and seen.owner else None
    return sts.owner[2] if sts and sts.owner and sts.owner[0] == "Pod" else None


def _made_by(ev: _Evidence, f: Fact, leader: Fact | None) -> Cause | None:
    seen = f.evidence if isinstance(f.evidence, UidSeen) else None
    if seen is None or not seen.owner:
        return None
    kind, name, _ = seen.owner
    if leader is not None:
        if _owner_leader(ev, f) != leader.uid:
            return None
        return Cause.of("new-worker-statefulset", statefulset=name, leader_uid=leader.uid)
    return Cause.of("owner", owner_kind=kind, name=name)


def _new_uid(ev: _Evidence, f: Fact, revision: str, cause: Cause | None) -> Line:
    """A pod's new UID; its revision told only inside a rollout (`revision`, the new one)."""
    at, precise = ev.born(f)
    return Line(at, f.group, "new-uid", Fields.of(pod=f.pod, uid=f.uid, was=f.detail,
                                                  revision=f.revision if revision else ""),
                cause, precise, pods=(f.pod,))


def _running_again(ev: _Evidence, new: list[Fact], start: float, group: int | None) -> Line | None:
    """When every new pod of the group was first seen Running (the tutor's own sightings)."""
    seen = [ev.seen(f.pod, f.uid) for f in new]
    # Only when the tutor saw each pod get to Running: a pod already Running when the tutor first
    # saw it says nothing about when it got there. Seeing it before Running is enough: on a busy
    # machine the watch can bring a new pod later than its creation second allows (`sighted`).
    if not seen or any(s is None or s.running_t is None or not (s.running_t > s.first_t or ev.sighted(f))
                       for s, f in zip(seen, new)):
        return None
    at = ev.wall(max(s.running_t for s in seen if s is not None and s.running_t is not None))  # each, as tested
    return Line(at, group, "running-again", Fields.of(group=group, took=max(0.0, at - start)))


# --- episodes ---------------------------------------------------------------------------------

def _created(ev: _Evidence, lws: str) -> list[Episode]:
    out = []
    for rev in ev.tl.of(lws, kinds=(Kind.REVISION_CREATED,)):
        if rev.detail != "initial":
            continue
        lines = [Line(rev.at, None, "created", Fields.of(lws=lws, revision=rev.revision),
                      Cause.of("event", reason="CreatingRevision"), rev.precise)]
        ready = next((f for f in ev.tl.of(lws, kinds=(Kind.ALL_READY,)) if f.at > rev.at), None)
        if ready is not None:
            lines.append(Line(ready.at, None, "all-ready", Fields.of(took=ready.at - rev.at),
                              Cause.of("event", reason="AllGroupsReady"), ready.precise))
        out.append(Episode(lws, "created", None, Fields.of(lws=lws), tuple(lines)))
    return out


def _failures(ev: _Evidence, lws: str, group: int) -> list[Episode]:
    """A group's failures outside rollouts, one episode per failure and what LWS did about it."""
    clusters: list[list[Fact]] = []
    grace = float(DEFAULT_GRACE)
    for f in ev.tl.failures(lws, group):
        if f.kind is Kind.POD_DELETING:
            seen = f.evidence if isinstance(f.evidence, UidSeen) else None
            if seen is not None and seen.deletion is not None:
                grace = max(grace, float(seen.deletion[1]))
            continue  # told by the line that explains it (RecreateGroup, garbage collection)
        cur = clusters[-1] if clusters else None
        kinds = {x.kind for x in cur} if cur else set()
        # A recreated group's new pods come only once the old ones are gone: after their grace
        # period (a real kubelet waits it out; an `sh -c` loop ignores SIGTERM).
        gap = EPISODE_GAP + (grace if f.kind is Kind.POD_CREATED and Kind.GROUP_RECREATED in kinds else 0.0)
        fresh = (cur is None or f.at - cur[-1].at > gap
                 or (f.kind is Kind.RESTARTED and Kind.GROUP_RECREATED in kinds)
                 or (f.kind is Kind.GROUP_RECREATED and Kind.GROUP_RECREATED in kinds))
        if fresh or cur is None:  # cur is None only when fresh
            clusters.append([f])
        else:
            cur.append(f)
    return [_failure(ev, lws, group, facts) for facts in clusters]


def _failure(ev: _Evidence, lws: str, group: int, facts: list[Fact]) -> Episode:
    leader = f"{lws}-{group}"
    lines: list[Line] = []
    restarts = [f for f in facts if f.kind is Kind.RESTARTED]
    recreated = next((f for f in facts if f.kind is Kind.GROUP_RECREATED), None)
    named = recreated.pod if recreated is not None else ""  # the pod the event names, or that restarted
    if recreated is not None and named and not any(r.pod == named for r in restarts):
        # The worker the event names, restarted just before: its restart belongs here even where
        # the timeline counted it into a rollout window that LWS's own events opened around it.
        near = [r for r in ev.tl.of(lws, group, (Kind.RESTARTED,), pod=named)
                if recreated.at - EPISODE_GAP <= r.at and r.maybe_before(recreated.at)]
        restarts += near[-1:]
    for f in restarts:
        lines.append(_restart_line(ev, f))
    if recreated is not None:
        recreate = _recreate_line(ev, recreated, restarts, group, odd=False)
        # The tutor sees a restart when the watch brings it, which can be a few milliseconds after
        # LWS, acting on that very restart, recorded its event: it happened no later than that.
        lines = [replace(x, at=recreate.at) if x.kind == "restarted" and x.at > recreate.at and named in x.pods
                 else x for x in lines]
        lines.append(recreate)
        if recreated.uid:
            lines += _rebuilt(ev, lws, group, leader, recreated.uid, (lines[0].at if lines else recreated.at),
                              None)
        title = Fields.of(group=group, how="recreated")
        # the pod LWS's event names, else the one seen restarting last before it
        who = named or next((r.pod for r in reversed(restarts)
                                                 if r.maybe_before(recreated.at)), "")
    else:
        # UIDs replaced without a RecreateGroup event: shown as such, nothing said about why
        for f in facts:
            if f.kind is Kind.POD_CREATED:
                lines.append(_new_uid(ev, f, "", _made_by(ev, f, None)))
        title = Fields.of(group=group, how="restarted" if restarts else "replaced")
        who = ""
    return Episode(lws, "failure", group, title, _settled(lines), who)


def _restart_line(ev: _Evidence, f: Fact) -> Line:
    r = f.evidence if isinstance(f.evidence, RestartSeen) else None
    # the restart count and exit code the tutor saw, else only the kubelet's event (its reason)
    what = (Fields.of(pod=f.pod, count=r.count, exit_code=r.exit_code) if r is not None
            else Fields.of(pod=f.pod, event=f.detail))
    # a restart the tutor saw happen is timed on its own clock, like the pods' sightings
    return Line(ev.at(f), f.group, "restarted", what, None, f.precise or (r is not None and f.source == "watched"),
                pods=(f.pod,))


def _recreate_line(ev: _Evidence, f: Fact, restarts: list[Fact], group: int, odd: bool) -> Line:
    leader = f"{f.lws}-{group}"
    worker = f.pod  # the pod the event names; for one known by its effects, the pod that restarted
    # the reason as the event has it: RecreateGroup, or another LWS's word for it ("" for one
    # known by its effects, which no event tells)
    reason = o.event_reason(f.evidence) if f.source != "effects" and isinstance(f.evidence, dict) else ""
    what = Fields.of(leader=leader, uid=f.uid, group=group, reason=reason, by_effects=f.source == "effects")
    # The event is recorded once the deletion is asked for: when the tutor saw the UID the event
    # names start terminating is when LWS deleted it.
    seen = ev.seen(leader, f.uid) if f.uid else None
    at = min(f.at, ev.wall(seen.terminating_t)) if seen and seen.terminating_t is not None else f.at
    earlier = [r for r in restarts if ev.at(r) - r.slack <= at]
    worker = worker or (earlier[-1].pod if earlier else "")  # an event that names no pod: the one that restarted
    before = [r for r in earlier if r.pod == worker]
    cause: Cause | None
    if odd:
        cause = Cause.of("rollout-not-failure", group=group)
    elif before:
        cause = Cause.of("restarted-before", pod=worker, leader=worker == leader,
                         gap=max(0.0, at - ev.at(before[-1])))
    elif f.source == "effects" or not worker:
        cause = None
    else:
        # LWS's message calls every pod of a group a worker, its leader too
        cause = Cause.of("event-names-failed", pod=worker, leader=worker == leader)
    return Line(at, group, "recreate-group", what, cause, f.precise, odd)


def _rollouts(ev: _Evidence, lws: str) -> list[Episode]:
    out = []
    windows: list[Window] = []
    for w in ev.tl.rollouts(lws):
        # LWS may report all groups ready between two groups of one rollout; a window that brings
        # no new revision of its own goes on with the one before
        if windows and (not w.revision or windows[-1].revision[:8] == w.revision[:8]):
            windows[-1] = replace(windows[-1], end=w.end)
        else:
            windows.append(w)
    for i, w in enumerate(windows):
        last = i == len(windows) - 1
        out.append(_rollout(ev, lws, w, last))
    return out


def _rollout(ev: _Evidence, lws: str, w: Window, last: bool) -> Episode:
    tl = ev.tl
    lines: list[Line] = []
    new_rev = w.revision
    rev_fact = next((f for f in tl.of(lws, kinds=(Kind.REVISION_CREATED,))
                     if f.detail == "update" and f.within(w.start, w.end)), None)
    if rev_fact is not None and rev_fact.revision:
        new_rev = rev_fact.revision
    replaced = [f for f in tl.of(lws, kinds=(Kind.POD_CREATED,))
                if f.detail and f.revision and new_rev and f.revision.startswith(new_rev[:8])
                and Instant(ev.born(f)[0], False).within(w.start, w.end)]
    old_revs = [s.revision for f in replaced if (s := ev.seen(f.pod, f.detail)) is not None and s.revision]
    earlier = [f.revision for f in tl.of(lws, kinds=(Kind.REVISION_CREATED,)) if f.revision and f.at < w.start
               and not f.revision.startswith(new_rev[:8])]
    old_rev = old_revs[0] if old_revs else earlier[-1] if earlier else ""
    start_at = rev_fact.at if rev_fact is not None else w.start
    if not new_rev:
        return Episode(lws, "rollout", None, Fields(), ())  # no revision changed: nothing rolled
    lines.append(Line(start_at, None, "revision", Fields.of(old=old_rev, new=new_rev),
                      Cause.of("template-changed", lws=lws) if rev_fact else None,
                      rev_fact.precise if rev_fact else False))
    # The order: LWS's own "Updating replica g" events, else when each group's pods changed revision.
    updating: dict[int | None, Fact] = {f.group: f for f in tl.of(lws, kinds=(Kind.GROUPS_UPDATING,))
                if f.group is not None and f.within(w.start, w.end)}
    # A group's turn began with the first sign of it: LWS's event, its old leader terminating, or
    # its first pod of the new revision (LWS may record the event after the pods moved).
    began: dict[int | None, tuple[float, bool]] = {g: (f.at, f.precise) for g, f in updating.items()}
    for f in replaced:
        old = ev.seen(f.pod, f.detail)
        signs = [ev.born(f)] + ([(ev.wall(old.terminating_t), True)] if old and old.terminating_t is not None else [])
        began[f.group] = _earliest(([began[f.group]] if f.group in began else []) + signs)
    groups = sorted(began, key=lambda g: began[g])
    highest = max((g for _, g in ev.where.values() if g is not None), default=None) if groups else None
    for n, g in enumerate(groups):
        upd = updating.get(g)
        at, precise = began[g]
        # highest: the first group replaced is the one of the highest index, as LWS orders a rollout
        what = Fields.of(group=g, first=n == 0, highest=n == 0 and g == highest)
        cause = (Cause.of("groups-updating", message=upd.detail) if upd else
                 Cause.of("got-revision", revision=new_rev))
        lines.append(Line(at, g, "group-replaced", what, cause, precise))
        leader = f"{lws}-{g}"
        new_leader = next((f for f in replaced if f.pod == leader), None)
        if new_leader is not None:
            lines += _rebuilt(ev, lws, g, leader, new_leader.detail, at, w.end, revision=new_rev)
    for f in tl.of(lws, kinds=(Kind.GROUP_RECREATED,)):
        if f.group is not None and f.within(w.start, w.end):
            restarted = [r for r in tl.of(lws, f.group, (Kind.RESTARTED,)) if r.within(w.start, w.end)]
            lines.append(_recreate_line(ev, f, restarted, f.group, odd=not restarted))
    for m in ev.store.obs.mixed:
        if m.lws == lws and Instant(ev.wall(m.t)).within(w.start, w.end):
            lines.append(_mixed_line(ev, m, new_rev))
    # Done when the step's conditions hold: LWS may say all groups are ready (and report
    # updatedReplicas and Available) while the last group's new pods are still starting, so the
    # end is never told before the tutor saw the last of them Running.
    running = [line.at for line in lines if line.kind == "running-again"]
    end = _rollout_end(ev, lws, w, start_at, last, max(running, default=None))
    if end is not None:
        lines.append(end)
    return Episode(lws, "rollout", None, Fields.of(revision=new_rev), _settled(lines))


def _settled(lines: list[Line]) -> tuple[Line, ...]:
    """The lines in time order. `lines` come in the order of cause and effect; a time known only
    to the second stands for any moment of that second, so a line that the evidence puts after
    another (a pod of the new revision after the revision) is not shown before it within that
    second."""
    out: list[Line] = []
    floor = float("-inf")
    for line in lines:
        if not line.precise and line.at < floor < line.latest:
            line = replace(line, at=floor)
        out.append(line)
        floor = max(floor, line.at)
    return tuple(sorted(out, key=lambda line: line.at))


def _earliest(times: list[tuple[float, bool]]) -> tuple[float, bool]:
    """The earliest of some (time, precise): a time known to the second only counts as earlier
    than a precise one when its whole second is over before it."""
    precise = min((t for t in times if t[1]), default=None)
    rough = [t for t in times if not t[1] and (precise is None or Instant(*t).latest <= precise[0])]
    if rough:
        return min(rough)
    assert precise is not None, "no times"  # every caller has at least one
    return precise


def _mixed_line(ev: _Evidence, m: MixedRevisions, new_rev: str) -> Line:
    """A moment when a group ran two revisions: a new pod beside an old one (an old worker still
    running through its grace period, Terminating, beside its group's new leader), and for how
    long (until the tutor saw the group on one revision again, else the old pod go)."""
    new = [(p, r) for p, r in m.pods if new_rev and r.startswith(new_rev[:8])]
    old = [(p, r) for p, r in m.pods if (p, r) not in new]
    end = getattr(m, "until", None)
    for pod, rev in old if end is None else ():
        seen = next((s for s in ev.store.obs.uid_history(pod) if s.revision == rev and s.first_t <= m.t
                     and (s.gone_t is None or s.gone_t >= m.t)), None)
        if seen is not None and seen.gone_t is not None:
            end = seen.gone_t
    span = end - m.t if end is not None else None
    # (pod, revision) of the pods on the new revision and of those on an old one; and of all of
    # them (`pods`), told as they are when it is not new beside old
    what = Fields.of(group=m.group, new=tuple(new), old=tuple(old), pods=tuple(m.pods),
                     terminating=tuple(getattr(m, "terminating", ())), span=span)
    on_new, on_old = ([p for p, _ in new], [p for p, _ in old]) if new and old else ([p for p, _ in m.pods], [])
    return Line(ev.wall(m.t), m.group, "mixed-revisions", what, None, True, True, tuple(on_new), tuple(on_old))


def _rollout_end(ev: _Evidence, lws: str, w: Window, start: float, last: bool, running: float | None = None) -> Line | None:
    """The rollout's last line: when LWS said all groups were ready, or, if later, when the tutor
    saw the last new pod Running (`running`)."""
    if w.end is None:
        return None
    at = max(w.end, running) if running is not None else w.end
    live = ev.store.get("LeaderWorkerSet", lws, ev.ns)
    replicas = o.int_or_none(o.dig(live, "spec", "replicas")) if live else None
    updated = o.int_or_none(o.dig(live, "status", "updatedReplicas")) if live else None
    cond = o.condition(live, "Available") if live else {}
    generation = o.int_or_none(o.dig(live, "metadata", "generation")) if live else None
    observed = o.int_or_none(cond.get("observedGeneration"))
    # For a moment after an apply LWS still shows the old status under the new generation.
    current = generation is None or observed is None or observed >= generation
    available = cond.get("status") == "True" and current
    by_status = last and replicas is not None and updated == replicas and available  # the LWS's status says so too
    running_after = at > w.end  # the tutor saw the last new pod Running after LWS said all were ready
    what = Fields.of(took=max(0.0, at - start), updated=updated if by_status else None, running_after=running_after)
    cause = Cause.of("all-groups-ready", status=by_status, running_after=running_after)
    return Line(at, None, "rollout-done", what, cause, True)


def _scheduling(ev: _Evidence, lws: str) -> list[Episode]:
    out = []
    live = ev.store.get("LeaderWorkerSet", lws, ev.ns)
    born = parse_time(o.dig(live, "metadata", "creationTimestamp")) if live else None
    for e in ev.store.events_for(ev.ns):
        about = o.event_regarding(e)
        where = ev.where.get(str(about.get("name", "")))
        if about.get("kind") != "Pod" or o.event_reason(e) != "FailedScheduling" or not where or where[0] != lws:
            continue
        pod, group = str(about["name"]), where[1]
        times = occurrences(e)
        if not times:
            continue
        at, precise = times[-1]
        if born is not None and at < born[0]:
            continue  # about a pod of an earlier LWS of that name
        line = Line(at, group, "failed-scheduling", Fields.of(pod=pod, count=o.event_count(e)),
                    Cause.of("see-the-ledger"), precise)
        out.append(Episode(lws, "scheduling", group, Fields.of(pod=pod), (line,)))
    return out


def _gangs(ev: _Evidence, lws: str) -> list[Episode]:
    """Each group of the LWS whose pods name a PodGroup (spec.schedulingGroup), in two episodes:
    the gang held (the scheduler's first FailedScheduling about a member, once it tried the whole
    gang), then placed: each member bound (its Scheduled event, timed to the microsecond), and the
    gang placed once every member was, with the spread of its binds. Only the Events about the
    members as they are now count: an older pod of the same name (a half group before the gang)
    had a story of its own."""
    members: dict[tuple[int | None, str], dict[str, Obj]] = {}
    for pod in ev.store.pods_of(lws, ev.ns):
        podgroup = o.dig(pod, "spec", "schedulingGroup", "podGroupName")
        if podgroup and not o.is_terminating(pod):
            members.setdefault((o.group_index(pod), str(podgroup)), {})[o.name(pod)] = pod
    out = []
    for (group, podgroup), pods in sorted(members.items(), key=lambda kv: (kv[0][0] is None, kv[0])):
        held: tuple[float, bool] | None = None
        binds: dict[str, tuple[float, bool]] = {}
        for name, pod in pods.items():
            for e in ev.store.events_about(name, ev.ns):
                about = o.event_regarding(e)
                times = occurrences(e)
                if about.get("kind") != "Pod" or about.get("uid") not in (None, "", o.uid(pod)) or not times:
                    continue
                if o.event_reason(e) == "FailedScheduling" and (held is None or times[0][0] < held[0]):
                    held = times[0]
                elif o.event_reason(e) == "Scheduled":
                    binds[name] = times[0]
        title = Fields.of(podgroup=podgroup)
        if held is not None:
            out.append(Episode(lws, "gang-held", group, title, (Line(
                held[0], group, "gang-held", Fields.of(podgroup=podgroup, members=len(pods)),
                Cause.of("event", reason="FailedScheduling"), held[1]),)))
        lines = [Line(at, group, "gang-bound", Fields.of(pod=name, node=o.node_name(pods[name])),
                      Cause.of("event", reason="Scheduled"), precise, pods=(name,))
                 for name, (at, precise) in sorted(binds.items(), key=lambda kv: kv[1][0])]
        if binds and len(binds) == len(pods):
            bound_at = [at for at, _ in binds.values()]
            lines.append(Line(max(bound_at), group, "gang-placed",
                              Fields.of(podgroup=podgroup, members=len(pods), spread=max(bound_at) - min(bound_at)),
                              Cause.of("all-members-bound"), all(p for _, p in binds.values()), pods=tuple(sorted(binds))))
        if lines:
            out.append(Episode(lws, "gang-placed", group, title, tuple(lines)))
    return out


def _unknown(ev: _Evidence, lws: str) -> list[Episode]:
    """LWS's events of reasons the tutor does not know (a newer LWS's), told as they are, those
    less than EPISODE_GAP apart in one episode."""
    runs: list[list[Fact]] = []
    for f in ev.tl.of(lws, kinds=(Kind.LWS_EVENT,)):
        if runs and f.at - runs[-1][-1].at <= EPISODE_GAP:
            runs[-1].append(f)
        else:
            runs.append([f])
    return [Episode(lws, "event", None, Fields(), tuple(Line(f.at, f.group, "lws-event", Fields.of(event=f.detail),
                                                             None, f.precise) for f in run)) for run in runs]


_story_cached = per_store_version(build)
# One LWS's story reads its timeline's evidence and nothing else (the store's StatefulSets and
# mixed revisions of its groups are named after it): kept while that is the same.
_story_of_cached = cached_by(lambda store, key: evidence_version(store, key[1]), _build_of)
