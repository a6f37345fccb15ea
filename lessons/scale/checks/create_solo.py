"""Step 1: LeaderWorkerSet solo, one group of three pods, all Running."""

from __future__ import annotations

from tutor.checks.api import (Context, EXPLAIN, failed, find_lws_doc, live_lws, lwt, misplaced_fields, o, say,
                              passed, pods_running, Reads, Verdict)

LWS = "solo"
FILE = "solo.yaml"
SIZE = 3
PODS = ["solo-0", "solo-0-1", "solo-0-2"]
READS = Reads(kinds=("LeaderWorkerSet",), pods=tuple(PODS), files=(FILE,),
              explained=Reads(kinds=EXPLAIN, events_about=tuple(PODS)))


def size_problems(ctx: Context, obj: dict, where: str) -> list[str]:
    probs = misplaced_fields(ctx, obj, where)
    size = lwt(obj).get("size")
    if o.int_or_none(size) != SIZE:
        probs.append(say(ctx.lang, "{where}: leaderWorkerTemplate.size is {v}; it must be 3 (a leader and two workers).",
                                   "{where}: leaderWorkerTemplate.size 값이 {v}입니다. 3(리더 하나와 워커 둘)이어야 합니다.",
                                   where=where, v=size if size is not None else "-"))
    return probs


def check(ctx: Context) -> Verdict:
    doc = find_lws_doc(ctx, FILE, LWS)
    probs = size_problems(ctx, doc, ctx.path(FILE))
    replicas = o.as_dict(doc.get("spec")).get("replicas")
    if o.int_or_none(replicas) != 1:  # the file keeps saying 1: the next step scales the live object only
        probs.append(say(ctx.lang, "{path}: spec.replicas is {v}; it must be 1 (one group).",
                                   "{path}: spec.replicas 값이 {v}입니다. 1(그룹 하나)이어야 합니다.",
                                   path=ctx.path(FILE), v=replicas if replicas is not None else "-"))
    if probs:
        return failed(probs[0], *probs[1:])
    live = live_lws(ctx, LWS, FILE)
    probs = size_problems(ctx, live, say(ctx.lang, "live solo", "클러스터의 solo"))
    if probs:
        return failed(say(ctx.lang, "The solo in the cluster differs from {path}: apply the file again.",
                                    "클러스터의 solo가 파일 {path}의 내용과 다릅니다. 파일을 다시 적용하세요.",
                                    path=ctx.path(FILE)), *probs)
    pods_running(ctx, PODS)  # a Stop from here is the verdict
    return passed(say(ctx.lang, "solo runs as one group of three: solo-0 leads solo-0-1 and solo-0-2.",
                                "solo가 파드 셋짜리 그룹 하나로 돌고 있습니다. solo-0이 solo-0-1과 solo-0-2를 이끕니다."))
