"""Step 5: blocker.txt names the member of the gang whose own scheduler message is about nodes
(not the group's), and holds that message.

Which pod that is comes from the live messages: a member held only by its gang repeats the
PodGroup's condition message in its own; the blocker's message does not."""

from __future__ import annotations

from tutor.checks.api import answer_text, Context, failed, MAX_LINES, o, passed, Reads, unconfirmed, Verdict, waiting, say

from .members import CONDITION, KIND, again, bound, clauses, gang_of, messages, names_pod, normalise, podgroup, scheduled

LWS = "orphan"
PODGROUP = "orphan-0"
PODS = ("orphan-0", "orphan-0-1")
FILE = "blocker.txt"
READS = Reads(pods=PODS, events_about=PODS, named=((KIND, PODGROUP),), files=(FILE,))


def blockers(ctx: Context, pods: list[dict], group_message: str) -> list[tuple[dict, str]] | None:
    """(pod, its own message) of each member whose reason is not the group's, or None while a
    member has no message yet."""
    out = []
    for pod in pods:
        said = messages(ctx, pod)
        if not said:
            return None
        if normalise(group_message) not in normalise(said[0]):
            out.append((pod, said[0]))
    return out


def check(ctx: Context) -> Verdict:
    pods = gang_of(ctx, LWS, PODS)
    pg = podgroup(ctx, PODGROUP)
    if pods is None or pg is None:
        return waiting(say(ctx.lang, "Waiting for the gang of step 4: PodGroup {pg} and pods {a}, {b}.",
                                     "4단계의 갱을 기다립니다. PodGroup {pg}, 파드 {a}, {b}.", pg=PODGROUP, a=PODS[0], b=PODS[1]))
    cond = scheduled(pg)
    if not cond and not all(bound(p) for p in pods):
        return waiting(say(ctx.lang, "The scheduler has not judged the gang {pg} yet (no {c} condition): step 4 comes first.",
                                     "스케줄러가 아직 갱 {pg:을} 판단하지 않았습니다({c} 조건 없음). 4단계를 먼저 하세요.",
                                     pg=PODGROUP, c=CONDITION))
    if cond.get("status") == "True":
        return unconfirmed(say(ctx.lang, "The gang {pg} has been placed since: the messages it waited with are gone, so "
                                         "{path} cannot be checked against them now.",
                                         "갱 {pg:은} 그 뒤에 배치되었습니다. 기다리던 때의 메시지가 사라져서 지금은 "
                                         "{path:을} 그 메시지와 견줄 수 없습니다.",
                                         pg=PODGROUP, path=ctx.path(FILE)),
                           again(ctx))
    if all(bound(p) for p in pods) or cond.get("status") != "False":
        return waiting(say(ctx.lang, "The gang {pg} is not waiting now ({state}): this step reads why it waits, as in step 4.",
                                     "갱 {pg:이} 지금 기다리고 있지 않습니다({state}). 이 단계에서는 "
                                     "4단계처럼 갱이 기다리는 이유를 읽습니다.",
                                     pg=PODGROUP, state=cond.get("reason") or "-"))
    found = blockers(ctx, pods, str(cond.get("message") or ""))
    if not found:
        return waiting(say(ctx.lang, "Waiting for the scheduler to say why each pod of {pg} waits.",
                                     "스케줄러가 {pg}의 각 파드가 기다리는 이유를 남기기를 기다립니다.", pg=PODGROUP))
    text = answer_text(ctx, FILE, say(ctx.lang, "the pod that blocks the gang, then its message",
                                                "갱을 붙잡는 파드와 그 메시지"), max_lines=MAX_LINES)
    first = next(line for line in text.splitlines() if line.strip())
    named = [p for p in pods if names_pod(first, o.name(p))]
    culprits = {o.name(p) for p, _ in found}
    if not named:
        return failed(say(ctx.lang, "The first line of {path} names no pod of the gang ({pods}).",
                                    "{path}의 첫 줄에 갱의 파드({pods}) 이름이 없습니다.",
                                    path=ctx.path(FILE), pods=", ".join(PODS)))
    held = [o.name(p) for p in named if o.name(p) not in culprits]
    if held:
        return failed(say(ctx.lang, "{pod} waits only for its gang: its scheduler message repeats the PodGroup's. The pod that "
                                    "blocks has a reason of its own.",
                                    "{pod:은} 갱을 기다릴 뿐입니다. 이 파드의 스케줄러 메시지는 PodGroup의 메시지를 "
                                    "되풀이합니다. 갱을 붙잡는 파드에는 자기만의 이유가 있습니다.", pod=held[0]),
                      say(ctx.lang, "Where to look: the PodScheduled condition of each pod, beside the PodGroup's message.",
                                    "볼 곳: 각 파드의 PodScheduled 조건과 PodGroup의 메시지."))
    pod, message = next((p, m) for p, m in found if o.name(p) == o.name(named[0]))
    wanted = clauses(message)
    missing = [c for c in wanted if c not in normalise(text)]
    if missing:
        return failed(say(ctx.lang, "{path} names {pod} but does not hold its own scheduler message: {k} of the {n} "
                                    "parts of it are missing.",
                                    "{path:이} {pod:을} 가리키지만 그 파드의 스케줄러 메시지가 온전하지 않습니다. "
                                    "{n}개 구절 중 {k}개가 빠졌습니다.",
                                    path=ctx.path(FILE), pod=o.name(pod), k=len(missing), n=len(wanted)),
                      say(ctx.lang, "Where to look: {pod}'s PodScheduled condition, or its FailedScheduling event.",
                                    "볼 곳: {pod}의 PodScheduled 조건 또는 FailedScheduling 이벤트.", pod=o.name(pod)))
    return passed(say(ctx.lang, "{pod} holds the gang back: its own reason is about nodes, while the other pod only "
                                "waits for its gang.",
                                "{pod:이} 갱을 붙잡고 있습니다. 이 파드가 기다리는 이유는 노드에 관한 것이고, "
                                "다른 파드는 갱을 기다릴 뿐입니다.",
                                pod=o.name(pod)), normalise(message))
