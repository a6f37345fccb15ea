"""Step 4: orphan made again as a gang: in orphan.yaml and in the cluster, one group of a leader
that asks no GPU and a worker that asks one, both templates naming PodGroup orphan-0; both pods
wait (neither bound) while the PodGroup says why, and gang.txt holds that condition's message.

The message is read from the live PodGroup, never written here: its wording (and its
`pod group preemption: ...` tail) belongs to the scheduler's version."""

from __future__ import annotations

from tutor.checks.api import (answer_text, Context, failed, find_lws_doc, live_lws, o, passed, Reads, unconfirmed, say,
                              Verdict, waiting)

from .members import (CONDITION, KIND, again, bound, bound_alone, gang_of, lws_problems, normalise, podgroup, scheduled,
                      silent_faults)

LWS = "orphan"
PODGROUP = "orphan-0"
PODS = ("orphan-0", "orphan-0-1")
SIZE = 2  # orphan's leaderWorkerTemplate.size, from the LWS lab (lessons/lws step 8)
FILE, ANSWER = "orphan.yaml", "gang.txt"
READS = Reads(lws=(LWS,), pods=PODS, pods_of=(LWS,), kinds=(KIND,), events_about=(LWS, PODS[0]), files=(FILE, ANSWER))


def check(ctx: Context) -> Verdict:
    where = ctx.path(FILE)
    probs = lws_problems(ctx, find_lws_doc(ctx, FILE, LWS), where, PODGROUP, SIZE)
    if probs:
        return failed(probs[0], *probs[1:])
    live = live_lws(ctx, LWS, FILE)
    probs = lws_problems(ctx, live, say(ctx.lang, "live orphan", "클러스터의 orphan"), PODGROUP, SIZE)
    if probs:
        return failed(say(ctx.lang, "The orphan in the cluster differs from {path}: apply the file again.",
                                    "클러스터의 orphan이 {path:과} 다릅니다. 파일을 다시 적용하세요.", path=where), *probs)
    pods = gang_of(ctx, LWS, PODS)
    if pods is None:
        refused = [o.event_message(e) for sts in (LWS, PODS[0]) for e in ctx.events_about(sts, "StatefulSet")
                   if o.event_reason(e) == "FailedCreate"]
        if refused:  # the API server refused the pods (an invalid podGroupName, say): no pod will come
            return failed(say(ctx.lang, "The API server refuses orphan's pods: their StatefulSet cannot create them.",
                                        "API 서버가 orphan의 파드를 거부합니다. StatefulSet이 파드를 만들지 못합니다."),
                          refused[-1])
        return waiting(say(ctx.lang, "Waiting for pods {a} and {b}.", "파드 {a}, {b:을} 기다립니다.", a=PODS[0], b=PODS[1]))
    fault = silent_faults(ctx, pods, live)
    if fault:
        return failed(fault[0], *fault[1:])
    pg = podgroup(ctx, PODGROUP)
    cond = scheduled(pg) if pg is not None else {}
    if all(bound(p) for p in pods) and cond.get("status") == "True":
        return unconfirmed(say(ctx.lang, "The gang {pg} has been placed since (its {c} condition is True): the message it "
                                         "waited with is gone, so {path} cannot be checked against it now.",
                                         "갱 {pg:은} 그 뒤에 배치되었습니다({c} 조건이 True). 기다리던 때의 메시지가 사라져서 "
                                         "지금은 {path:을} 그 메시지와 견줄 수 없습니다.",
                                         pg=PODGROUP, c=CONDITION, path=ctx.path(ANSWER)),
                           again(ctx))
    if all(bound(p) for p in pods):
        return failed(say(ctx.lang, "Both pods of the gang {pg} are bound ({nodes}): there was room for them. This step needs "
                                    "llm, at 2 groups of 2, to hold all 4 GPUs of lab-server.",
                                    "갱 {pg}의 두 파드가 모두 바인딩됐습니다({nodes}). 자리가 있었다는 뜻입니다. 이 "
                                    "단계에서는 2×2로 실행 중인 llm이 lab-server의 GPU 4장을 모두 쥐고 있어야 합니다.",
                                    pg=PODGROUP, nodes=", ".join(sorted({o.node_name(p) for p in pods}))), again(ctx))
    alone = bound_alone(ctx, pods, pg, again(ctx))
    if alone:
        return failed(*alone)
    if cond.get("status") != "False":
        return waiting(say(ctx.lang, "The pods of orphan are there; waiting for the scheduler to try the gang {pg} (its {c} "
                                     "condition).",
                                     "orphan의 파드가 생겼습니다. 스케줄러가 갱 {pg:을} 시도하기를 기다립니다({c} 조건).",
                                     pg=PODGROUP, c=CONDITION))
    text = normalise(answer_text(ctx, ANSWER, say(ctx.lang, "the message of the PodGroup's condition",
                                                            "PodGroup 조건의 메시지")))
    message = normalise(str(cond.get("message") or ""))
    if message and message in text:
        return passed(say(ctx.lang, "Neither pod of orphan is bound, the leader included: the scheduler tried the gang {pg}, "
                                    "found no node for the worker, and gave the leader none either.",
                                    "리더를 포함해 orphan의 파드가 하나도 바인딩되지 않았습니다. 스케줄러는 갱 {pg:을} "
                                    "시도해 워커의 노드를 찾지 못했고, 리더에게도 노드를 주지 않았습니다.", pg=PODGROUP),
                      message)
    return failed(say(ctx.lang, "{path} does not hold the message of {pg}'s {c} condition as the PodGroup has it now.",
                                "{path}에 {pg}의 {c} 조건 메시지가 지금 PodGroup에 있는 그대로 담겨 있지 않습니다.",
                                path=ctx.path(ANSWER), pg=PODGROUP, c=CONDITION),
                  say(ctx.lang, "Where to look: the PodGroup's status.conditions; save the message only, whole.",
                                "볼 곳: PodGroup의 status.conditions. 메시지만, 빠짐없이 저장하세요."))


# --- predict, then see: the step's question (lesson.yaml), graded on the story --------------------------

from tutor.checks.api import attach, Episode, Seen, Story  # noqa: E402

from .make_room import TOGETHER  # noqa: E402


def predict_leader_alone(episode: Episode, story: Story) -> Seen:
    """Whether orphan's leader, which asks for no GPU, was bound without its worker (the step's
    question): the gang's binds the story has, else the held episode. Binds less than TOGETHER
    apart came with the gang, once room was made (step 6)."""
    binds = {line.pods[0]: line for e in story.of(LWS, "gang-placed", episode.group) for line in e.lines
             if line.kind == "gang-bound"}
    leader, worker = binds.get(PODS[0]), binds.get(PODS[1])
    if leader is not None and (worker is None or worker.at - leader.at >= TOGETHER):
        node = leader.what.as_dict().get("node") or "?"
        return Seen("runs", (f"the leader {PODS[0]} was bound to {node} while its worker had no node.",
                             f"리더 {attach(PODS[0], '은')} 워커가 노드를 받지 못한 사이에 {node}에 바인딩됐습니다."),
                    (leader,))
    return Seen("waits", (f"the scheduler gave the leader {PODS[0]} no node while its worker had none: both pods of "
                          "orphan stayed Pending.",
                          f"워커가 노드를 받지 못하는 동안 스케줄러는 리더 {PODS[0]}에게도 노드를 주지 않았습니다. "
                          "orphan의 두 파드 모두 Pending으로 남았습니다."), episode.lines)
