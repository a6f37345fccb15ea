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
facts, and keeps at most MAX_EPISODES per LWS (the newest). Each line carries its English and
Korean text, so switching language does not rebuild it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from tutor.cluster import objects as o
from tutor.cluster.derived import cached_by, per_store_version
from tutor.cluster.instant import Instant, Timed
from tutor.cluster.observations import RestartSeen, UidSeen
from tutor.cluster.store import Store
from tutor.cluster.timeline import Fact, Kind, Timeline, evidence_version, occurrences, parse_time, timeline, timeline_of
from tutor.korean import attach
from tutor.words import Words, pick

MAX_EPISODES = 40  # per LWS, the newest
EPISODE_GAP = 30.0  # seconds: failure facts of one group further apart than this are two episodes
SIGHTING_SLACK = 0.25  # seconds past a whole-second creationTimestamp still counted as seeing the creation
DEFAULT_GRACE = 30  # seconds: a pod's terminationGracePeriodSeconds unless its deletion says otherwise



@dataclass(frozen=True)
class Line(Timed):
    at: float  # wall-clock seconds since the epoch
    group: int | None
    kind: str  # what it is, for machines: restarted, recreate-group, garbage-collected, new-uid, ...
    what: Words
    cause: Words | None = None  # only where the data shows the link
    precise: bool = True  # False: known to the second only
    odd: bool = False  # an LWS oddity, shown as what it is
    pods: tuple[str, ...] = ()  # the pods it is about: restarted's and new-uid's pod; mixed-revisions' on the new one
    old: tuple[str, ...] = ()  # mixed-revisions: the pods still on the old revision

    def text(self, lang: str) -> str:
        return pick(self.what, lang)

    def because(self, lang: str) -> str:
        return pick(self.cause, lang) if self.cause else ""


@dataclass(frozen=True)
class Episode:
    lws: str
    kind: str  # created | failure | rollout | scheduling | event (LWS events of unknown reasons)
    group: int | None  # the group it is about (None: the whole LWS)
    title: Words
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

    def entries(self, lang: str) -> list[dict]:
        """The lines as `check --json` gives them."""
        return [{"time": iso(line.at, line.precise), "offset": round(self.offset(line), 3), "lws": self.lws,
                 "group": line.group, "kind": line.kind, "what": line.text(lang),
                 "cause": line.because(lang) or None} for line in self.lines]


@dataclass(frozen=True)
class Story:
    episodes: tuple[Episode, ...]  # by LWS name, then in time order
    anchor: float | None = None  # wall-clock time of the tutor's t=0: what it saw itself, it saw from then on

    def of(self, lws: str | None = None, kind: str | None = None, group: int | None = None) -> list[Episode]:
        return [e for e in self.episodes if (lws is None or e.lws == lws) and (kind is None or e.kind == kind)
                and (group is None or e.group == group)]

    def lws_names(self) -> list[str]:
        return list(dict.fromkeys(e.lws for e in self.episodes))


def iso(at: float, precise: bool = True) -> str:
    """UTC ISO 8601, with milliseconds when the time has them."""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(at))
    return f"{stamp}.{int(round(at * 1000)) % 1000:03d}Z" if precise else f"{stamp}Z"




def seconds(d: float) -> str:
    return f"{d:.2f}" if d < 10 else f"{d:.0f}"


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
    mine = _created(ev, lws) + _rollouts(ev, lws) + _scheduling(ev, lws) + _unknown(ev, lws)
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
        return created is not None and created[0] <= self.wall(seen.first_t) < created[0] + 1.0 + SIGHTING_SLACK

    def pods_of_group(self, lws: str, group: int) -> list[str]:
        return sorted(p for p, (lw, g) in self.where.items() if lw == lws and g == group)

    def statefulsets_owned_by(self, uid: str):
        return [s for s in self.store.obs.statefulsets.values() if s.owner and s.owner[2] == uid]

    def statefulset(self, uid: str):
        return self.store.obs.statefulsets.get(uid)


# --- a group rebuilt: garbage collection, new UIDs, Running again --------------------------------

