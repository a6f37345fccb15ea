"""Step 8: orphan's leader runs, its worker cannot be scheduled, and partial.txt says why.

The scheduler's wording changes between Kubernetes versions, so the expected text is derived
from the live FailedScheduling event (or the PodScheduled condition), never hard-coded.
"""

from __future__ import annotations

import re

from tutor.checks.api import (answer_text, Context, EXPLAIN, failed, live_lws, o, passed, Reads, Verdict, say,
                              verdict_lines, waiting)

LWS = "orphan"
LEADER, WORKER = "orphan-0", "orphan-0-1"
FILE = "partial.txt"
CLAUSE_RE = re.compile(r"^\d+ \S")
READS = Reads(lws=(LWS,), pods=(LEADER, WORKER), events_about=(WORKER,), files=(FILE,),
              explained=Reads(kinds=EXPLAIN))


def normalise(text: str) -> str:
    return " ".join(text.split())


def clauses(message: str) -> list[str]:
    """The "<n> <reason>" clauses of the first sentence of a FailedScheduling message:
    "0/3 nodes are available: 1 Insufficient nvidia.com/gpu, 2 node(s) had untolerated taint {...}."."""
    first = normalise(message).split(". ")[0].rstrip(".")
    _, sep, rest = first.partition(": ")
    parts = [p.strip() for p in rest.split(", ")] if sep else [first]
    return [p for p in parts if CLAUSE_RE.match(p)] or [first]


def scheduler_reasons(ctx: Context, pod: dict) -> list[str]:
    """Live messages for the worker, newest first: its FailedScheduling events, then the condition."""
    msgs = [o.event_message(e) for e in reversed(ctx.events_about(WORKER, "Pod"))
            if o.event_reason(e) == "FailedScheduling"
            and o.event_regarding(e).get("uid") in (None, "", o.uid(pod))]
    cond = o.condition(pod, "PodScheduled")
    if cond.get("status") == "False" and cond.get("message"):
        msgs.append(str(cond["message"]))
    return [m for m in msgs if m]


# What holds a pod back for a gang scheduler: LWS can hand its groups to one (Volcano through
# gangSchedulingManagement, since v0.7), and Kubernetes can gate pods until a whole group fits.
GROUP_ANNOTATIONS = ("scheduling.k8s.io/group-name", "scheduling.x-k8s.io/pod-group")


def gang_held(ctx: Context, pod: dict) -> str:
    """Why a Pending pod waits for its whole group rather than for room, or "" when nothing says so."""
    gates = [str(g.get("name", "?")) for g in o.as_list(o.dig(pod, "spec", "schedulingGates")) if isinstance(g, dict)]
    if gates:
        return say(ctx.lang, "its scheduling gates ({g})", "스케줄링 게이트({g})", g=", ".join(gates))
    # A native gang (Kubernetes' Workload API): spec.workloadRef in 1.35 (alpha), spec.schedulingGroup
    # (podGroupName) from 1.36 on.
    if o.dig(pod, "spec", "workloadRef"):
        return say(ctx.lang, "its workload (spec.workloadRef)", "워크로드(spec.workloadRef)")
    if group := o.dig(pod, "spec", "schedulingGroup"):
        name = o.as_dict(group).get("podGroupName")
        return say(ctx.lang, "its scheduling group (spec.schedulingGroup{g})", "스케줄링 그룹(spec.schedulingGroup{g})",
                             g=f": {name}" if name else "")
    scheduler = str(o.dig(pod, "spec", "schedulerName", default="") or "default-scheduler")
    group = next((str(v) for k, v in o.as_dict(o.dig(pod, "metadata", "annotations")).items() if k in GROUP_ANNOTATIONS), "")
    if scheduler != "default-scheduler" or group:
        return say(ctx.lang, "scheduler {s}{g}", "스케줄러 {s}{g}", s=scheduler,
                             g=say(ctx.lang, ", pod group {p}", ", 파드 그룹 {p}", p=group) if group else "")
    return ""


