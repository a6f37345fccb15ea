"""Step 5: a worker fails, RecreateGroupOnPodRestart rebuilds only its group.

Judged from restart.txt (UIDs written before the failure) against the timeline of group 0 and
group 1 (tutor/cluster/timeline.py): what the tutor saw itself and what the cluster still keeps
(LWS's RecreateGroup events name the leader UID they deleted; the scheduler's events name each
pod UID; restartCount and lastState). Rules, in order:
- a UID the evidence refutes never passes: one another pod held, one llm-0 is known not to have
  had when LWS recreated group 0 (the message names the UID it did have), the same for llm-1;
- group 1 saw no failure since group1_before was current (no restart, no deletion, no new UID,
  no RecreateGroup), counting nothing that belongs to a rolling update;
- group 0 was recreated by LWS after group0_before was current: its RecreateGroup event (or a
  newer LWS's, under another reason or in other words) deleted that very UID, or, with no such
  event, its effects show it (that leader deleted outside a rollout right after a container of
  group 0 restarted: the timeline's recreation known by its effects), or the tutor saw llm-0-1
  restart; a leader replaced with nothing failed first is a pod deleted by hand;
- the pod that failed is llm-0-1 and no other: the one LWS's event names ("Worker pod X failed":
  LWS calls every pod of a group a worker, the leader too) and every restart in group 0 seen
  before that recreation;
- where the evidence is gone (events expired, the tutor not running then), it says so.
"""

from __future__ import annotations

from tutor.checks.api import (answer_text, attach, Context, Episode, evidence, EXPLAIN, Fact, failed, say,
                              grace_note, Instant, Kind, kv_lines, MAX_LINES, merged, named, o, passed, pods_running,
                              Reads, restart_detail, Seen, Stop, Story, timeline, Timeline, timeline_lines,
                              uid_owner, UID_RE, unconfirmed, Verdict, waiting)

from . import NOTES  # the lab's words on its pods' command

FILE = "restart.txt"
LWS = "llm"
KEYS = {"group0_before": "llm-0", "group1_before": "llm-1"}
WORKER = "llm-0-1"  # the one pod the step asks to fail
# llm's timeline and the story its verdict carries (checks/step_story.py), who held a UID the
# file names; pods_running on group 0 when explained.
READS = merged(evidence(LWS), Reads(uid_owners=True, files=(FILE,), pods_of=(LWS,), statefulsets=(LWS,),
                                   explained=Reads(kinds=EXPLAIN, events_about=("llm-0", "llm-0-1"))))


def read_values(ctx: Context) -> dict[str, str]:
    text = answer_text(ctx, FILE, say(ctx.lang, "group0_before=<UID of llm-0> and group1_before=<UID of llm-1>",
                                                "group0_before=<llm-0의 UID>와 group1_before=<llm-1의 UID>"),
                       max_lines=MAX_LINES)
    values: dict[str, str] = {}
    for _, kv, _ in kv_lines(text):
        for k in KEYS:
            if k in kv:
                values[k] = kv[k]
    for k, pod in KEYS.items():
        if k not in values:
            raise Stop(failed(say(ctx.lang, "{path} has no {key}= line. Write {key}=<UID of {pod}> before failing the worker.",
                                            "{path}에 {key}= 줄이 없습니다. 워커를 실패시키기 전에 "
                                            "{key}=<{pod}의 UID> 줄을 적으세요.",
                                            path=ctx.path(FILE), key=k, pod=pod),
                              say(ctx.lang, "Where to look: {pod}'s metadata.uid.", "볼 곳: {pod}의 metadata.uid.", pod=pod)))
        if not UID_RE.match(values[k]):
            raise Stop(failed(say(ctx.lang, "{key}={v} is not a UID (it looks like 8-4-4-4-12 hex digits).",
                                            "{key}={v:은} UID 모양(16진수 8-4-4-4-12)이 아닙니다.", key=k, v=values[k])))
        values[k] = values[k].lower()
    return values


def deleted_by(tl: Timeline, rec: Fact) -> str:
    """The leader UID a recreation deleted: named by the event (v0.9+), else the one current then."""
    if rec.uid:
        return rec.uid.lower()
    before = tl.uid_at("llm-0", rec.earliest)
    return before.uid.lower() if before else ""