def _rebuilt(ev: _Evidence, lws: str, group: int, leader: str, old_uid: str, start: float,
             until: float | None, revision: str = "") -> list[Line]:
    """What followed the deletion of a group's leader (UID old_uid): the worker StatefulSet and its
    pods removed by the garbage collector, the new UIDs with their makers, and the group Running."""
    lines: list[Line] = []
    for sts in ev.statefulsets_owned_by(old_uid):
        if sts.gone_t is None:
            continue
        pods = [(pod, s) for pod in ev.pods_of_group(lws, group) for s in ev.store.obs.uid_history(pod)
                if s.owner and s.owner[2] == sts.uid and s.gone_t is not None]
        names = ", ".join(pod for pod, _ in pods)
        at = ev.wall(min([sts.gone_t] + [s.gone_t for _, s in pods]))
        what = ((f"worker StatefulSet {sts.name} and {names} removed (garbage collection)",
                 f"워커 StatefulSet {attach(sts.name, '과')} {names} 제거됨(가비지 컬렉션)") if names else
                (f"worker StatefulSet {sts.name} removed (garbage collection)",
                 f"워커 StatefulSet {sts.name} 제거됨(가비지 컬렉션)"))
        lines.append(Line(at, group, "garbage-collected", what,
                          (f"owner: leader {leader} {old_uid[:8]}, deleted",
                           f"소유자: 삭제된 리더 {leader} {old_uid[:8]}")))
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


def _made_by(ev: _Evidence, f: Fact, leader: Fact | None) -> Words | None:
    seen = f.evidence if isinstance(f.evidence, UidSeen) else None
    if seen is None or not seen.owner:
        return None
    kind, name, _ = seen.owner
    if leader is not None:
        if _owner_leader(ev, f) != leader.uid:
            return None
        return (f"owner: new worker StatefulSet {name} of leader {leader.uid[:8]}",
                f"소유자: 리더 {leader.uid[:8]}의 새 워커 StatefulSet {name}")
    return (f"owner: {kind} {name}", f"소유자: {kind} {name}")


def _new_uid(ev: _Evidence, f: Fact, revision: str, cause: Words | None) -> Line:
    at, precise = ev.born(f)
    rev = f", revision {f.revision[:8]}" if revision and f.revision else ""
    rev_ko = f", 리비전 {f.revision[:8]}" if revision and f.revision else ""
    return Line(at, f.group, "new-uid", (f"{f.pod} new UID {f.uid[:8]} (was {f.detail[:8]}){rev}",
                                         f"{f.pod} 새 UID {f.uid[:8]} (이전 {f.detail[:8]}){rev_ko}"),
                cause, precise, pods=(f.pod,))


def _running_again(ev: _Evidence, new: list[Fact], start: float, group: int) -> Line | None:
    """When every new pod of the group was first seen Running (the tutor's own sightings)."""
    seen = [ev.seen(f.pod, f.uid) for f in new]
    # only when the tutor saw each pod being created: a pod Running when the tutor started says
    # nothing about when it got there
    if not seen or any(s is None or s.running_t is None or not ev.sighted(f) for s, f in zip(seen, new)):
        return None
    at = ev.wall(max(s.running_t for s in seen))
    took = seconds(max(0.0, at - start))
    return Line(at, group, "running-again", (f"group {group} Running again after {took} s",
                                             f"그룹 {attach(group, '이')} {took}초 만에 다시 Running"))


# --- episodes ---------------------------------------------------------------------------------

