"""Step 2: the half group of the LWS lab is gone: no pod of orphan runs outside a gang.

Judged on the state the learner reached, whichever way they reached it: orphan deleted (its pods
go with it), or its templates changed in place to name a PodGroup (LWS then rolls the group: the
old pods go and new ones, made from the new templates, take their place). Either may come before
or after the PodGroup is made. A pod in no gang made from templates that already name a PodGroup
(a template left without one, or a field the API server dropped) is step 4's matter, not the half
group's."""

from __future__ import annotations

from tutor.checks.api import (Context, failed, grace_note, named, o, parse_time, passed, Reads, templates, Verdict, waiting,
                             say)

from . import NOTES
from .members import group_of

LWS = "orphan"
BESIDE = "llm"  # the LWS lab's other LWS, which this lesson starts beside
READS = Reads(lws=(LWS,), pods_of=(LWS, BESIDE), statefulsets=(LWS,))


def created(obj: dict) -> float | None:
    parsed = parse_time(o.dig(obj, "metadata", "creationTimestamp"))
    return parsed[0] if parsed else None


def template_of(live: dict, pod: dict) -> dict:
    """The template of the LWS a pod of it is made from: the leader's for worker-index 0."""
    made = dict(templates(live))
    return made.get("leaderTemplate", made.get("workerTemplate", {})) if o.worker_index(pod) == 0 \
        else made.get("workerTemplate", {})


def older(ctx: Context, live: dict, pod: dict) -> bool:
    """Whether a pod of the LWS was made from templates older than the LWS's own (a rolling update
    will replace it): the controller has not yet taken up the LWS's last change, or the pod's
    revision is not the one of the leader StatefulSet, which LWS sets to the current templates'."""
    seen = o.int_or_none(o.dig(live, "status", "observedGeneration"))
    if seen is not None and seen < (o.int_or_none(o.dig(live, "metadata", "generation")) or 0):
        return True
    sts = named(ctx, "StatefulSet", LWS)
    have, want = o.revision(pod), o.revision(sts) if sts else ""
    if have and want:
        return have != want
    return bool(group_of(template_of(live, pod)))  # no revision to go by: its template names a PodGroup it lacks