def check(ctx: Context) -> Verdict:
    values = read_values(ctx)
    g0, g1 = values["group0_before"], values["group1_before"]
    tl = timeline(ctx, LWS)
    story = [say(ctx.lang, "timeline of llm (UTC):", "llm의 타임라인(UTC):"), *timeline_lines(tl, ctx.lang, LWS, limit=12)]

    def fail(msg: str, *details: str) -> Verdict:
        return failed(msg, *details, *story)

    for k, pod in KEYS.items():
        owner = uid_owner(ctx, values[k])
        if owner is not None and owner != pod:
            return fail(say(ctx.lang, "{key} is the UID of {owner}, not of {pod}.",
                                      "{key:은} {pod:이} 아니라 {owner}의 UID입니다.", key=k, owner=owner, pod=pod))

    born0, born1 = tl.created("llm-0", g0), tl.created("llm-1", g1)
    # Group 1 must see no failure at all since group1_before was current (rollouts excepted).
    fail1 = [f for f in _group1_failures(tl, g1, born1) if not _rollout_under_way(ctx, f)]
    if fail1:
        return fail(_group1_failed(ctx, fail1),
                    say(ctx.lang, "Fail only llm-0-1; group 1 must stay untouched. To do the step again: delete llm, "
                                  "apply {path}, write restart.txt, then fail llm-0-1.",
                                  "llm-0-1만 실패시키세요. 그룹 1은 그대로여야 합니다. 다시 하려면 llm을 지우고 {path:을} "
                                  "적용한 뒤 restart.txt를 적고 llm-0-1을 실패시키세요.", path=ctx.path("lws.yaml")))

    rec0 = [f for f in tl.recreations(LWS, 0) if not tl.in_rollout(f)]
    # Which pod failed is known from its restart on: said before LWS has even rebuilt the group.
    what0 = _what_failed(tl, rec0, g0, born0)
    if wrong := _wrong_pod(what0):
        return _wrong_pod_verdict(ctx, wrong, what0, story)

    leader0, leader1 = ctx.pod("llm-0"), ctx.pod("llm-1")
    old0 = ctx.terminating("llm-0")
    if leader0 is None and old0 is not None:
        # The real kubelet keeps the old leader until its container exits or the grace period ends.
        return waiting(say(ctx.lang, "LWS is recreating group 0: ", "LWS가 그룹 0을 다시 만드는 중입니다: ")
                       + grace_note(ctx, old0, NOTES))
    if leader0 is None or leader1 is None:
        return waiting(say(ctx.lang, "Waiting for llm-0 and llm-1 to exist (a group is being recreated).",
                                     "llm-0과 llm-1이 생기기를 기다립니다(그룹을 다시 만드는 중)."), *story)
    uid0, uid1 = o.uid(leader0).lower(), o.uid(leader1).lower()

    if g0 == uid0:
        worker0 = ctx.pod("llm-0-1")
        if any(deleted_by(tl, r) == g0 for r in rec0) or (worker0 is not None and tl.of(
                LWS, 0, (Kind.RESTARTED,), pod="llm-0-1") and tl.of(LWS, 0, (Kind.RESTARTED,))[-1].uid == o.uid(worker0)):
            # Said as it is, so nobody is asked to touch /tmp/fail again (the real kubelet restarts the
            # container first; LWS then recreates the group).
            return waiting(say(ctx.lang, "llm-0-1's container exited and the kubelet restarted it; LWS is about to "
                                         "recreate group 0.",
                                         "llm-0-1의 컨테이너가 종료되어 kubelet이 다시 띄웠습니다. 곧 "
                                         "LWS가 그룹 0을 다시 만듭니다."), *story)
        made0 = [r for r in rec0 if born0 is not None and r.at <= born0.latest]
        # After another pod's failure, UIDs written from the rebuilt group are a fresh start.
        if made0 and made0[-1].pod in ("", WORKER):
            return fail(say(ctx.lang, "group0_before equals llm-0's UID after the recreation: restart.txt was written "
                                      "after the failure. The point is to record the UIDs before, then compare.",
                                      "group0_before가 다시 만들어진 뒤의 llm-0 UID와 같습니다. restart.txt를 실패 뒤에 "
                                      "적었습니다. 실패 전에 UID를 적어 두고 비교하는 것이 이 단계의 핵심입니다."))
        return waiting(say(ctx.lang, "restart.txt is ready. Now make llm-0-1's container fail, as the step says, and "
                                     "watch which pods get new UIDs.",
                                     "restart.txt가 준비됐습니다. 이제 단계의 설명대로 llm-0-1의 컨테이너를 실패시키고, 어느 "
                                     "파드의 UID가 바뀌는지 지켜보세요."))

    # group0_before must be the UID LWS's recreation of group 0 deleted.
    deleted = [u for u in (deleted_by(tl, r) for r in rec0) if u]
    if g0 not in deleted:
        if deleted:
            return fail(say(ctx.lang, "group0_before={v} is not the UID llm-0 had before the failure: it differs from the "
                                      "llm-0 that LWS's recreation of group 0 deleted (the timeline below shows when). Copy "
                                      "UIDs exactly, before failing the worker.",
                                      "group0_before={v:은} 실패 전 llm-0의 UID가 아닙니다. LWS가 그룹 0을 다시 만들며 "
                                      "지운 llm-0의 UID와 다릅니다(언제인지는 아래 타임라인에 있습니다). 워커를 실패시키기 "
                                      "전에 UID를 그대로 옮겨 적으세요.", v=g0))
        if born0 is None and not rec0:
            now0 = tl.created("llm-0", uid0)
            if now0 is not None and not tl.covers(now0.at):
                return _evidence_gone(ctx, story)
            return fail(say(ctx.lang, "group0_before={v} was never the UID of llm-0 (compare it with llm-0's metadata.uid "
                                      "and the UIDs the timeline below shows it had).",
                                      "group0_before={v:은} llm-0의 UID였던 적이 없습니다(llm-0의 metadata.uid, 그리고 아래 "
                                      "타임라인에 나오는 llm-0의 예전 UID와 비교해 보세요).", v=g0))

    gone = tl.earlier_uids("llm-0", g0)  # the recreation that made group0_before's llm-0 is none since
    counted = [r for r in rec0 if (born0 is None or r.at >= born0.earliest) and deleted_by(tl, r) not in gone]
    restart0 = [f for f in tl.of(LWS, 0, (Kind.RESTARTED,), pod="llm-0-1",
                                 since=born0.at if born0 else None) if not tl.in_rollout(f)]
    if not counted and not restart0:
        if born0 is None:
            return _evidence_gone(ctx, story)
        return fail(say(ctx.lang, "llm-0 has a new UID, but there is no sign that LWS recreated group 0 "
                                  "(no RecreateGroup event, no restart of llm-0-1 seen). Deleting pods by hand is "
                                  "not the lesson: fail the worker's container instead.",
                                  "llm-0의 UID는 바뀌었지만 LWS가 그룹 0을 다시 만든 흔적(RecreateGroup 이벤트, "
                                  "llm-0-1 재시작)이 없습니다. 파드를 직접 지우지 말고 워커 컨테이너를 실패시키세요."))

    # group1_before must be llm-1's UID when group 0 was recreated; replaced since only by a rollout.
    when = (counted or restart0)[0].at
    notes = []
    then1 = tl.uid_at("llm-1", when)
    if born1 is None and then1 is not None and then1.uid.lower() != g1:
        return fail(say(ctx.lang, "group1_before={v} is not the UID llm-1 had when group 0 was recreated.",
                                  "group1_before={v:은} 그룹 0이 다시 만들어질 때의 llm-1 UID가 아닙니다.", v=g1))
    if born1 is not None and born1.surely_after(when):
        return fail(say(ctx.lang, "group1_before={v} is a UID llm-1 got after group 0 was recreated; write the UIDs "
                                  "before failing the worker.",
                                  "group1_before={v:은} 그룹 0이 다시 만들어진 뒤에 llm-1이 받은 UID입니다. 워커를 "
                                  "실패시키기 전에 UID를 적으세요.", v=g1))
    if g1 != uid1:
        nxt = tl.successor("llm-1", g1)
        if born1 is None and nxt is None:
            notes.append(say(ctx.lang, "(the cluster keeps no record of llm-1's earlier UIDs: group1_before "
                                       "could not be confirmed)",
                                       "(클러스터에 llm-1의 예전 UID 기록이 없어 group1_before를 확인하지 못했습니다)"))
        elif nxt is None or not tl.in_rollout(nxt):
            return fail(say(ctx.lang, "Group 1 must stay untouched when a group-0 worker fails, but llm-1's UID is no longer "
                                      "group1_before={v}.",
                                      "그룹 0의 워커가 실패할 때 그룹 1은 그대로여야 하는데, llm-1의 UID가 더는 "
                                      "group1_before={v:이} 아닙니다.", v=g1))
    if born0 is None and not any(r.uid for r in counted):
        notes.append(say(ctx.lang, "(the cluster keeps no record of llm-0's earlier UIDs: group0_before could not be confirmed)",
                                   "(클러스터에 llm-0의 예전 UID 기록이 없어 group0_before를 확인하지 못했습니다)"))
    try:
        pods_running(ctx, ["llm-0", "llm-0-1"], NOTES)
    except Stop as stop:
        return waiting(say(ctx.lang, "Group 0 is being recreated.", "그룹 0을 다시 만드는 중입니다."),
                       *stop.verdict.details, *story)
    evidence = (_told(ctx, counted[-1]) if counted else
                say(ctx.lang, "the tutor saw llm-0-1 restart ({d})", "llm-0-1 재시작을 보았습니다({d})",
                              d=restart_detail(restart0[-1], ctx.lang)))
    kept = (f"llm-1: {uid1}" if g1 == uid1 else
            say(ctx.lang, "llm-1: {g1} → {uid1} (replaced later by the rolling update)",
                          "llm-1: {g1} → {uid1} (나중에 롤링 업데이트가 바꿈)", g1=g1, uid1=uid1))
    message = (say(ctx.lang, "llm-0-1 failed and LWS rebuilt only group 0: llm-0 has a new UID, llm-1 kept its own.",
                             "llm-0-1이 실패하자 LWS가 그룹 0만 다시 만들었습니다. llm-0은 UID가 바뀌고 llm-1은 그대로입니다.")
               if g1 == uid1 else  # a rolling update replaced llm-1 since: the message says what it kept then
               say(ctx.lang, "llm-0-1 failed and LWS rebuilt only group 0: llm-0 got a new UID while llm-1 kept its own "
                             "(the rolling update has replaced llm-1 since).",
                             "llm-0-1이 실패하자 LWS가 그룹 0만 다시 만들었습니다. 그때 llm-0은 UID가 바뀌고 llm-1은 "
                             "그대로였습니다(llm-1은 그 뒤 롤링 업데이트가 바꿨습니다)."))
    # No window of llm's newest facts here: the step's own episode follows a pass, in order
    # (step_story), and a later rollout's lines would come before it, cut from their start.
    # Only the LWS events the tutor has no words for stay, as they are (a newer LWS's).
    unknown = timeline_lines(tl, ctx.lang, LWS, kinds=(Kind.LWS_EVENT,))
    return passed(message, evidence, f"llm-0: {g0} → {uid0}", kept, *notes, *(story[:1] + unknown if unknown else ()))