def _created(ev: _Evidence, lws: str) -> list[Episode]:
    out = []
    for rev in ev.tl.of(lws, kinds=(Kind.REVISION_CREATED,)):
        if rev.detail != "initial":
            continue
        lines = [Line(rev.at, None, "created", (f"LWS {lws} created, template revision {rev.revision[:8]}",
                                                f"LWS {lws} 생성, 템플릿 리비전 {rev.revision[:8]}"),
                      ("CreatingRevision event", "CreatingRevision 이벤트"), rev.precise)]
        ready = next((f for f in ev.tl.of(lws, kinds=(Kind.ALL_READY,)) if f.at > rev.at), None)
        if ready is not None:
            took = seconds(ready.at - rev.at)
            lines.append(Line(ready.at, None, "all-ready", (f"all groups ready after {took} s",
                                                            f"{took}초 만에 모든 그룹 준비됨"),
                              ("AllGroupsReady event", "AllGroupsReady 이벤트"), ready.precise))
        out.append(Episode(lws, "created", None, (f"{lws} created", f"{lws} 생성"), tuple(lines)))
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
        if fresh:
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
    if named and not any(r.pod == named for r in restarts):
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
        title = (f"group {group} recreated", f"그룹 {group} 재생성")
        # the pod LWS's event names, else the one seen restarting last before it
        who = named or next((r.pod for r in reversed(restarts)
                                                 if r.maybe_before(recreated.at)), "")
    else:
        # UIDs replaced without a RecreateGroup event: shown as such, nothing said about why
        for f in facts:
            if f.kind is Kind.POD_CREATED:
                lines.append(_new_uid(ev, f, "", _made_by(ev, f, None)))
        title = ((f"group {group}: container restarted", f"그룹 {group}: 컨테이너 재시작") if restarts else
                 (f"group {group}: pods replaced", f"그룹 {group}: 파드 교체"))
        who = ""
    return Episode(lws, "failure", group, title, _settled(lines), who)


def _restart_line(ev: _Evidence, f: Fact) -> Line:
    r = f.evidence if isinstance(f.evidence, RestartSeen) else None
    if r is not None and r.exit_code is not None:
        what = (f"{f.pod} container exited {r.exit_code} (restart {r.count})",
                f"{f.pod} 컨테이너 종료 코드 {r.exit_code} (재시작 {r.count})")
    elif r is not None:
        what = (f"{f.pod} container restarted (restart {r.count})", f"{f.pod} 컨테이너 재시작 (재시작 {r.count})")
    else:
        what = (f"{f.pod} container restarting ({f.detail} event)", f"{f.pod} 컨테이너 재시작 중({f.detail} 이벤트)")
    # a restart the tutor saw happen is timed on its own clock, like the pods' sightings
    return Line(ev.at(f), f.group, "restarted", what, None, f.precise or (r is not None and f.source == "watched"),
                pods=(f.pod,))


def _recreate_line(ev: _Evidence, f: Fact, restarts: list[Fact], group: int, odd: bool) -> Line:
    leader = f"{f.lws}-{group}"
    worker = f.pod  # the pod the event names; for one known by its effects, the pod that restarted
    uid = f" {f.uid[:8]}" if f.uid else ""
    mark = "⚠ " if odd else ""
    if f.source == "effects":
        what = (f"{mark}LWS deleted leader {leader}{uid} to recreate group {group} (no event says so: told by "
                "its effects)", f"{mark}LWS가 그룹 {attach(group, '을')} 다시 만들려고 리더 {leader}{uid} 삭제"
                "(이벤트 없음: 결과로 앎)")
    else:  # the reason as the event has it: RecreateGroup, or another LWS's word for it
        reason = o.event_reason(f.evidence) if isinstance(f.evidence, dict) else ""
        what = (f"{mark}LWS {reason or 'RecreateGroup'}: deleted leader {leader}{uid}",
                f"{mark}LWS {reason or 'RecreateGroup'}: 리더 {leader}{uid} 삭제")
    # The event is recorded once the deletion is asked for: when the tutor saw the UID the event
    # names start terminating is when LWS deleted it.
    seen = ev.seen(leader, f.uid) if f.uid else None
    at = min(f.at, ev.wall(seen.terminating_t)) if seen and seen.terminating_t is not None else f.at
    earlier = [r for r in restarts if ev.at(r) - r.slack <= at]
    worker = worker or (earlier[-1].pod if earlier else "")  # an event that names no pod: the one that restarted
    before = [r for r in earlier if r.pod == worker]
    if odd:
        cause = (f"nothing in group {group} restarted: part of the rollout, not a failure",
                 f"그룹 {group}에서 재시작한 것이 없음: 실패가 아니라 롤아웃의 일부")
    elif before:
        gap = seconds(max(0.0, at - ev.at(before[-1])))
        role = ("the leader ", "리더 ") if worker == leader else ("", "")
        cause = (f"{role[0]}{worker} failed: its restart, {gap} s before", f"{role[1]}{worker} 실패: {gap}초 전의 재시작")
    elif f.source == "effects":
        cause = None
    elif worker == leader:
        # LWS's message calls every pod of a group a worker, its leader too
        cause = (f"the event says the leader {worker} failed (LWS calls it a worker)",
                 f"이벤트 메시지: 리더 {worker} 실패(LWS는 리더도 워커라고 부름)")
    elif worker:
        cause = (f"the event says worker {worker} failed", f"이벤트 메시지: 워커 {worker} 실패")
    else:
        cause = None
    return Line(at, group, "recreate-group", what, cause, f.precise, odd)


