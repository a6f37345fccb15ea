"""Why is a pod Pending (or why does it run where it runs)? The scheduler's message, clause by
clause, with the nodes behind each clause and the concrete cause, from tutor.cluster.placement.

One implementation for every place that explains placement: step 7 and step 8's verdicts, the
events pane, and `lwstutor why`. Everything is computed from the objects given; nothing here
calls the API.
"""

from __future__ import annotations

from dataclasses import dataclass

from tutor.checks import holds
from tutor.cluster import gang as gg, kinds
from tutor.cluster import objects as o
from tutor.cluster.memo import LRU
from tutor.i18n.bilingual import say
from tutor.cluster import placement as pl
from tutor.cluster import resources as res
from tutor.cluster import scheduler_message as sm


@dataclass(frozen=True)
class Why:
    """An explanation: a headline, then lines (clauses at depth 0, nodes under them at depth 1)."""
    headline: str
    lines: tuple[tuple[int, str], ...]
    placement: pl.Placement
    message: str  # the scheduler's latest message for the pod, or ""
    hold: holds.Hold | None = None  # what holds it beyond the node filters (another scheduler, its gang, …)

    def text_lines(self) -> list[str]:
        return [self.headline] + [("  " * depth) + line for depth, line in self.lines]


def scheduler_message(pod: dict, events: list[dict]) -> str:
    """The scheduler's newest word on the pod: its PodScheduled=False condition (rewritten on
    every attempt), else its newest FailedScheduling event about this very pod."""
    cond = o.condition(pod, "PodScheduled")
    if cond.get("status") == "False" and cond.get("message"):
        return str(cond["message"])
    mine = [e for e in events if o.event_reason(e) == "FailedScheduling"
            and o.event_regarding(e).get("uid") in (None, "", o.uid(pod))]
    mine.sort(key=o.event_order)
    return o.event_message(mine[-1]) if mine else ""


def _short(ref: str, namespace: str) -> str:
    ns, _, name = ref.partition("/")
    return name if ns == namespace else ref


MAX_HOLDER_GROUPS = 4  # holders named in one line; a busy node's thousand pods are summed up
MAX_HOLDER_NAMES = 4


def _holder_key(pod: dict | None, ref: str) -> tuple:
    """(LWS, group, worker, ref) to group and sort holders by; -1 where a label is missing or odd."""
    if pod is None:
        return ("", -1, -1, ref)

    def key(p: dict) -> tuple:
        g, w = o.group_index(p), o.worker_index(p)
        return (o.lws_name(p), -1 if g is None or not o.lws_name(p) else g, -1 if w is None else w, ref)
    return o.memo(pod, "holder", key)


def holders_text(holders, namespace: str, pods_by_ref: dict[str, dict] | None = None, lang: str = "en") -> str:
    """Pods holding a resource, grouped by LWS group: "llm-0, llm-0-1 (llm #0); …", the first
    few groups named and the rest counted."""
    groups: dict[tuple, list[tuple[int, str]]] = {}  # (lws, group) -> (worker, ref) of its pods
    for ref, _ in holders:
        lws, g, w, _r = _holder_key((pods_by_ref or {}).get(ref), ref)
        groups.setdefault((lws, g), []).append((w, ref))
    parts = []
    order = sorted(groups, key=lambda k: (k[0] == "", k))
    for lws, g in order[:MAX_HOLDER_GROUPS]:
        names = [_short(ref, namespace) for _, ref in sorted(groups[(lws, g)])]
        shown = names[:MAX_HOLDER_NAMES] + ([f"+{len(names) - MAX_HOLDER_NAMES}"] if len(names) > MAX_HOLDER_NAMES else [])
        parts.append(", ".join(shown) + (f" ({lws} #{g if g >= 0 else '?'})" if lws else ""))
    rest = order[MAX_HOLDER_GROUPS:]
    if rest:
        parts.append(say(lang, "{n} more in {g} groups", "그 밖에 {g}개 그룹의 {n}개",
                         n=sum(len(groups[k]) for k in rest), g=len(rest)))
    return "; ".join(parts)