def _event(f: Fact) -> dict:
    """The Event a fact was read from ({} when it was read from something else)."""
    return f.evidence if isinstance(f.evidence, dict) else {}


def _told(ctx: Context, f: Fact) -> str:
    """How LWS's recreation is known: its event, under whatever reason, or its effects."""
    at = f.clock() + " UTC"
    if f.source == "effects":
        return say(ctx.lang, "no event says LWS recreated group {g}, but its effects do: at {at}, right after {pod}'s "
                             "container restarted, leader llm-{g} {uid} was deleted and the group rebuilt (told by its effects)",
                             "LWS가 그룹 {g:을} 다시 만들었다는 이벤트는 없지만 결과가 보여 줍니다. {at}에 {pod}의 "
                             "컨테이너가 재시작된 직후 리더 llm-{g} {uid:이} 지워지고 그룹이 다시 만들어졌습니다",
                             g=f.group, at=at, pod=f.pod, uid=f.uid[:8])
    return say(ctx.lang, "event {reason} at {at}: {msg}", "이벤트 {reason} ({at}): {msg}",
                         reason=o.event_reason(_event(f)), at=at, msg=f.detail)


def _group1_failures(tl: Timeline, g1: str, born1: Fact | None) -> list[Fact]:
    """Group 1's failures since group1_before was current, without the group before it. LWS
    rebuilds a group whole: the old leader is gone before the new one is made, and the new
    leader's worker comes a moment after it, replacing the old one. So the old group's pods (the
    earlier llm-1s, and the llm-1-1s made before this llm-1) and what befell them, in the second
    of slack a whole-second creationTimestamp leaves or later (the old worker may stop after the
    new leader exists), and the making of this llm-1's own worker, are the group it replaced, not
    a failure of this one."""
    since = born1.at if born1 is not None else None
    facts = tl.failures(LWS, 1, since=since)
    if born1 is None:
        return facts
    old = tl.earlier_uids("llm-1", g1)
    workers = tl.uids("llm-1-1")
    first = next((w for w in workers if w.maybe_after(born1.at)), None)  # the worker made for this llm-1
    if first is not None:
        old |= tl.earlier_uids("llm-1-1", first.uid)
    return [f for f in facts
            if f.uid.lower() not in old
            and not (f.kind is Kind.GROUP_RECREATED and deleted_by(tl, f) in old)
            and not (first is not None and f.kind is Kind.POD_CREATED and f.uid == first.uid
                     and (f.detail or "").lower() in old)]