def _rollouts(ev: _Evidence, lws: str) -> list[Episode]:
    out = []
    windows: list = []
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


def _rollout(ev: _Evidence, lws: str, w, last: bool) -> Episode:
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
        return Episode(lws, "rollout", None, ("", ""), ())  # no revision changed: nothing rolled
    what = ((f"template revision {old_rev[:8]} → {new_rev[:8]}", f"템플릿 리비전 {old_rev[:8]} → {new_rev[:8]}")
            if old_rev else (f"new template revision {new_rev[:8]}", f"새 템플릿 리비전 {new_rev[:8]}"))
    lines.append(Line(start_at, None, "revision", what,
                      (f"LWS {lws}'s template changed (CreatingRevision event)",
                       f"LWS {lws}의 템플릿이 바뀜(CreatingRevision 이벤트)") if rev_fact else None,
                      rev_fact.precise if rev_fact else False))
    # The order: LWS's own "Updating replica g" events, else when each group's pods changed revision.
    updating = {f.group: f for f in tl.of(lws, kinds=(Kind.GROUPS_UPDATING,))
                if f.group is not None and f.within(w.start, w.end)}
    # A group's turn began with the first sign of it: LWS's event, its old leader terminating, or
    # its first pod of the new revision (LWS may record the event after the pods moved).
    began: dict[int, tuple[float, bool]] = {g: (f.at, f.precise) for g, f in updating.items()}
    for f in replaced:
        old = ev.seen(f.pod, f.detail)
        signs = [ev.born(f)] + ([(ev.wall(old.terminating_t), True)] if old and old.terminating_t is not None else [])
        began[f.group] = _earliest(([began[f.group]] if f.group in began else []) + signs)
    groups = sorted(began, key=began.get)
    highest = max((g for _, g in ev.where.values() if g is not None), default=None) if groups else None
    for n, g in enumerate(groups):
        upd = updating.get(g)
        at, precise = began[g]
        if n == 0:
            what = ((f"group {g} replaced first (highest index)", f"그룹 {g} 먼저 교체(가장 높은 인덱스)")
                    if g == highest else (f"group {g} replaced first", f"그룹 {g} 먼저 교체"))
        else:
            what = (f"group {g} next", f"다음은 그룹 {g}")
        cause = ((f"GroupsUpdating event: {upd.detail}", f"GroupsUpdating 이벤트: {upd.detail}") if upd else
                 (f"its pods got revision {new_rev[:8]}", f"파드가 리비전 {attach(new_rev[:8], '으로')} 바뀜"))
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
    return Episode(lws, "rollout", None, (f"rolling update to {new_rev[:8]}", f"{attach(new_rev[:8], '으로')} 롤링 업데이트"),
                   _settled(lines))


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
    return min(rough) if rough else precise


