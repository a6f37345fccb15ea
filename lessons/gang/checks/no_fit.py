"""Step 7: big (one group of 3 pods, two of them asking a GPU each) is a gang that cannot fit in
lab-server's one free GPU: none of its pods is bound, its PodGroup says why, and the free GPU
stays free (the node ledger's count)."""

from __future__ import annotations

from tutor.checks.api import (attach, Context, Episode, evidence, EXPLAIN, failed, find_doc, find_lws_doc, grace_note, live_lws,
                              say, every, merged, o, passed, Reads, Seen, Story, Verdict, waiting)

from . import NOTES
from .members import (CONDITION, KIND, allocatable_gpus, bound, bound_alone, gang_of, gpus_bound, lws_problems, made_anew,
                      podgroup, podgroup_problems, scheduled, silent_faults)

LWS = "big"
PODGROUP = "big-0"
SIZE = 3
PODS = ("big-0", "big-0-1", "big-0-2")
NODE = "lab-server"
FILE = "big.yaml"
READS = merged(evidence(LWS), Reads(lws=(LWS,), pods=PODS, pods_of=(LWS,), kinds=(KIND, *EXPLAIN), files=(FILE,)))


def again(ctx: Context) -> str:
    """How to see big wait once it has been placed: its PodGroup made anew, with one GPU free."""
    # source: k8s.io/api@v0.37.2 scheduling/v1beta1/types.go «it serves as a terminal state and will never revert to False»
    # source: k8s.io/kubernetes@v1.37.2 pkg/scheduler/schedule_one_podgroup.go «successfully scheduled, don't regress the»
    return say(ctx.lang, "To see it wait: delete big, and once its pods are gone the PodGroup {pg} too, since its {c} "
                         "condition never goes back from True. Then, with one GPU free on lab-server, apply {file} again.",
                         "다시 확인하려면 big을 지우고, big의 파드가 사라지면 PodGroup {pg}도 지우세요. {c} 조건은 한번 "
                         "True가 되면 다시 바뀌지 않습니다. 그다음 lab-server에 남는 GPU가 1장뿐일 때 {file:을} 다시 "
                         "적용하세요.", pg=PODGROUP, c=CONDITION, file=FILE)