def check(ctx: Context) -> Verdict:
    live_lws(ctx, LWS, "orphan.yaml")  # the lab names no file for orphan; this is the lesson's
    leader, worker = ctx.pod(LEADER), ctx.pod(WORKER)
    if leader is None or worker is None:
        return waiting(say(ctx.lang, "Waiting for pods {a} and {b}.", "파드 {a}, {b:을} 기다립니다.", a=LEADER, b=WORKER))
    if o.phase(worker) == "Running" or o.node_name(worker):
        return failed(say(ctx.lang, "{w} was scheduled (on {node}). For a half group the real node must have no free GPU: "
                                    "llm must hold all 4 (is llm running with 2 groups of 2?), and orphan's worker must have "
                                    "no KWOK toleration.",
                                    "{w:이} 배치됐습니다({node}). 반쪽 그룹이 되려면 실제 노드에 남는 GPU가 없어야 합니다. "
                                    "llm이 4장을 모두 쥐고 있어야 하고(llm이 2×2로 실행 중인가요?), orphan 워커에는 "
                                    "KWOK 톨러레이션이 없어야 합니다.",
                                    w=WORKER, node=o.node_name(worker) or "?"),
                      say(ctx.lang, "Delete orphan, check llm, then create orphan again.",
                                    "orphan을 지우고 llm을 확인한 뒤 orphan을 다시 만드세요."))
    if o.phase(leader) != "Running" and (held := gang_held(ctx, leader)):
        return failed(say(ctx.lang, "{a} is Pending too, held by {why}: this cluster schedules an LWS group as a unit (gang "
                                    "scheduling), so no half group forms here. The lab assumes what LWS does by default: the "
                                    "default scheduler placing each pod on its own.",
                                    "{a}도 Pending입니다. 붙잡고 있는 것: {why}. 이 클러스터는 LWS 그룹을 한 덩어리로 "
                                    "배치하므로(갱 스케줄링) 반쪽 그룹이 생기지 않습니다. 실습은 LWS의 기본 동작, 즉 기본 "
                                    "스케줄러가 파드를 하나씩 배치하는 것을 전제로 합니다.", a=LEADER, why=held),
                      say(ctx.lang, "Ask whoever runs the lab whether gang scheduling can be off for this step.",
                                    "이 단계에서 갱 스케줄링을 끌 수 있는지 실습 운영자에게 물어보세요."))
    if o.phase(leader) != "Running":
        return waiting(say(ctx.lang, "Waiting for leader {a} to be Running ({p}).",
                                     "리더 {a:이} Running이 되기를 기다립니다({p}).",
                                     a=LEADER, p=o.phase(leader)))
    reasons = scheduler_reasons(ctx, worker)
    if not reasons:
        return waiting(say(ctx.lang, "{w} is Pending; waiting for the scheduler's reason.",
                                     "{w:이} Pending입니다. 스케줄러의 이유를 기다립니다.", w=WORKER))
    text = normalise(answer_text(ctx, FILE, say(ctx.lang, "the scheduler's reason for " + WORKER,
                                                          WORKER + "에 대한 스케줄러의 이유")))
    for msg in reasons:
        if all(c in text for c in clauses(msg)):
            # source: sigs.k8s.io/lws@v0.9.0 cmd/main.go «if cfg.GangSchedulingManagement != nil {»
            # source: k8s.io/kubernetes@v1.37.2 pkg/scheduler/schedule_one.go «the entire scheduling workflow for a single pod.»
            return passed(say(ctx.lang, "{a} runs while {w} waits: by default LWS hands a group's pods to the scheduler, "
                                        "which places them one by one, so half a group can hold resources; gang scheduling "
                                        "prevents that (LWS can use Volcano's, since v0.7).",
                                        "{a:은} 실행 중이지만 {w:은} 기다립니다. 기본 설정의 "
                                        "LWS는 그룹의 파드를 스케줄러에 넘기고 "
                                        "스케줄러는 하나씩 배치하므로, 반쪽 그룹이 자원을 쥘 수 있습니다. 갱 스케줄링이 이것을 "
                                        "막습니다(LWS는 v0.7부터 Volcano의 갱 스케줄링을 쓸 수 있습니다).", a=LEADER, w=WORKER),
                          *verdict_lines(ctx, WORKER), normalise(msg))
    # Which clauses are missing is the answer itself: only how many is said, and where to read them.
    wanted = clauses(reasons[0])
    missing = [c for c in wanted if c not in text]
    return failed(say(ctx.lang, "{path} does not hold the scheduler's reason for {w}: {k} of the {n} \"<count> <reason>\" "
                                "clauses of its message are missing.",
                                "{path}에 담긴 {w}의 스케줄러 이유가 온전하지 않습니다. 메시지의 \"<개수> <이유>\" 구절 "
                                "{n}개 중 {k}개가 빠졌습니다.",
                                path=ctx.path(FILE), w=WORKER, k=len(missing), n=len(wanted)),
                  say(ctx.lang, "Where to look: {w}'s FailedScheduling event (the Events pane), or its PodScheduled condition.",
                                "볼 곳: {w}의 FailedScheduling 이벤트(이벤트 창) 또는 PodScheduled 조건.", w=WORKER),
                  # why each node refused it, without the scheduler's own clauses (those are the answer)
                  *(line for line in verdict_lines(ctx, WORKER) if not any(c in line for c in wanted)))
