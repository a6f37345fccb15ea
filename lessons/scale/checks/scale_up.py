"""Step 2: solo scaled to two groups; group 1 runs and group 0 is the group that ran before.

group0.txt names solo-0's UID; group 0 is untouched when solo-0 still has it and was created
before group 1's leader (a group rebuilt by the scale would have a leader newer than solo-1)."""

from __future__ import annotations

from tutor.checks.api import (answer_text, Context, EXPLAIN, failed, kv_lines, MAX_LINES, o, parse_time, passed, say,
                              pods_running, Reads, UID_RE, Verdict, waiting)

LWS = "solo"
FILE = "group0.txt"
LEADER = "solo-0"
NEW_GROUP = ["solo-1", "solo-1-1", "solo-1-2"]
READS = Reads(lws=(LWS,), pods=(LEADER, *NEW_GROUP), files=(FILE,),
              explained=Reads(kinds=EXPLAIN, events_about=tuple(NEW_GROUP)))


def written_uid(ctx: Context) -> str | Verdict:
    text = answer_text(ctx, FILE, say(ctx.lang, "solo-0=<UID of solo-0>", "solo-0=<solo-0의 UID>"), max_lines=MAX_LINES)
    uid = next((kv[LEADER] for _, kv, _ in kv_lines(text) if LEADER in kv), None)
    if uid is None:
        return failed(say(ctx.lang, "{path} has no solo-0= line. Write solo-0=<UID of solo-0> before scaling.",
                                    "{path}에 solo-0= 줄이 없습니다. 스케일하기 전에 solo-0=<solo-0의 UID>를 적으세요.",
                                    path=ctx.path(FILE)))
    if not UID_RE.match(uid):
        return failed(say(ctx.lang, "solo-0={v} is not a UID (it looks like 8-4-4-4-12 hex digits).",
                                    "solo-0 값 {v}: UID 모양(16진수 8-4-4-4-12)이 아닙니다.", v=uid))
    return uid.lower()


def created(pod: dict | None) -> float | None:
    parsed = parse_time(o.dig(pod, "metadata", "creationTimestamp"))
    return parsed[0] if parsed else None


def check(ctx: Context) -> Verdict:
    uid = written_uid(ctx)
    if isinstance(uid, Verdict):
        return uid
    live = ctx.lws(LWS)
    if live is None:
        return failed(say(ctx.lang, "LeaderWorkerSet solo is not in namespace {ns}: step 1 makes it.",
                                    "네임스페이스 {ns}에 LeaderWorkerSet solo가 없습니다. 1단계에서 만듭니다.", ns=ctx.ns))
    replicas = o.int_or_none(o.as_dict(live.get("spec")).get("replicas"))
    if replicas != 2:
        return waiting(say(ctx.lang, "solo has {n} group(s); this step asks for 2.",
                                     "solo의 그룹 수가 {n}입니다. 이 단계에서는 2여야 합니다.",
                                     n=replicas if replicas is not None else "-"))
    leader = ctx.pod(LEADER)
    if leader is None:
        return waiting(say(ctx.lang, "solo-0 is not there: group 0 is being made again.",
                                     "solo-0이 없습니다. 그룹 0을 다시 만드는 중입니다."))
    if o.uid(leader).lower() != uid:
        return failed(say(ctx.lang, "solo-0's UID is not the {was} in {path}: either the file names another pod, or group 0 "
                                    "was made again (compare with solo-0's metadata.uid).",
                                    "solo-0의 UID가 {path}에 적은 {was:와} 다릅니다. 파일이 다른 파드를 가리키거나 그룹 0이 "
                                    "다시 만들어졌습니다(solo-0의 metadata.uid와 비교해 보세요).", was=uid, path=ctx.path(FILE)))
    pods_running(ctx, NEW_GROUP)  # a Stop from here is the verdict
    born0, born1 = created(leader), created(ctx.pod(NEW_GROUP[0]))
    if born0 is not None and born1 is not None and born0 > born1:
        return failed(say(ctx.lang, "solo-0 is newer than solo-1: group 0 was made again after the scale.",
                                    "solo-0이 solo-1보다 나중에 만들어졌습니다. 스케일한 뒤에 그룹 0이 다시 만들어졌습니다."))
    return passed(say(ctx.lang, "solo has two groups: solo-1 leads a new group, and solo-0 kept its UID.",
                                "solo의 그룹이 둘입니다. solo-1이 새 그룹을 이끌고, solo-0은 UID가 그대로입니다."))