def cause_text(rej: pl.Rejection, pod: dict, lang: str, pods_by_ref: dict[str, dict] | None = None) -> str:
    """The concrete cause of one node's rejection, in the learner's language."""
    name, ns = o.name(pod), o.namespace(pod)
    if rej.plugin == "PreFilter":
        return say(lang, "ruled out before the filters: {r}", "필터 전에 제외됨: {r}", r=rej.reasons[0])
    if rej.plugin == "NodeName":
        return say(lang, "{p} asks for node {n} (spec.nodeName)", "{p:은} 노드 {n:을} 지정했습니다(spec.nodeName)",
                   p=name, n=o.node_name(pod))
    if rej.plugin == "NodeUnschedulable":
        return say(lang, "cordoned (spec.unschedulable), and {p} does not tolerate {t}",
                   "cordon 됨(spec.unschedulable), {p}에 {t} 톨러레이션이 없습니다", p=name, t=pl.UNSCHEDULABLE_TAINT)
    if rej.plugin == "TaintToleration" and rej.taint is not None:
        return say(lang, "taint {t}, and {p} has no toleration for it",
                   "테인트 {t:이} 있고 {p}에는 이를 견디는 톨러레이션이 없습니다",
                   t=o.taint_text(rej.taint), p=name)
    if rej.plugin == "NodeAffinity":
        return say(lang, "lacks what {p} selects: {m}", "이 노드에는 {p:이} 고르는 라벨이 없습니다: {m}",
                   p=name, m="; ".join(rej.missing))
    if rej.plugin == "NodeResourcesFit":
        parts = []
        for s in rej.shortages:
            if s.resource == "pods":
                parts.append(say(lang, "Too many pods: {u} of {a} already", "파드 수 초과: 이미 {u}/{a}",
                                 u=s.used, a=s.allocatable))
                continue
            by = holders_text(s.holders, ns, pods_by_ref, lang)
            parts.append(say(lang, "{r}: {u} of {a} requested{by}; {p} asks {w}",
                             "{r}: {a} 중 {u} 요청됨{by}, {p:은} {w:을} 요청",
                             r=s.resource, u=res.shown(s.resource, s.used), a=res.shown(s.resource, s.allocatable),
                             by=say(lang, " by {h}", "({h})", h=by) if by else "", p=name,
                             w=res.shown(s.resource, s.requested)))
        return "; ".join(parts)
    if rej.plugin == "InterPodAffinity":
        who = _short(rej.blocker, ns) if rej.blocker else ""
        if pl.R_POD_AFFINITY in rej.reasons:
            return say(lang, "no pod here that {p}'s affinity wants ({t})", "{p}의 어피니티가 원하는 파드가 여기 없습니다({t})",
                       p=name, t=rej.term)
        if pl.R_POD_ANTI_AFFINITY in rej.reasons:
            return say(lang, "{b} is here, and {p}'s anti-affinity keeps away from it ({t})",
                       "{b:이} 여기 있고 {p}의 안티어피니티가 이를 피합니다({t})", b=who, p=name, t=rej.term)
        return say(lang, "{b} is here, and its anti-affinity keeps {p} away ({t})",
                   "{b:이} 여기 있고 그 안티어피니티가 {p:을} 막습니다({t})", b=who, p=name, t=rej.term)
    return ", ".join(rej.reasons)


def _grouped(fits: list[pl.NodeFit], pod: dict, lang: str, pods_by_ref) -> list[str]:
    """One line per distinct cause, naming every node it applies to: "gpu-a, gpu-b: taint …"."""
    by_cause: dict[str, list[str]] = {}
    for f in fits:
        assert f.rejection is not None  # given the nodes that refuse the pod
        by_cause.setdefault(cause_text(f.rejection, pod, lang, pods_by_ref), []).append(f.node)
    return [f"{', '.join(nodes)}: {cause}" for cause, nodes in by_cause.items()]