def _rollout_under_way(ctx: Context, f: Fact) -> bool:
    """Whether a fact is a pod's deletion under way that a rolling update asked for, told by the
    objects before the rollout's events tell it: the pod, still Terminating, is of another
    revision than llm's leader StatefulSet. Each kind comes on a watch of its own, nothing orders
    them, and the timeline's rollout window opens only with LWS's events (a new pod of the new
    revision tells it too, but only once the old one is gone)."""
    if f.kind is not Kind.POD_DELETING:
        return False
    pod, sts = ctx.terminating(f.pod), named(ctx, "StatefulSet", LWS)
    if pod is None or sts is None or o.uid(pod).lower() != f.uid.lower():
        return False
    return bool(o.revision(sts)) and bool(o.revision(pod)) and o.revision(pod) != o.revision(sts)


def _what_failed(tl: Timeline, rec0: list[Fact], g0: str, born0: Fact | None) -> list[Fact]:
    """The evidence of which group-0 pod failed for the recreation the step is about (the one
    that deleted group0_before, else the first since it was current, else none yet): that
    RecreateGroup event, and every restart in group 0 since group0_before was current, up to it."""
    since = born0.at if born0 is not None else None
    # What befell an earlier llm-0 came before group0_before existed, though its time may fall in the
    # second of slack before the whole-second creationTimestamp: the recreation that made it (about
    # 2 s before it when the old pods stop at once) and the old leader's restart are not since then.
    gone = tl.earlier_uids("llm-0", g0)
    after = [r for r in rec0 if (born0 is None or r.at >= born0.earliest) and deleted_by(tl, r) not in gone]
    rec = next((r for r in after if deleted_by(tl, r) == g0), after[0] if after else None)
    # a restart the tutor saw comes with the watch, which can be a moment after LWS's event on it:
    # up to a second after the recreation still counts
    restarts = [f for f in tl.of(LWS, 0, (Kind.RESTARTED,), since=since)
                if f.uid.lower() not in gone and (rec is None or Instant(f.at, False).maybe_before(rec.at))
                and not tl.in_rollout(f)]
    return restarts + ([rec] if rec is not None else [])


