"""Step 2: the half group of the LWS lab is gone: no pod of orphan outside a gang, and the
orphan in the cluster (if any) is a new one, made after its PodGroup, not the old one changed
in place."""

from __future__ import annotations

from tutor.checks.api import Context, failed, grace_note, o, parse_time, passed, Reads, templates, Verdict, waiting, say

from . import NOTES
from .members import KIND, group_of

LWS = "orphan"
BESIDE = "llm"  # the LWS lab's other LWS, which this lesson starts beside
PODGROUP = "orphan-0"
READS = Reads(lws=(LWS,), pods_of=(LWS, BESIDE), named=((KIND, PODGROUP),))


def created(obj: dict) -> float | None:
    parsed = parse_time(o.dig(obj, "metadata", "creationTimestamp"))
    return parsed[0] if parsed else None


def check(ctx: Context) -> Verdict:
    if not ctx.pods_of(BESIDE):  # no pod of llm: the cluster's pods are not all in yet (or the LWS lab is not done)
        return waiting(say(ctx.lang, "Waiting for the pods of llm, the LWS lab's, in {ns}.",
                                     "{ns}에서 LWS 실습의 llm 파드를 기다립니다.", ns=ctx.ns))
    live = ctx.lws(LWS)
    pg = ctx.store.get(KIND, PODGROUP, ctx.ns)
    if live is not None and pg is not None and (born := created(live)) is not None \
            and (pg_born := created(pg)) is not None and born < pg_born:
        return failed(say(ctx.lang, "The LeaderWorkerSet orphan in the cluster is the one from the LWS lab, made before the "
                                    "PodGroup {pg}: it was changed in place, not deleted and made again.",
                                    "클러스터의 LeaderWorkerSet orphan은 LWS 실습에서 만든 것으로, PodGroup {pg}보다 먼저 "
                                    "만들어졌습니다. 지우고 다시 만들지 않고 그 자리에서 고쳤습니다.", pg=PODGROUP),
                      say(ctx.lang, "A change in place replaces the group by a rolling update while the old pods still run, "
                                    "and a pod already bound keeps its node. To do the step again: delete orphan, wait for "
                                    "its pods to go, then apply the file of step 4.",
                                    "그 자리에서 고치면 옛 파드가 아직 도는 동안 롤링 업데이트로 그룹을 바꾸고, 이미 배치된 "
                                    "파드는 노드를 그대로 지킵니다. 단계를 다시 하려면 orphan을 지우고 파드가 사라지기를 "
                                    "기다린 뒤 4단계의 파일을 적용하세요."))
    # An orphan whose templates name a PodGroup is step 4's, made again: a pod of it in no gang is step 4's matter.
    remade = live is not None and any(group_of(t) for _, t in templates(live))
    old = [] if remade else [p for p in ctx.pods_of(LWS) if not group_of(p)]
    if old:
        placed = [p for p in old if o.node_name(p)]
        return failed(say(ctx.lang, "orphan still has pods in no gang: {pods}{where}.",
                                    "orphan에 아직 갱에 들지 않은 파드가 있습니다: {pods}{where}.",
                                    pods=", ".join(o.name(p) for p in old),
                                    where=say(ctx.lang, " ({p} runs on {n})", "({p:은} {n}에서 실행 중)", p=o.name(placed[0]),
                                                        n=o.node_name(placed[0])) if placed else ""),
                      say(ctx.lang, "Their template has no PodGroup, and a pod's schedulingGroup cannot be added later: the "
                                    "LeaderWorkerSet has to go, with its pods.",
                                    "템플릿에 PodGroup이 없고, 파드의 schedulingGroup은 나중에 더할 수 없습니다. "
                                    "LeaderWorkerSet을 파드와 함께 없애야 합니다."))
    going = [p for p in ctx.terminating_of(LWS) if not group_of(p)]
    if going:
        return waiting(say(ctx.lang, "Waiting for orphan's old pods to go.", "orphan의 옛 파드가 사라지기를 기다립니다."),
                       *(grace_note(ctx, p, NOTES) for p in going))
    if live is not None:
        if not ctx.pods_of(LWS):  # nothing to tell the new orphan from the old by, yet
            return waiting(say(ctx.lang, "Waiting for the pods of the orphan in the cluster.",
                                         "클러스터에 있는 orphan의 파드를 기다립니다."))
        return passed(say(ctx.lang, "The half group is gone; the orphan in the cluster now is a new one, born a gang.",
                                    "반쪽 그룹이 사라졌습니다. 지금 클러스터의 orphan은 처음부터 갱으로 태어난 새 것입니다."))
    return passed(say(ctx.lang, "The half group is gone: orphan and its pods were deleted, and its GPU request with them.",
                                "반쪽 그룹이 사라졌습니다. orphan과 그 파드가 지워졌고, GPU 요청도 함께 사라졌습니다."))