def explain(pod: dict, nodes: list[dict], pods: list[dict], events: list[dict], lang: str,
            seen_namespace: str | None = None, pod_groups: list[dict] | None = None) -> Why:
    """The explanation for one pod. `pods` are all pods the caller sees; `seen_namespace` names
    the only namespace they come from, when the caller cannot see the others. `pod_groups` are
    the PodGroups of the pod's namespace, or None when the caller cannot read them."""
    placement = pl.place(pod, nodes, pods)
    pods_by_ref = {pl.ref(p): p for p in pods}
    message = scheduler_message(pod, events) if not o.node_name(pod) else ""
    gang = gg.gang_of(pod, pods, pod_groups) if pod_groups is not None else None
    hold: holds.Hold | None = None
    unmodelled = placement.unmodelled
    if o.node_name(pod):
        headline, lines = _bound(pod, placement, lang, pods_by_ref)
        if o.scheduling_group(pod):
            lines.append((0, holds.gang_state_line(pod, gang, lang)))
    elif scheduler := holds.other_scheduler(pod):
        headline, lines = holds.other_scheduler_text(pod, scheduler, message, lang)
        hold = holds.Hold(holds.OTHER_SCHEDULER, scheduler)
        unmodelled = tuple(w for w in unmodelled if not w.startswith("schedulerName"))
    else:
        headline, lines, placement, hold = _pending(pod, nodes, pods, message, placement, gang, lang, pods_by_ref)
    if unmodelled:
        lines.append((0, say(lang, "The tutor cannot tell about {w}: it does not model these filters.",
                             "튜터는 {w}에 대해서는 알 수 없습니다: 이 필터들은 다루지 않습니다.",
                             w=", ".join(unmodelled))))
    if seen_namespace is not None:
        lines.append((0, say(lang, "Counted from the pods in namespace {ns} only; pods of other namespaces on these "
                                  "nodes are not seen.",
                            "네임스페이스 {ns}의 파드만 셉니다. 다른 네임스페이스의 파드는 보이지 않습니다.",
                            ns=seen_namespace)))
    return Why(headline, tuple(lines), placement, message, hold)


def _bound(pod: dict, placement: pl.Placement, lang: str, pods_by_ref) -> tuple[str, list[tuple[int, str]]]:
    """A bound pod, judged as if placed again: does its node fit it, and which others would."""
    name, node = o.name(pod), o.node_name(pod)
    lines: list[tuple[int, str]] = []
    mine = next((f for f in placement.nodes if f.node == node), None)
    if mine is None:
        headline = say(lang, "{p} is on node {n}, which the tutor cannot see.",
                       "{p:은} 노드 {n}에 있지만 튜터가 그 노드를 볼 수 없습니다.", p=name, n=node)
    elif mine.rejection is None:  # it fits
        headline = say(lang, "{p} runs on {n}, and by the scheduler's filters {n} fits it.",
                       "{p:은} {n}에서 실행 중입니다. 스케줄러의 필터로 보면 {n}에 들어갈 수 있습니다.", p=name, n=node)
    else:
        headline = say(lang, "{p} is on {n}; placed now, {n} would refuse it: {c}",
                       "{p:은} {n}에 있습니다. 지금 다시 배치한다면 {n:은} 거절합니다: {c}",
                       p=name, n=node, c=cause_text(mine.rejection, pod, lang, pods_by_ref))
    others = [f for f in placement.nodes if not f.fits and f.node != node]
    if others:
        lines.append((0, say(lang, "The other nodes:", "다른 노드:")))
        lines += [(1, line) for line in _grouped(others, pod, lang, pods_by_ref)]
    also = [f.node for f in placement.nodes if f.fits and f.node != node]
    if also:
        lines.append((0, say(lang, "Would also fit: {n}", "여기도 들어갈 수 있음: {n}", n=", ".join(also))))
    return headline, lines