def _wrong_pod(facts: list[Fact]) -> str:
    """The pod other than llm-0-1 that the evidence says failed, or ""."""
    return next((f.pod for f in facts if f.pod and f.pod != WORKER), "")


def _wrong_pod_verdict(ctx: Context, pod: str, facts: list[Fact], story: list[str]) -> Verdict:
    """What failed and the evidence for it, what the step asked, and how to do it again."""
    leader = pod == "llm-0"
    msg = say(ctx.lang, "The pod that failed is {pod}{role}, but the step asks for the worker llm-0-1 to fail.",
                        "이 단계에서 실패시킬 파드는 워커 llm-0-1인데, 실패한 파드는 {role}{pod}입니다.",
                        pod=pod, role=say(ctx.lang, ", the leader of group 0", "그룹 0의 리더 ") if leader else "")
    seen = [_seen(ctx, f, leader) for f in facts if f.pod == pod]
    # Until LWS has rebuilt group 0, the UIDs to write are not there yet.
    rebuilt = ctx.pod("llm-0") is not None and ctx.terminating("llm-0") is None and any(
        f.kind is Kind.GROUP_RECREATED for f in facts)
    again = (say(ctx.lang, "To do the step again: write restart.txt from the UIDs llm-0 and llm-1 have now, and fail "
                           "the worker llm-0-1 (not its leader) as the step says.",
                           "다시 하려면: 지금의 llm-0과 llm-1 UID로 restart.txt를 다시 적고, 단계 설명대로 리더가 아닌 "
                           "워커 llm-0-1을 실패시키세요.")
             if rebuilt else
             say(ctx.lang, "To do the step again: once group 0 is Running again, write restart.txt from the UIDs llm-0 "
                           "and llm-1 have then, and fail the worker llm-0-1 (not its leader) as the step says.",
                           "다시 하려면: 그룹 0이 다시 Running이 되면 그때의 llm-0과 llm-1 UID로 restart.txt를 다시 "
                           "적고, 단계 설명대로 리더가 아닌 워커 llm-0-1을 실패시키세요."))
    return failed(msg, *seen, again, *story)