def check(ctx: Context) -> Verdict:
    if not ctx.pods_of(BESIDE):  # no pod of llm: the cluster's pods are not all in yet (or the LWS lab is not done)
        return waiting(say(ctx.lang, "Waiting for the pods of llm, the LWS lab's, in {ns}.",
                                     "{ns}에서 LWS 실습의 llm 파드를 기다립니다.", ns=ctx.ns))
    live = ctx.lws(LWS)
    gang = live is not None and any(group_of(t) for _, t in templates(live))
    outside = [p for p in ctx.pods_of(LWS) if not group_of(p)]
    going = [p for p in ctx.terminating_of(LWS) if not group_of(p)]
    if live is None:
        sts = named(ctx, "StatefulSet", LWS)
        if outside and sts is not None and not o.is_terminating(sts) and not o.dig(sts, "metadata", "ownerReferences"):
            return failed(say(ctx.lang, "orphan's pods are still here, in no gang: {pods}.",
                                        "orphan의 파드가 어느 갱에도 속하지 않은 채 아직 남아 있습니다: {pods}.",
                                        pods=", ".join(o.name(p) for p in outside)),
                          say(ctx.lang, "The LeaderWorkerSet is gone but its StatefulSet orphan was left behind (deleted with "
                                        "--cascade=orphan?): delete the StatefulSet, and its pods go with it.",
                                        "LeaderWorkerSet은 지워졌지만 StatefulSet orphan이 남았습니다(--cascade=orphan으로 "
                                        "지웠나요?). 그 StatefulSet을 지우면 파드도 함께 사라집니다."))
        if outside or going:
            # source: sigs.k8s.io/lws@v0.9.0 pkg/controllers/pod_controller.go «setControllerReferenceWithStatefulSet(&pod,»
            return waiting(say(ctx.lang, "orphan is deleted; waiting for its pods to go: the leader goes when its grace period "
                                         "ends, and the worker once the leader is gone (its StatefulSet belongs to the leader).",
                                         "orphan은 지워졌습니다. 파드가 사라지기를 기다립니다. 리더는 유예 시간이 끝나야 "
                                         "사라지고, 워커는 리더가 사라질 때 함께 사라집니다(워커의 StatefulSet은 리더 파드에 "
                                         "딸려 있습니다)."),
                           *(grace_note(ctx, p, NOTES) for p in going))
        return passed(say(ctx.lang, "The half group is gone: orphan was deleted, and its pods and their GPU request with it.",
                                    "반쪽 그룹이 사라졌습니다. orphan을 지우자 그 파드와 파드의 GPU 요청도 함께 "
                                    "사라졌습니다."))
    if not gang:
        if outside:
            placed = [p for p in outside if o.node_name(p)]
            # source: k8s.io/api@v0.37.2 core/v1/types.go (SchedulingGroup) «This field is immutable, but a group object»
            return failed(say(ctx.lang, "orphan still has pods in no gang: {pods}{where}.",
                                        "orphan에 아직 어느 갱에도 속하지 않은 파드가 있습니다: {pods}{where}.",
                                        pods=", ".join(o.name(p) for p in outside),
                                        where=say(ctx.lang, " ({p} runs on {n})", "({p:은} {n}에서 실행 중)",
                                                            p=o.name(placed[0]), n=o.node_name(placed[0])) if placed else ""),
                          say(ctx.lang, "Their templates name no PodGroup, and a pod's schedulingGroup cannot be changed once "
                                        "the pod exists: these pods have to be replaced. Delete orphan and wait for its pods to "
                                        "go; step 4 makes it again.",
                                        "템플릿에 PodGroup이 없고, 파드의 schedulingGroup은 파드가 생긴 뒤에는 바꿀 수 "
                                        "없습니다. 이 파드들은 새 파드로 바뀌어야 합니다. orphan을 지우고 파드가 사라질 "
                                        "때까지 기다리세요. 4단계에서 다시 만듭니다."))
        if going:
            return waiting(say(ctx.lang, "Waiting for orphan's old pods to go.", "orphan의 옛 파드가 사라지기를 기다립니다."),
                           *(grace_note(ctx, p, NOTES) for p in going))
        # its pods, when they come, will be in no gang
        return waiting(say(ctx.lang, "Waiting for the pods of the orphan in the cluster.",
                                     "클러스터에 있는 orphan의 파드를 기다립니다."))
    born = created(live)
    left = [p for p in outside + going if born is not None and (c := created(p)) is not None and c < born]
    rolled = sorted([p for p in outside if p not in left and older(ctx, live, p)] + [p for p in going if p not in left],
                    key=o.name)
    if rolled:
        # source: sigs.k8s.io/lws@v0.9.0 pkg/controllers/leaderworkerset_controller.go «Indicates a new rolling update here.»
        # source: sigs.k8s.io/lws@v0.9.0 pkg/controllers/pod_controller.go «setControllerReferenceWithStatefulSet(&pod,»
        return waiting(say(ctx.lang, "orphan's templates were changed in place, so the LeaderWorkerSet rolls its group onto "
                                     "them: it deletes the old leader, and the old worker goes once the leader is gone. Waiting "
                                     "for the old pods ({pods}) to go.",
                                     "orphan의 템플릿을 그 자리에서 바꿨으므로 LeaderWorkerSet이 그룹을 새 템플릿으로 롤링 "
                                     "업데이트합니다. 옛 리더를 지우고, 옛 워커는 리더가 사라지면 함께 사라집니다. 옛 "
                                     "파드({pods})가 사라지기를 기다립니다.",
                                     pods=", ".join(o.name(p) for p in rolled)),
                       *(grace_note(ctx, p, NOTES) for p in rolled if o.is_terminating(p)))
    if left:  # pods of an orphan deleted before this one was made
        return waiting(say(ctx.lang, "Waiting for the pods of the deleted orphan ({pods}) to go.",
                                     "지운 orphan의 파드({pods})가 사라지기를 기다립니다.",
                                     pods=", ".join(o.name(p) for p in left)),
                       *(grace_note(ctx, p, NOTES) for p in left if o.is_terminating(p)))
    if (o.int_or_none(o.dig(live, "metadata", "generation")) or 1) > 1:
        return passed(say(ctx.lang, "The half group is gone. orphan's templates were changed in place, so the LeaderWorkerSet "
                                    "rolled its group: it deleted the old leader, the old pods stayed until their grace period "
                                    "ended, and it made the pods again from the new templates, which name a PodGroup.",
                                    "반쪽 그룹이 사라졌습니다. orphan의 템플릿을 그 자리에서 바꾸자 LeaderWorkerSet이 그룹을 "
                                    "롤링 업데이트했습니다. 옛 리더를 지웠고, 옛 파드는 유예 시간이 끝날 때까지 남아 "
                                    "있었으며, PodGroup을 가리키는 새 템플릿으로 파드를 다시 만들었습니다."))
    return passed(say(ctx.lang, "The half group is gone: the orphan in the cluster now was made anew from templates that name "
                                "a PodGroup.",
                                "반쪽 그룹이 사라졌습니다. 지금 클러스터의 orphan은 PodGroup을 가리키는 템플릿으로 새로 "
                                "만든 것입니다."))
