"""Step 5: a worker fails, RecreateGroupOnPodRestart rebuilds only its group.

Judged from restart.txt (UIDs written before the failure), the live UIDs, and evidence that LWS
did the recreating: its RecreateGroup event, or a restart of llm-0-1 the tutor saw itself. The
store's UID history lets a later rollout (step 6) replace llm-1 without undoing this step.
"""

from __future__ import annotations

import re

from tutor.checks.common import MAX_LINES, UID_RE, answer_text, grace_note, kv_lines, pods_running
from tutor.checks.context import Context
from tutor.checks.verdict import Stop, Verdict, failed, passed, waiting
from tutor.cluster import objects as o

FILE = "restart.txt"
LWS = "llm"
KEYS = {"group0_before": "llm-0", "group1_before": "llm-1"}
RECREATE_REASONS = ("RecreateGroup", "RecreateGroupOnPodRestart")


def recreate_events(ctx: Context, group: int) -> list[dict]:
    """LWS's recreation events for this group, of the live llm only: an llm deleted and made
    again keeps the old one's events for an hour, and they say nothing about this one."""
    names_group = re.compile(rf"\bgroup {group}\b|\b{LWS}-{group}\b")
    live = ctx.store.get(o.LWS_KIND, LWS, ctx.ns)
    live_uid = o.uid(live) if live else ""
    return [e for e in ctx.events_about(LWS, o.LWS_KIND)
            if o.event_reason(e) in RECREATE_REASONS and names_group.search(o.event_message(e))
            and (o.event_regarding(e).get("uid") or live_uid) == live_uid]


def owner_of(ctx: Context, uid: str) -> str | None:
    for pod, hist in ctx.store.obs.uids.items():
        if any(u.uid == uid for u in hist):
            return pod
    return None