def _seen(ctx: Context, f: Fact, leader: bool) -> str:
    """One piece of evidence that a pod failed, as a detail line."""
    at = f.clock() + " UTC"
    if f.kind is Kind.GROUP_RECREATED and f.source == "effects":
        return _told(ctx, f)
    if f.kind is Kind.GROUP_RECREATED:
        return say(ctx.lang, "LWS's {reason} event at {at}: {msg}", "{at}의 LWS {reason} 이벤트: {msg}",
                             reason=o.event_reason(_event(f)), at=at, msg=f.detail) + (
            say(ctx.lang, " (LWS calls every pod of a group a worker, the leader too)",
                          " (LWS는 리더를 포함해 그룹의 모든 파드를 워커라고 부릅니다)") if leader and f.pod else "")
    if f.source == "event":
        return say(ctx.lang, "the kubelet restarted {pod}'s container at {at} ({reason} event)",
                             "{at}에 kubelet이 {pod}의 컨테이너를 다시 띄움({reason} 이벤트)", pod=f.pod, at=at, reason=f.detail)
    return say(ctx.lang, "{pod}'s container exited and restarted at {at} ({d})",
                         "{at}에 {pod}의 컨테이너가 종료되고 재시작됨({d})", pod=f.pod, at=at,
                         d=restart_detail(f, ctx.lang))


def _group1_failed(ctx: Context, fails: list[Fact]) -> str:
    rec = [f for f in fails if f.kind is Kind.GROUP_RECREATED]
    if rec and rec[0].source == "effects":
        return say(ctx.lang, "Group 1 must stay untouched when a group-0 worker fails, but LWS recreated group 1 too ({told}).",
                             "그룹 0의 워커가 실패할 때 그룹 1은 그대로여야 하는데, LWS가 그룹 1도 다시 만들었습니다({told}).",
                             told=_told(ctx, rec[0]))
    if rec:
        return say(ctx.lang, "Group 1 must stay untouched when a group-0 worker fails, but LWS recreated group 1 too "
                             "({at}: {msg}).",
                             "그룹 0의 워커가 실패할 때 그룹 1은 그대로여야 하는데, LWS가 그룹 1도 다시 만들었습니다"
                             "({at}: {msg}).", at=rec[0].clock() + " UTC", msg=rec[0].detail)
    first = fails[0]
    what = {
        Kind.RESTARTED: say(ctx.lang, "the container of {pod} failed ({d})", "{pod}의 컨테이너가 실패했습니다({d})",
                                      pod=first.pod, d=restart_detail(first, ctx.lang)),
        Kind.POD_DELETING: say(ctx.lang, "{pod} is being deleted", "{pod} 파드를 지우는 중입니다", pod=first.pod),
        Kind.POD_CREATED: say(ctx.lang, "{pod} got a new UID", "{pod} 파드가 새 UID를 받았습니다", pod=first.pod),
    }[first.kind]
    return say(ctx.lang, "Group 1 must see no failure, but at {at} {what}: LWS recreates group 1 as well.",
                         "그룹 1에는 어떤 실패도 없어야 하는데, {at}에 {what}. LWS가 그룹 1도 다시 만듭니다.",
                         at=first.clock() + " UTC", what=what)


