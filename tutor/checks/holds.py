"""What holds a pod that the node filters do not explain, or not alone, in the learner's words:
another scheduler, its gang (tutor/cluster/gang.py), a filter the tutor does not model. Where
the tutor cannot tell, it says so and names the thing it cannot see; it never gives the node
filters' reason in place of the real one. checks/explain.py puts these lines into an explanation.
"""

from __future__ import annotations

from dataclasses import dataclass

from tutor.cluster import gang as gg
from tutor.cluster import objects as o
from tutor.cluster import placement as pl
from tutor.cluster import scheduler_message as sm
from tutor.i18n.bilingual import say

DEFAULT_SCHEDULER = "default-scheduler"

# Hold.kind
OTHER_SCHEDULER = "scheduler-name"  # spec.schedulerName names another scheduler
NO_POD_GROUP = "no-pod-group"  # PreEnqueue: the PodGroup it names does not exist
MIN_COUNT = "min-count"  # PreEnqueue: fewer pods name the PodGroup than its minCount
GANG = "gang"  # the scheduler turned it away for its gang, with the group's message
BLOCKS_GANG = "blocks-gang"  # its own message: it fits no node, and its gang waits for it
GANG_UNSEEN = "gang-unseen"  # it names a PodGroup, and the tutor cannot read PodGroups here
UNMODELLED = "unmodelled"  # the scheduler's reason comes from a filter the tutor does not model


@dataclass(frozen=True)
class Hold:
    """What holds the pod, when it is not (only) the node filters the tutor models."""
    kind: str
    subject: str  # the scheduler's name, the PodGroup's, or what the tutor does not model
    pods: tuple[str, ...] = ()  # GANG: the pods that fit no node; MIN_COUNT: the pods naming the group


def other_scheduler(pod: dict) -> str:
    """The scheduler the pod asks for when it is not the default one, else ""."""
    name = o.dig(pod, "spec", "schedulerName")
    return str(name) if name not in (None, "", DEFAULT_SCHEDULER) else ""


def other_scheduler_text(pod: dict, scheduler: str, message: str, lang: str) -> tuple[str, list[tuple[int, str]]]:
    headline = say(lang, "{p} asks for the scheduler {s} (spec.schedulerName), not the default one: the default "
                         "scheduler never looks at it and writes nothing about it. The tutor cannot tell whether {s} "
                         "runs, nor how it places pods.",
                   "{p:은} 기본 스케줄러가 아닌 스케줄러 {s:을} 지정했습니다(spec.schedulerName). 기본 스케줄러는 이 파드를 "
                   "보지 않고 아무것도 기록하지 않습니다. 튜터는 {s:이} 실행 중인지도, 파드를 어떻게 배치하는지도 알 수 "
                   "없습니다.", p=o.name(pod), s=scheduler)
    lines = [(0, say(lang, "Its last scheduling message: {m}", "마지막 스케줄링 메시지: {m}", m=_one_line(message)))] \
        if message else []
    return headline, lines


