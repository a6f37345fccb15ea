"""The timeline's facts (tutor/cluster/timeline.py) as short lines, in English or Korean: the
evidence a step's verdict shows in time order."""

from __future__ import annotations

from tutor.cluster.timeline import Fact, Kind, Timeline
from tutor.i18n.bilingual import say

# The kinds a rollout also brings about: marked when they belong to one, not to a failure.
FAILURE_LIKE = (Kind.POD_CREATED, Kind.POD_DELETING, Kind.POD_GONE, Kind.GROUP_RECREATED, Kind.RESTARTED)

_FACT = {
    Kind.POD_CREATED: ("{pod} is {uid} (replaced {prev})", "{pod}의 UID {uid} ({prev} 대체)"),
    Kind.POD_DELETING: ("{pod} {uid} deletion asked", "{pod} {uid} 삭제 요청"),
    Kind.POD_GONE: ("{pod} {uid} gone", "{pod} {uid} 사라짐"),
    Kind.RESTARTED: ("{pod} {uid} container restarted {detail}", "{pod} {uid} 컨테이너 재시작({detail})"),
    Kind.REVISION_CREATED: ("new template revision {rev} ({detail})", "새 템플릿 리비전 {rev} ({detail})"),
    Kind.GROUPS_UPDATING: ("rollout: {detail}", "롤링 업데이트: {detail}"),
    Kind.GROUP_RECREATED: ("LWS recreated group {g}: {detail}", "LWS가 그룹 {g} 재생성: {detail}"),
    Kind.ALL_READY: ("all groups ready", "모든 그룹 준비됨"),
    Kind.LWS_EVENT: ("LWS event {detail}", "LWS 이벤트 {detail}"),
}
_FIRST_UID = ("{pod} is {uid}", "{pod}의 UID {uid}")  # a pod's first UID known: it replaced none
_BY_EFFECTS = ("LWS recreated group {g}: leader {uid} deleted after {pod} restarted (no event says so; told by "
               "its effects)", "LWS가 그룹 {g} 재생성: {pod} 재시작 뒤 리더 {uid} 삭제(이벤트 없음, 결과로 앎)")
_WHICH_REVISION = {"initial": ("initial", "처음"), "update": ("update", "업데이트")}


def fact(f: Fact, lang: str) -> str:
    """One fact in a few words."""
    if f.kind is Kind.GROUP_RECREATED and f.source == "effects":
        en, ko = _BY_EFFECTS
    elif f.kind is Kind.POD_CREATED and not f.detail:
        en, ko = _FIRST_UID
    else:
        en, ko = _FACT[f.kind]
    detail = say(lang, *_WHICH_REVISION[f.detail]) if f.kind is Kind.REVISION_CREATED else \
        restart_detail(f, lang) if f.kind is Kind.RESTARTED else f.detail
    return say(lang, en, ko, pod=f.pod, uid=f.uid[:8], g=f.group, rev=f.revision[:10], detail=detail,
               prev=f.detail[:8])


def restart_detail(f: Fact, lang: str) -> str:
    """Which restart it was and how the container ended, for a restart the tutor saw or a pod's
    status shows ("#1, exit 1"); an event's restart says the event's reason as it is."""
    count, code = getattr(f.evidence, "count", None), getattr(f.evidence, "exit_code", None)
    if count is None:
        return f.detail
    if code is None:
        return say(lang, "#{n}", "{n}번째", n=count)
    return say(lang, "#{n}, exit {code}", "{n}번째, 종료 코드 {code}", n=count, code=code)


def timeline_lines(tl: Timeline, lang: str, lws: str, group: int | None = None, limit: int = 14,
                   kinds: tuple[Kind, ...] | None = None) -> list[str]:
    """The newest `limit` facts of an LWS (or one group; of these `kinds`) as short lines, oldest
    first, each after its time; facts that belong to a rollout are marked. A line the same as the
    one before it is told once: an Event the cluster counted twice within the clock's tenth of a
    second (its first and last time) reads as one fact, not as the same line twice."""
    newest_first: list[str] = []
    for f in reversed(tl.of(lws, group, kinds)):  # from the newest: only as many as are shown
        mark = say(lang, " [rollout]", " [롤링 업데이트]") if f.kind in FAILURE_LIKE and tl.in_rollout(f) else ""
        line = f"{f.clock():<10} {fact(f, lang)}{mark}"  # both kinds of time one width
        if newest_first and newest_first[-1] == line:
            continue
        if len(newest_first) == limit:
            break
        newest_first.append(line)
    return newest_first[::-1]