def _pending(pod: dict, nodes: list[dict], pods: list[dict], message: str, placement: pl.Placement,
             gang: gg.Gang | None, lang: str, pods_by_ref):
    """(headline, lines, the placement shown, hold) for a pod no node holds yet."""
    name = o.name(pod)
    parsed = sm.parse_message(message) if message else None
    lines: list[tuple[int, str]] = []
    gates = [str(g.get("name")) for g in o.as_list(o.dig(pod, "spec", "schedulingGates")) if isinstance(g, dict)]
    if gates:
        lines.append((0, say(lang, "Scheduling gates hold it ({g}): the scheduler does not try it until they are "
                                  "removed. Where it would fit:",
                            "스케줄링 게이트({g})가 잡고 있어 이것이 풀릴 때까지 스케줄러는 시도하지 않습니다. "
                            "들어갈 수 있는 곳:", g=", ".join(gates))))
    hold: holds.Hold | None = None
    mates: tuple[dict, ...] = ()
    if o.scheduling_group(pod) and gang is None:
        hold = holds.Hold(holds.GANG_UNSEEN, o.scheduling_group(pod))
        lines.append((0, holds.gang_unseen_line(pod, lang)))
    elif gang is not None:
        if held := gang.held_before_scheduling():
            headline, more, hold = holds.held_text(pod, gang, held, message, lang)
            return headline, lines + more, placement, hold
        if message and gg.is_group_message(message):
            alone = _grouped([f for f in placement.nodes if not f.fits], pod, lang, pods_by_ref)
            headline, more, hold = holds.turned_away_text(pod, gang, message, placement.fitting, alone, lang)
            return headline, lines + more, placement, hold
        # The gang is placed in one attempt: its other pods count as on their nodes.
        mates = gg.mates_placed(pod, gang, nodes, pods)
        if mates:
            placement = pl.place(pod, nodes, [*pods, *mates])
    if message:
        headline = say(lang, "{p} is Pending. The scheduler said: {m}", "{p:은} Pending입니다. 스케줄러 메시지: {m}",
                       p=name, m=" ".join(message.split()))
    else:
        headline = say(lang, "{p} is not scheduled yet, and the scheduler has not said why.",
                       "{p:은} 아직 배치되지 않았고 스케줄러가 이유를 말하지 않았습니다.", p=name)
    clause_lines, foreign = _clauses(placement, parsed, pod, lang, pods_by_ref)
    lines += clause_lines
    if foreign:
        hold = holds.Hold(holds.UNMODELLED, ", ".join(placement.unmodelled) or "; ".join(foreign))
        lines += holds.unmodelled_lines(pod, foreign, lang)
    if gang is not None:
        if parsed is not None and parsed.total is not None and gang.state != gg.SCHEDULED:
            hold = holds.Hold(holds.BLOCKS_GANG, gang.name)
            lines += holds.blocks_gang_lines(pod, gang, mates, lang)
        else:
            lines.append((0, holds.gang_state_line(pod, gang, lang)))
    if placement.fitting:
        fitting = ", ".join(placement.fitting)
        if foreign or placement.unmodelled:
            lines.append((0, say(lang, "Passes the filters the tutor models: {n}.", "튜터가 다루는 필터로는 들어갈 수 "
                                                                               "있음: {n}.", n=fitting)))
        elif hold is not None and hold.kind == holds.GANG_UNSEEN:
            lines.append((0, say(lang, "Alone, it would fit: {n}.", "혼자라면 들어갈 수 있음: {n}.", n=fitting)))
        elif mates:
            lines.append((0, say(lang, "Fits now, with its gang's other pods placed first: {n} (the scheduler tries the "
                                       "gang again when the cluster changes).",
                                 "갱의 다른 파드를 먼저 배치해도 지금은 들어갈 수 있음: {n} (클러스터가 바뀌면 스케줄러가 "
                                 "갱을 다시 시도합니다).", n=fitting)))
        else:
            lines.append((0, say(lang, "Fits now: {n} (the scheduler tries again when the cluster changes).",
                                 "지금은 들어갈 수 있음: {n} (클러스터가 바뀌면 스케줄러가 다시 시도합니다).", n=fitting)))
    return headline, lines, placement, hold