def _evidence_gone(ctx: Context, story: list[str]) -> Verdict:
    return unconfirmed(say(ctx.lang, "llm-0's UID is no longer group0_before, but the cluster no longer shows how it "
                                     "changed: LWS's RecreateGroup event has expired (events are kept for about an hour) "
                                     "and the tutor was not running then. This is not a mistake of yours; it cannot be "
                                     "confirmed any more.",
                                     "llm-0의 UID가 더는 group0_before가 아닙니다. 그러나 어떻게 바뀌었는지 클러스터에 "
                                     "남아 있지 않습니다. LWS의 RecreateGroup 이벤트는 만료됐고(이벤트는 한 시간쯤 남습니다) "
                                     "그때 튜터는 실행 중이 아니었습니다. 잘못한 것이 아니라, 더는 확인할 수 없을 뿐입니다."),
                       say(ctx.lang, "To confirm it again with the tutor running: write restart.txt from the live UIDs, "
                                     "then fail llm-0-1 as the step says.",
                                     "튜터를 켠 채 다시 확인받으려면: 지금의 UID로 restart.txt를 적고 단계 설명대로 "
                                     "llm-0-1을 실패시키세요."), *story)


def predict_new_uids(episode: Episode, story: Story) -> Seen:
    """Which pods got new UIDs when LWS rebuilt group 0 (the step's question, lesson.yaml): the
    episode's new-UID lines; another group's new UIDs in that time came from a failure of its
    own (another episode), and are said beside it."""
    new = tuple(line for line in episode.lines if line.kind == "new-uid")
    renewed = sorted({pod for line in new for pod in line.pods})
    others = sorted({pod for e in story.episodes if e is not episode for line in e.lines if line.kind == "new-uid"
                     and line.group != episode.group and episode.start <= line.at <= episode.end for pod in line.pods})
    en, ko = _and(renewed)
    if not renewed:
        return Seen("", ("no pod of group 0 has a new UID yet.", "그룹 0의 파드는 아직 UID가 바뀌지 않았습니다."))
    if renewed == [WORKER]:
        return Seen("worker", ("only llm-0-1 got a new UID.", "llm-0-1의 UID만 바뀌었습니다."), new)
    if WORKER not in renewed:  # the leader's new UID is there, the worker's still to come
        return Seen("", (f"{en} got a new UID; llm-0-1's is still to come.",
                         f"{ko}의 UID가 바뀌었고, llm-0-1은 아직입니다."), new)
    if not others:
        return Seen("group", (f"{en} got new UIDs: LWS rebuilt the whole of group 0, and group 1 kept its UIDs.",
                              f"{ko}의 UID가 바뀌었습니다. LWS가 그룹 0 전체를 다시 만들었고, 그룹 1은 UID를 "
                              "그대로 지켰습니다."), new)
    oen, oko = _and(others)
    return Seen("group", (f"{en} got new UIDs: LWS rebuilt the whole of group 0.",
                          f"{ko}의 UID가 바뀌었습니다. LWS가 그룹 0 전체를 다시 만들었습니다."), new,
                (f"{oen} got new UIDs in that time too, but from a failure in group 1 itself, not from llm-0-1's "
                 "(press t: it is an episode of its own).",
                 f"그 사이 {oko}의 UID도 바뀌었지만, llm-0-1이 아니라 그룹 1 안의 실패 때문입니다(t를 누르면 "
                 "따로 나오는 에피소드입니다)."))


def _and(pods: list[str]) -> tuple[str, str]:
    """Pod names as a list in a sentence, in English and in Korean."""
    if len(pods) < 2:
        return (pods[0], pods[0]) if pods else ("", "")
    return (", ".join(pods[:-1]) + " and " + pods[-1],
            ", ".join(pods[:-2] + [attach(pods[-2], "과")]) + " " + pods[-1])
