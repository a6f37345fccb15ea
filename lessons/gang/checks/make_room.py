"""Step 6: llm scaled to one group, and orphan's gang placed: both pods Running, the PodGroup's
condition True; the verdict tells how far apart the two binds were, and no rule: step 7 asks
what a gang does with a GPU it could use in part."""

from __future__ import annotations

from typing import cast

from tutor.checks.api import (attach, Context, Episode, evidence, failed, grace_note, merged, o, parse_time, passed, say,
                              pods_running, Reads, Seen, Story, Verdict, waiting)

from . import NOTES
from .members import KIND, gang_of, podgroup, scheduled

ROOM = "llm"
LWS = "orphan"
PODGROUP = "orphan-0"
PODS = ("orphan-0", "orphan-0-1")
READS = merged(evidence(LWS), Reads(lws=(ROOM, LWS), pods=PODS, pods_of=(ROOM,), named=((KIND, PODGROUP),),
                                    events_about=PODS))
TOGETHER = 1.0  # seconds: binds closer than this came in one go (the scheduler's own timing is milliseconds)


def bound_at(pod: dict) -> float | None:
    """When the pod's PodScheduled condition turned True: when it was bound."""
    cond = o.condition(pod, "PodScheduled")
    parsed = parse_time(cond.get("lastTransitionTime")) if cond.get("status") == "True" else None
    return parsed[0] if parsed else None


def check(ctx: Context) -> Verdict:
    room = ctx.lws(ROOM)
    replicas = o.int_or_none(o.dig(room, "spec", "replicas")) if room else None
    if replicas != 1:
        return waiting(say(ctx.lang, "llm has {n} group(s); this step asks for one.",
                                     "llm의 그룹 수가 {n}입니다. 이 단계에서는 하나여야 합니다.",
                                     n=replicas if replicas is not None else "-"))
    pg = podgroup(ctx, PODGROUP)
    pods = gang_of(ctx, LWS, PODS)
    if pg is None or pods is None:
        return failed(say(ctx.lang, "The gang of step 4 is not there (PodGroup {pg}, pods {a}, {b}).",
                                    "4단계의 갱이 없습니다(PodGroup {pg}, 파드 {a}, {b}).", pg=PODGROUP, a=PODS[0], b=PODS[1]))
    going = ctx.terminating_of(ROOM)
    if going and not all(o.phase(p) == "Running" for p in pods):
        return waiting(say(ctx.lang, "Waiting for llm's second group to give back its GPUs.",
                                     "llm의 두 번째 그룹이 GPU를 돌려주기를 기다립니다."),
                       *(grace_note(ctx, p, NOTES) for p in going))
    cond = scheduled(pg)
    if cond.get("status") == "False" and not any(o.node_name(p) for p in pods):
        return failed(say(ctx.lang, "The gang {pg} still cannot be placed, with llm at one group: {why}",
                                    "llm이 그룹 하나인데도 갱 {pg:을} 배치할 수 없습니다: {why}",
                                    pg=PODGROUP, why=cond.get("message") or "?"),
                      say(ctx.lang, "Where to look: the node ledger (g), for what holds lab-server's GPUs.",
                                    "볼 곳: 노드 장부(g). lab-server의 GPU를 무엇이 쥐고 있는지 보세요."))
    pods_running(ctx, list(PODS), NOTES)  # a Stop from here is the verdict
    if cond.get("status") != "True":
        return waiting(say(ctx.lang, "Both pods run; waiting for PodGroup {pg} to say so.",
                                     "두 파드가 돌고 있습니다. PodGroup {pg}에 그 사실이 적히기를 기다립니다.", pg=PODGROUP))
    times = [bound_at(p) for p in pods]
    known = [t for t in times if t is not None]
    spread = ""
    if len(known) == len(times):
        gap = max(known) - min(known)  # PodScheduled times have whole seconds
        spread = say(ctx.lang, "Both were bound in the same second.", "두 파드가 1초도 안 되는 사이에 바인딩됐습니다.") \
            if gap < 1 else say(ctx.lang, "Both were bound within {s:.0f} s of each other.",
                                          "두 파드가 {s:.0f}초 안에 함께 바인딩됐습니다.", s=gap)
    return passed(say(ctx.lang, "Room was made: both pods of the gang {pg} are bound, and run.",
                                "자리가 나자 갱 {pg}의 두 파드가 모두 바인딩되어 돌고 있습니다.",
                                pg=PODGROUP), *([spread] if spread else []))


def predict_bind_order(episode: Episode, story: Story) -> Seen:
    """Which pod of the gang was bound first (the step's question, lesson.yaml): the episode's
    bind lines, from the Scheduled events (timed to the microsecond)."""
    binds = [line for line in episode.lines if line.kind == "gang-bound"]
    placed = next((line for line in episode.lines if line.kind == "gang-placed"), None)
    if placed is None:
        return Seen("", ("the gang is not placed yet.", "갱이 아직 배치되지 않았습니다."), tuple(binds))
    spread = cast(float, placed.what.as_dict()["spread"])  # seconds (story: gang-placed)
    first = binds[0].pods[0]
    if spread < TOGETHER:
        return Seen("together", (f"both pods were bound within {spread * 1000:.0f} ms, {first} a moment first.",
                                 f"두 파드가 {spread * 1000:.0f}밀리초 안에 바인딩됐습니다. {attach(first, '이')} "
                                 "아주 조금 먼저였을 뿐입니다."), tuple(binds))
    choice = "leader" if first == PODS[0] else "worker"
    return Seen(choice, (f"{first} was bound first, {spread:.1f} s before the other.",
                         f"{attach(first, '이')} {spread:.1f}초 먼저 바인딩됐습니다."), tuple(binds))