def _clauses(placement: pl.Placement, parsed: sm.SchedulerMessage | None, pod: dict, lang: str,
             pods_by_ref) -> tuple[list[tuple[int, str]], list[str]]:
    """Each clause of the scheduler's message, with the nodes the tutor finds behind it now; and
    the reasons it gives that no modelled filter gives (the tutor cannot check those)."""
    lines: list[tuple[int, str]] = []
    foreign: list[str] = []
    by_reason: dict[str, list[pl.NodeFit]] = {}
    for f in placement.nodes:
        for r in f.rejection.reasons if f.rejection else ():
            by_reason.setdefault(r, []).append(f)
    said = list(parsed.clauses) if parsed is not None and parsed.total is not None else []
    if parsed is not None and parsed.prefilter:
        lines.append((0, parsed.prefilter))
        if not pl.modelled_reason(parsed.prefilter):
            foreign.append(parsed.prefilter)
            lines.append((1, _not_modelled(lang)))
        elif placement.prefilter_failure != parsed.prefilter:
            lines.append((1, say(lang, "the tutor finds instead: {m}", "튜터가 찾은 것: {m}", m=placement.message())))
        return lines, foreign
    for count, reason in said:
        fits = by_reason.pop(reason, [])
        lines.append((0, f"{count} {reason}"))
        if not pl.modelled_reason(reason):
            foreign.append(reason)
            lines.append((1, _not_modelled(lang)))
        elif len(fits) != count:
            lines.append((1, say(lang, "(the tutor counts {k} now)", "(지금 튜터가 세면 {k})", k=len(fits))))
        lines += [(1, line) for line in _grouped(fits, pod, lang, pods_by_ref)]
    for reason, fits in sorted(by_reason.items()):
        if said:
            lines.append((0, say(lang, "Now also {k} {r}", "지금은 여기에도 {k} {r}", k=len(fits), r=reason)))
        else:
            lines.append((0, f"{len(fits)} {reason}"))
        lines += [(1, line) for line in _grouped(fits, pod, lang, pods_by_ref)]
    return lines, foreign


def _not_modelled(lang: str) -> str:
    return say(lang, "(a filter the tutor does not model: it cannot check this reason)",
               "(튜터가 다루지 않는 필터입니다. 이 이유는 확인할 수 없습니다)")


# --- from the store -------------------------------------------------------------------------------

_explained = LRU(64)  # (what, fingerprint, …) → Why or lines; a re-check redoes none


def _cached(key: tuple, compute):
    hit = _explained.get(key)
    if hit is None:
        hit = compute()
        _explained[key] = hit
    return hit


def explain_in_store(store, namespace: str, pod_name: str, lang: str) -> Why | None:
    """The explanation for a pod of the lesson namespace, from what the tutor watches (one
    namespace's pods: the note says so; its PodGroups when the lesson watches them). The same Why
    while nothing it reads changed."""
    pod = store.get(kinds.POD.kind, pod_name, namespace)
    if pod is None:
        return None
    nodes, pods = store.all(kinds.NODE.kind), list(store.pods_named(namespace).values())
    events = store.events_about(pod_name, namespace)
    pod_groups = store.all(kinds.POD_GROUP.kind, namespace) if store.sees(kinds.POD_GROUP.kind) else None
    gang = gg.gang_of(pod, pods, pod_groups) if pod_groups is not None else None
    key = ("why", namespace, pod_name, lang, o.uid(pod), o.node_name(pod),
           scheduler_message(pod, events) if not o.node_name(pod) else "", pl.fingerprint(nodes, pods),
           pod_groups is None, gg.fingerprint(gang))
    return _cached(key, lambda: explain(pod, nodes, pods, events, lang, seen_namespace=namespace,
                                        pod_groups=pod_groups))