def check(ctx: Context) -> Verdict:
    where = ctx.path(FILE)
    pg_doc = find_doc(ctx, FILE, KIND, PODGROUP, ("the PodGroup big-0 and the LeaderWorkerSet big",
                                                 "PodGroup big-0과 LeaderWorkerSet big"))
    probs = podgroup_problems(ctx, pg_doc, where, SIZE, LWS)
    probs += lws_problems(ctx, find_lws_doc(ctx, FILE, LWS), where, PODGROUP, SIZE)
    if probs:
        return failed(probs[0], *probs[1:])
    live = live_lws(ctx, LWS, FILE)
    probs = lws_problems(ctx, live, say(ctx.lang, "live big", "클러스터의 big"), PODGROUP, SIZE)
    pg = podgroup(ctx, PODGROUP)
    if pg is not None:
        probs += podgroup_problems(ctx, pg, say(ctx.lang, "live {name}", "클러스터의 {name}", name=PODGROUP), SIZE, LWS)
    if probs:
        return failed((made_anew(ctx, pg, where) if pg is not None else "") or
                      say(ctx.lang, "What is in the cluster differs from {path}: apply the file again.",
                                    "클러스터의 오브젝트가 {path:과} 다릅니다. 파일을 다시 적용하세요.", path=where), *probs)
    pods = gang_of(ctx, LWS, PODS)
    if pods is None:
        return waiting(say(ctx.lang, "Waiting for the pods of big ({pods}).", "big의 파드 {pods:을} 기다립니다.",
                                     pods=", ".join(PODS)))
    fault = silent_faults(ctx, pods, live)
    if fault:
        return failed(fault[0], *fault[1:])
    if all(bound(p) for p in pods):
        return failed(say(ctx.lang, "All 3 pods of big are bound ({nodes}): there were 2 free GPUs. For this step lab-server "
                                    "must have only one: llm at one group, and orphan running.",
                                    "big의 세 파드가 모두 바인딩됐습니다({nodes}). 남는 GPU가 2장 있었다는 뜻입니다. 이 "
                                    "단계에서는 lab-server에 남는 GPU가 1장뿐이어야 합니다. llm은 그룹 하나, orphan은 실행 "
                                    "중이어야 합니다.",
                                    nodes=", ".join(sorted({o.node_name(p) for p in pods}))), again(ctx))
    alone = bound_alone(ctx, pods, pg, again(ctx))
    if alone:
        return failed(*alone)
    cond = scheduled(pg) if pg is not None else {}
    if cond.get("status") != "False":
        return waiting(say(ctx.lang, "The pods of big are there; waiting for the scheduler to try the gang {pg} (its {c} "
                                     "condition).",
                                     "big의 파드가 생겼습니다. 스케줄러가 갱 {pg:을} 시도하기를 기다립니다({c} 조건).",
                                     pg=PODGROUP, c=CONDITION))
    held, total = gpus_bound(ctx, NODE), allocatable_gpus(ctx, NODE)
    if total is not None and held >= total:
        going = [p for p in every(ctx, "Pod") if o.node_name(p) == NODE and o.is_terminating(p)]
        if going:  # its GPU counts until it is gone
            return waiting(say(ctx.lang, "{node} has no free GPU until its Terminating pods are gone.",
                                         "{node}의 종료 중인 파드가 사라질 때까지는 남는 GPU가 없습니다.", node=NODE),
                           *(grace_note(ctx, p, NOTES) for p in going))
        return failed(say(ctx.lang, "{node} has no free GPU ({held:g} of {total:g} allocated), so big would wait anyway: this "
                                    "step asks what big does while {node} has one GPU free. After step 6 one should be free.",
                                    "{node}에 남는 GPU가 없습니다({total:g}장 가운데 {held:g}장 할당). 그러면 big은 어차피 "
                                    "기다립니다. 이 단계는 {node}에 GPU가 1장 남아 있을 때 big이 어떻게 되는지 봅니다. "
                                    "6단계를 마치면 한 장이 남아야 합니다.",
                                    node=NODE, held=held, total=total),
                      say(ctx.lang, "Where to look: the node ledger (g). To do the step again: delete big, finish step 6, "
                                    "then apply {file} again.",
                                    "볼 곳: 노드 장부(g). 단계를 다시 하려면 big을 지우고 6단계를 마친 뒤 {file:을} 다시 "
                                    "적용하세요.", file=FILE))
    free = say(ctx.lang, "{node} has {held:g} of its {total:g} GPUs allocated: the free one stays free.",
                         "{node}의 GPU {total:g}장 가운데 {held:g}장만 할당되어 있습니다. 남는 GPU는 그대로 비어 있습니다.",
                         node=NODE, held=held, total=total) if total is not None else ""
    return passed(say(ctx.lang, "big waits whole: none of its 3 pods is bound, not even the worker that would fit on its own.",
                                "big이 통째로 기다립니다. 세 파드 가운데 하나도 바인딩되지 않았고, "
                                "혼자라면 들어갈 워커도 마찬가지입니다."),
                  *([free] if free else []), str(cond.get("message") or ""))


def predict_free_gpu(episode: Episode, story: Story) -> Seen:
    """Whether a pod of big was bound while the gang was held (the step's question, lesson.yaml):
    the held episode, and any bind of big's pods the story has."""
    binds = [line for e in story.of(LWS, "gang-placed", episode.group) for line in e.lines if line.kind == "gang-bound"]
    if binds:
        pods = ", ".join(line.pods[0] for line in binds)
        return Seen("yes", (f"big had pods bound: {pods}.", f"big의 {attach(pods, '이')} 바인딩됐습니다."), tuple(binds))
    return Seen("no", ("the scheduler held big whole: none of its pods was bound, and the free GPU stayed free.",
                       "스케줄러가 big을 통째로 붙잡아 두었습니다. 파드가 하나도 바인딩되지 않았고, 남는 GPU는 그대로 "
                       "비어 있었습니다."), episode.lines)