def held_text(pod: dict, gang: gg.Gang, why: str, message: str, lang: str) -> tuple[str, list[tuple[int, str]], Hold]:
    """A pod that PreEnqueue holds (gang.held_before_scheduling() is `why`): the scheduler never
    tries it and says nothing, so the node filters are beside the point."""
    name = o.name(pod)
    if why == "missing":
        headline = say(lang, "{p} is held before scheduling: the PodGroup it names, {g}, does not exist in namespace "
                             "{ns}.",
                       "{p:은} 스케줄링 전에 붙잡혀 있습니다. 지정한 PodGroup {g:이} 네임스페이스 {ns}에 없습니다.",
                       p=name, g=gang.name, ns=gang.namespace)
        lines = [(0, say(lang, "The scheduler does not try a pod until its PodGroup exists, and says nothing meanwhile: "
                               "no event, no message.",
                         "스케줄러는 PodGroup이 생길 때까지 파드를 시도하지 않고, 그동안 아무것도 남기지 않습니다. 이벤트도 "
                         "메시지도 없습니다."))]
        hold = Hold(NO_POD_GROUP, gang.name)
    else:
        names = tuple(o.name(p) for p in gang.members)
        headline = say(lang, "{p} is held before scheduling: PodGroup {g} waits for minCount {m} pods, and {k} name "
                             "it ({names}).",
                       "{p:은} 스케줄링 전에 붙잡혀 있습니다. PodGroup {g:은} minCount {m}개의 파드를 기다리는데, 이를 "
                       "지정한 파드는 {k}개입니다({names}).",
                       p=name, g=gang.name, m=gang.min_count, k=len(names), names=", ".join(names))
        lines = [(0, say(lang, "The scheduler tries none of them until that many exist, and says nothing meanwhile: "
                               "no event, no message (PodGroup {g}: {s}).",
                         "스케줄러는 그만큼 모일 때까지 어느 파드도 시도하지 않고, 그동안 아무것도 남기지 않습니다. 이벤트도 "
                         "메시지도 없습니다(PodGroup {g}: {s}).", g=gang.name, s=gang.state))]
        hold = Hold(MIN_COUNT, gang.name, names)
    if message:
        lines.append((0, say(lang, "The message it still carries is from an earlier attempt: {m}",
                             "남아 있는 메시지는 이전 시도의 것입니다: {m}", m=_one_line(message))))
    return headline, lines, hold


def turned_away_text(pod: dict, gang: gg.Gang, message: str, alone_fits: list[str], alone_causes: list[str],
                     lang: str) -> tuple[str, list[tuple[int, str]], Hold]:
    """A pod the scheduler turned away with its gang's message: the group could not place
    minCount pods, whatever this pod's own fit. Names the pods that fit no node."""
    name = o.name(pod)
    headline = say(lang, "{p} is Pending because of its gang: PodGroup {g} could not place its pods together. The "
                         "scheduler said: {m}",
                   "{p:은} 갱 때문에 Pending입니다. PodGroup {g:이} 파드를 함께 배치하지 못했습니다. 스케줄러 메시지: {m}",
                   p=name, g=gang.name, m=_one_line(message))
    lines = [(0, say(lang, "PodGroup {g} binds none of its pods until {n} of them fit at once.",
                     "PodGroup {g:은} 파드 {n}개가 한꺼번에 들어갈 때까지 어느 파드도 노드에 묶지 않습니다.",
                     g=_with_state(gang), n=gang.min_count if gang.min_count is not None else "?"))]
    blockers = []
    for mate in gang.members:
        said = str(o.condition(mate, "PodScheduled").get("message", "")) if not o.node_name(mate) else ""
        if mate is pod or o.name(mate) == name or not said or gg.is_group_message(said):
            continue
        blockers.append(o.name(mate))
        lines.append((0, say(lang, "Held back by {b}, which fits no node: {m}",
                             "갱을 막는 파드: {b}. 들어갈 노드가 없습니다: {m}", b=o.name(mate), m=_first_sentence(said))))
    if not blockers:
        lines.append((0, say(lang, "No pod of the gang has a reason of its own now: the scheduler tries the gang again "
                                   "when the cluster changes.",
                             "지금은 자기 이유가 있는 갱 파드가 없습니다. 클러스터가 바뀌면 스케줄러가 갱을 다시 시도합니다.")))
    if alone_fits:
        lines.append((0, say(lang, "Alone, {p} would fit: {n}. The gang needs room for all of them at once.",
                             "혼자라면 {p:은} 들어갈 수 있습니다: {n}. 갱은 모든 파드가 한꺼번에 들어갈 자리가 필요합니다.",
                             p=name, n=", ".join(alone_fits))))
    else:
        lines.append((0, say(lang, "Alone, {p} would fit no node either:", "혼자여도 {p:이} 들어갈 노드는 없습니다:", p=name)))
        lines += [(1, cause) for cause in alone_causes]
    return headline, lines, Hold(GANG, gang.name, tuple(blockers))


