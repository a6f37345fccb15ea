"""Step 3: PodGroup orphan-0 in the file and in the cluster, a gang of exactly one group of
orphan (minCount = the LWS size, 2: a leader and one worker)."""

from __future__ import annotations

from tutor.checks.api import Context, failed, find_doc, passed, Reads, Verdict, say

from .members import KIND, made_anew, podgroup, podgroup_problems

FILE = "orphan-pg.yaml"
NAME = "orphan-0"
LWS = "orphan"
SIZE = 2  # orphan's leaderWorkerTemplate.size, from the LWS lab (lessons/lws step 8)
READS = Reads(named=((KIND, NAME),), files=(FILE,))


def check(ctx: Context) -> Verdict:
    doc = find_doc(ctx, FILE, KIND, NAME, ("the PodGroup " + NAME, "PodGroup " + NAME))
    probs = podgroup_problems(ctx, doc, ctx.path(FILE), SIZE, LWS)
    if probs:
        return failed(probs[0], *probs[1:])
    live = podgroup(ctx, NAME)
    if live is None:
        return failed(say(ctx.lang, "PodGroup {name} is not in namespace {ns}: apply {path} to the cluster.",
                                    "네임스페이스 {ns}에 PodGroup {name:이} 없습니다. {path:을} 클러스터에 적용하세요.",
                                    name=NAME, ns=ctx.ns, path=ctx.path(FILE)))
    probs = podgroup_problems(ctx, live, say(ctx.lang, "live {name}", "클러스터의 {name}", name=NAME), SIZE, LWS)
    if probs:
        return failed(made_anew(ctx, live, ctx.path(FILE)) or
                      say(ctx.lang, "The {name} in the cluster differs from {path}: apply the file again.",
                                    "클러스터의 {name:이} {path:과} 다릅니다. 파일을 다시 적용하세요.",
                                    name=NAME, path=ctx.path(FILE)), *probs)
    return passed(say(ctx.lang, "PodGroup {name} is the gang of one whole group of orphan: its minCount counts the pods of one "
                                "group, the leader included.",
                                "PodGroup {name:은} orphan 그룹 하나 전체의 갱입니다. minCount가 리더를 포함한 그룹 하나의 "
                                "파드 수와 같습니다.",
                                name=NAME))