def _mixed_line(ev: _Evidence, m, new_rev: str) -> Line:
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
    ending = set(getattr(m, "terminating", ()))

    def names(pairs, ko: bool = False):
        out = []
        for p, r in pairs:
            state = (" 종료 중" if ko else " Terminating") if p in ending else ""
            out.append(f"{p} ({r[:8]}{state})")
        return ", ".join(out)
    if new and old:
        what = (f"⚠ new {names(new)} Running beside old {names(old)}" + (f" for {_seconds(span)}" if span else ""),
                f"⚠ 새 {attach(names(new, True), '이')} 옛 {names(old, True)} 옆에서 Running"
                + (f"({_seconds(span, 'ko')} 동안)" if span else ""))
    else:
        what = (f"⚠ group {m.group} ran two revisions at once: {names(m.pods)}",
                f"⚠ 그룹 {m.group}에 리비전 둘이 함께 돌았음: {names(m.pods, True)}")
    on_new, on_old = ([p for p, _ in new], [p for p, _ in old]) if new and old else ([p for p, _ in m.pods], [])
    return Line(ev.wall(m.t), m.group, "mixed-revisions", what, None, True, True, tuple(on_new), tuple(on_old))


def _seconds(span: float, lang: str = "en") -> str:
    """A span as a person reads it: milliseconds under a second, else whole seconds."""
    if span < 1:
        return f"{span * 1000:.0f}밀리초" if lang == "ko" else f"{span * 1000:.0f} ms"
    return f"{span:.0f}초" if lang == "ko" else f"{span:.0f} s"


def _rollout_end(ev: _Evidence, lws: str, w, start: float, last: bool, running: float | None = None) -> Line | None:
    """The rollout's last line: when LWS said all groups were ready, or, if later, when the tutor
    saw the last new pod Running (`running`)."""
    if w.end is None:
        return None
    at = max(w.end, running) if running is not None else w.end
    took = seconds(max(0.0, at - start))
    live = ev.store.get("LeaderWorkerSet", lws, ev.ns)
    replicas = o.int_or_none(o.dig(live, "spec", "replicas")) if live else None
    updated = o.int_or_none(o.dig(live, "status", "updatedReplicas")) if live else None
    cond = o.condition(live, "Available") if live else {}
    generation = o.int_or_none(o.dig(live, "metadata", "generation")) if live else None
    observed = o.int_or_none(cond.get("observedGeneration"))
    # For a moment after an apply LWS still shows the old status under the new generation.
    current = generation is None or observed is None or observed >= generation
    available = cond.get("status") == "True" and current
    pods = (" and every new pod Running", ", 새 파드가 모두 Running") if at > w.end else ("", "")
    if last and replicas is not None and updated == replicas and available:
        what = (f"updatedReplicas {updated}, Available{pods[0]}: rollout done in {took} s",
                f"updatedReplicas {updated}, Available{pods[1]}: {took}초 만에 롤아웃 완료")
        cause = ("AllGroupsReady event; the LWS's status", "AllGroupsReady 이벤트, LWS의 status")
    else:
        what = (f"all groups ready{pods[0]}: rollout done in {took} s",
                f"모든 그룹 준비됨{pods[1]}: {took}초 만에 롤아웃 완료")
        cause = ("AllGroupsReady event", "AllGroupsReady 이벤트")
    if at > w.end:
        cause = (cause[0] + "; the tutor saw the last new pod Running after it",
                 cause[1] + ", 그 뒤 튜터가 마지막 새 파드의 Running을 봄")
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
        count = o.event_count(e)
        times_txt = f" ×{count}" if count > 1 else ""
        line = Line(at, group, "failed-scheduling", (f"{pod} FailedScheduling{times_txt}", f"{pod} FailedScheduling{times_txt}"),
                    ("why: see the node ledger and the scheduler's message in the Events pane",
                     "이유: 노드 장부와 이벤트 창의 스케줄러 메시지를 보세요"), precise)
        out.append(Episode(lws, "scheduling", group, (f"{pod} not scheduled", f"{pod} 스케줄 안 됨"), (line,)))
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
    title = ("LWS events the tutor does not know", "튜터가 모르는 LWS 이벤트")
    return [Episode(lws, "event", None, title, tuple(Line(f.at, f.group, "lws-event", (f.detail, f.detail), None,
                                                          f.precise) for f in run)) for run in runs]


_story_cached = per_store_version(build)
# One LWS's story reads its timeline's evidence and nothing else (the store's StatefulSets and
# mixed revisions of its groups are named after it): kept while that is the same.
_story_of_cached = cached_by(lambda store, key: evidence_version(store, key[1]), _build_of)