def blocks_gang_lines(pod: dict, gang: gg.Gang, mates: tuple[dict, ...], lang: str) -> list[tuple[int, str]]:
    """Under a gang pod's own message (it fits no node): its gang waits for it."""
    name = o.name(pod)
    lines = [(0, say(lang, "{p} holds back its gang: PodGroup {g} binds none of its pods while {p} fits no node.",
                     "{p:이} 갱을 막고 있습니다. {p:이} 들어갈 노드가 없는 동안 PodGroup {g:은} 어느 파드도 노드에 묶지 "
                     "않습니다.", p=name, g=_with_state(gang)))]
    if mates:
        lines.append((0, say(lang, "Counted with {m} placed first, as the scheduler places a gang's pods in one attempt.",
                             "스케줄러가 갱의 파드를 한 번에 배치하듯, {m:을} 먼저 배치한 것으로 세었습니다.",
                             m=", ".join(f"{o.name(p)} → {o.node_name(p)}" for p in mates))))
    return lines


def gang_unseen_line(pod: dict, lang: str) -> str:
    return say(lang, "{p} is in the gang of PodGroup {g}, and the tutor does not read PodGroups here: it cannot tell "
                     "whether the gang holds it.",
               "{p:은} PodGroup {g}의 갱에 속하는데, 튜터가 여기서는 PodGroup을 읽지 않습니다. 갱이 이 파드를 붙잡고 "
               "있는지는 알 수 없습니다.", p=o.name(pod), g=o.scheduling_group(pod))


def gang_state_line(pod: dict, gang: gg.Gang | None, lang: str) -> str:
    """One line on a bound pod's gang."""
    if gang is None:
        return say(lang, "It is in the gang of PodGroup {g}; the tutor does not read PodGroups here.",
                   "PodGroup {g}의 갱에 속합니다. 튜터가 여기서는 PodGroup을 읽지 않습니다.", g=o.scheduling_group(pod))
    if gang.pod_group is None:
        return say(lang, "It names PodGroup {g}, which does not exist now.", "지정한 PodGroup {g:이} 지금은 없습니다.",
                   g=gang.name)
    return say(lang, "Its gang: PodGroup {g}: {s}.", "갱: PodGroup {g}: {s}.", g=gang.name, s=gang.state)


def unmodelled_lines(pod: dict, reasons: list[str], lang: str) -> list[tuple[int, str]]:
    """Under scheduler reasons the tutor has no rule for; names the claims when they are about
    volumes."""
    claims = pl.claim_names(pod)
    if claims and any("volume" in r.lower() or "persistentvolumeclaim" in r.lower() for r in reasons):
        return [(0, say(lang, "{p} mounts the PersistentVolumeClaim(s) {c}, and the scheduler's reason is about them. "
                              "The tutor does not read PersistentVolumeClaims: kubectl get pvc shows their state.",
                        "{p:은} PersistentVolumeClaim {c:을} 쓰고, 스케줄러의 이유는 이것에 관한 것입니다. 튜터는 "
                        "PersistentVolumeClaim을 읽지 않습니다. 상태는 kubectl get pvc로 봅니다.",
                        p=o.name(pod), c=", ".join(claims)))]
    return []


def _with_state(gang: gg.Gang) -> str:
    """"orphan-0 (Unschedulable)": a particle after it fits the name (tutor/i18n/particles.py)."""
    return f"{gang.name} ({gang.state})"


def _one_line(message: str) -> str:
    return " ".join(str(message).split())


def _first_sentence(message: str) -> str:
    """The counted first sentence of a FitError ("0/3 nodes are available: …"), else the whole."""
    parsed = sm.parse_message(message)
    if parsed.total is None:
        return _one_line(message)
    text = _one_line(message)
    return text[:len(text) - len(parsed.rest)].rstrip(" .") + "." if parsed.rest else text