def verdict_lines(ctx, pod_name: str, with_headline: bool = False) -> list[str]:
    """A checker's detail lines for a pod of the lesson namespace (`ctx` is a checks Context)."""
    if not ctx.explain:
        return []
    why = explain_in_store(ctx._store, ctx.ns, pod_name, ctx.lang)
    if why is None:
        return []
    lines = why.text_lines()
    return lines if with_headline else lines[1:]


def exclusive_lines(ctx, lws: str) -> list[str]:
    """Step 7: why each group of an exclusive-topology LWS landed where it did."""
    if not ctx.explain:
        return []
    nodes, pods = ctx._store.all(kinds.NODE.kind), list(ctx._store.pods_named(ctx.ns).values())
    return list(_cached(("exclusive", ctx.ns, lws, ctx.lang, pl.fingerprint(nodes, pods)),
                        lambda: tuple(_exclusive_lines(ctx, lws, nodes, pods))))


def _exclusive_lines(ctx, lws: str, nodes: list[dict], pods: list[dict]) -> list[str]:
    lang = ctx.lang
    groups: dict[int, list[dict]] = {}
    for p in ctx.pods_of(lws):
        groups.setdefault(o.group_index(p) or 0, []).append(p)
    lines, used = [], set()
    first: tuple[dict, pl.Placement] | None = None
    for g, members in sorted(groups.items()):
        leader = next((p for p in members if o.worker_index(p) == 0), None)
        node = o.node_name(leader) if leader is not None else ""
        if leader is None or not node:
            continue
        placement = pl.place(leader, nodes, pods)
        first = first or (leader, placement)
        used.add(node)
        workers = [o.name(p) for p in members if p is not leader]
        # What the objects show: the worker StatefulSet (named after its leader) carries a
        # nodeSelector on the leader's topology value, which keeps the group together; the
        # leader's anti-affinity matches any pod with a group-key other than its own group's (key
        # Exists, NotIn [own]): another group of the same LWS, and any other LWS's pod of the namespace.
        lines.append(say(lang, "group {g} on {n}{w}.", "그룹 {g} → {n}{w}.", g=g, n=node,
                         w=say(lang, ": the worker StatefulSet {l} pins {ws} to its leader's node by nodeSelector {k}={n}",
                             ": 워커 StatefulSet {l:이} nodeSelector {k}={n:으로} {ws:을} 리더의 노드에 묶습니다",
                             l=o.name(leader), ws=", ".join(workers),
                             k=_exclusive_key(leader), n=node) if workers else ""))
        for other, blocker in placement.kept_off:
            if other != node:
                lines.append(say(lang, "  {l}'s anti-affinity keeps it off {o}, where {b} runs: it shuns, per {k}, "
                                      "every pod of the namespace with an LWS group-key other than its own group's, another "
                                      "LeaderWorkerSet's pods included.",
                                "  {l}의 안티어피니티가 {b:이} 실행 중인 {o:을} 피하게 합니다. {k} 기준으로, 네임스페이스에서 "
                                "제 그룹과 다른 LWS group-key를 가진 파드라면 다른 LeaderWorkerSet의 파드까지 모두 "
                                "피합니다.",
                                l=o.name(leader), k=_exclusive_key(leader), o=other, b=_short(blocker, ctx.ns)))
    if first is not None:
        leader, placement = first
        pods_by_ref = {pl.ref(p): p for p in pods}
        rest = [f for f in placement.nodes if f.node not in used and not f.fits]
        if rest:
            lines.append(say(lang, "The other nodes:", "다른 노드:"))
            lines += ["  " + line for line in _grouped(rest, leader, lang, pods_by_ref)]
    return lines


def _exclusive_key(pod: dict) -> str:
    return o.annotations(pod).get(o.EXCLUSIVE_ANNOTATION) or pl.HOSTNAME