def check(ctx: Context) -> Verdict:
    text = answer_text(ctx, FILE, ctx.t("group0_before=<UID of llm-0> and group1_before=<UID of llm-1>",
                                        "group0_before=<llm-0 의 UID> 와 group1_before=<llm-1 의 UID>"),
                       max_lines=MAX_LINES)
    values: dict[str, str] = {}
    for _, kv, _ in kv_lines(text):
        for k in KEYS:
            if k in kv:
                values[k] = kv[k]
    for k, pod in KEYS.items():
        if k not in values:
            return failed(ctx.t("{path} has no {key}= line. Write {key}=<UID of {pod}> before failing the worker.",
                                "{path} 에 {key}= 줄이 없습니다. 워커를 실패시키기 전에 {key}=<{pod} 의 UID> 를 적으세요.",
                                path=ctx.path(FILE), key=k, pod=pod),
                          f"kubectl get pod {pod} -n {ctx.ns} -o jsonpath='{{.metadata.uid}}'")
        if not UID_RE.match(values[k]):
            return failed(ctx.t("{key}={v} is not a UID (it looks like 8-4-4-4-12 hex digits).",
                                "{key}={v} 는 UID 모양(16진수 8-4-4-4-12)이 아닙니다.", key=k, v=values[k]))
        owner = owner_of(ctx, values[k])
        if owner is not None and owner != pod:
            return failed(ctx.t("{key} is the UID of {owner}, not of {pod}.",
                                "{key} 는 {pod} 가 아니라 {owner} 의 UID 입니다.", key=k, owner=owner, pod=pod))
    g0, g1 = values["group0_before"].lower(), values["group1_before"].lower()
    leader0, leader1 = ctx.pod("llm-0"), ctx.pod("llm-1")
    old0 = ctx.terminating("llm-0")
    if leader0 is None and old0 is not None:
        # The real kubelet keeps the old leader until its container exits or the grace period ends.
        return waiting(ctx.t("LWS is recreating group 0: ", "LWS 가 그룹 0 을 다시 만드는 중입니다: ")
                       + grace_note(ctx, old0))
    if leader0 is None or leader1 is None:
        return waiting(ctx.t("Waiting for llm-0 and llm-1 to exist (a group is being recreated).",
                             "llm-0 과 llm-1 이 생기기를 기다립니다(그룹을 다시 만드는 중)."))
    uid0, uid1 = o.uid(leader0).lower(), o.uid(leader1).lower()
    ev0, ev1 = recreate_events(ctx, 0), recreate_events(ctx, 1)
    saw_restart = [r for r in ctx.store.obs.restarts if r.pod == "llm-0-1"]

    if g0 == uid0:
        if ev0 or ctx.store.obs.recreations("llm-0"):
            return failed(ctx.t("group0_before equals llm-0's UID after the recreation: restart.txt was written "
                                "after the failure. The point is to record the UIDs before, then compare.",
                                "group0_before 가 다시 만들어진 뒤의 llm-0 UID 와 같습니다. restart.txt 를 실패 뒤에 "
                                "적었습니다. 실패 전에 UID 를 적어 두고 비교하는 것이 이 단계의 핵심입니다."))
        worker0 = ctx.pod("llm-0-1")
        if saw_restart or (worker0 is not None and o.restart_count(worker0) > 0):
            return waiting(ctx.t("llm-0-1's container exited and the kubelet restarted it; LWS is about to "
                                 "recreate group 0.",
                                 "llm-0-1 의 컨테이너가 종료되어 kubelet 이 다시 띄웠습니다. 곧 LWS 가 그룹 0 을 "
                                 "다시 만듭니다."))
        return waiting(ctx.t("restart.txt is ready. Now make llm-0-1's container fail: "
                             "kubectl exec -n {ns} llm-0-1 -- touch /tmp/fail",
                             "restart.txt 가 준비됐습니다. 이제 llm-0-1 의 컨테이너를 실패시키세요: "
                             "kubectl exec -n {ns} llm-0-1 -- touch /tmp/fail", ns=ctx.ns))
    seen0 = ctx.store.obs.uid_seen("llm-0", g0)
    if seen0 is None and ctx.store.obs.uid_history("llm-0") and not ev0 and not saw_restart:
        return failed(ctx.t("group0_before={v} was never the UID of llm-0 (it is {uid}).",
                            "group0_before={v} 는 llm-0 의 UID 였던 적이 없습니다(지금은 {uid}).", v=g0, uid=uid0))

    if g1 != uid1:
        before = ctx.store.obs.uid_seen("llm-1", g1)
        rolled = before is not None and before.revision and before.revision != o.revision(leader1)
        if not rolled:
            why = (ctx.t("LWS recreated group 1 too (event: {msg}).", "LWS 가 그룹 1 도 다시 만들었습니다(이벤트: {msg}).",
                         msg=o.event_message(ev1[-1])) if ev1 else
                   ctx.t("llm-1's UID is now {uid}, not group1_before={v}.", "llm-1 의 UID 가 group1_before={v} 가 아니라 {uid} 입니다.",
                         uid=uid1, v=g1))
            return failed(ctx.t("Group 1 must stay untouched when a group-0 worker fails. ",
                                "그룹 0 의 워커가 실패할 때 그룹 1 은 그대로여야 합니다. ") + why,
                          ctx.t("Fail only llm-0-1, and write group1_before from the live llm-1.",
                                "llm-0-1 만 실패시키고, group1_before 는 지금의 llm-1 에서 적으세요."))
    if not ev0 and not saw_restart:
        return failed(ctx.t("llm-0 has a new UID, but there is no sign that LWS recreated group 0 "
                            "(no RecreateGroup event, no restart of llm-0-1 seen). Deleting pods by hand is "
                            "not the lesson: fail the worker's container instead.",
                            "llm-0 의 UID 는 바뀌었지만 LWS 가 그룹 0 을 다시 만든 흔적(RecreateGroup 이벤트, "
                            "llm-0-1 재시작)이 없습니다. 파드를 직접 지우지 말고 워커 컨테이너를 실패시키세요."),
                      f"kubectl exec -n {ctx.ns} llm-0-1 -- touch /tmp/fail")
    try:
        pods_running(ctx, ["llm-0", "llm-0-1"])
    except Stop as stop:
        return waiting(ctx.t("Group 0 is being recreated.", "그룹 0 을 다시 만드는 중입니다."), *stop.verdict.details)
    evidence = (ctx.t("event {reason}: {msg}", "이벤트 {reason}: {msg}", reason=o.event_reason(ev0[-1]),
                      msg=o.event_message(ev0[-1])) if ev0 else
                ctx.t("the tutor saw llm-0-1 restart (exit code {code})", "llm-0-1 재시작을 보았습니다(종료 코드 {code})",
                      code=saw_restart[-1].exit_code))
    return passed(ctx.t("One worker failed and LWS rebuilt only group 0: llm-0 has a new UID, llm-1 kept its own.",
                        "워커 하나가 실패하자 LWS 가 그룹 0 만 다시 만들었습니다. llm-0 은 UID 가 바뀌고 llm-1 은 그대로입니다."),
                  evidence, f"llm-0: {g0} → {uid0}", f"llm-1: {uid1}")
