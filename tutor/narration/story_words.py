"""The story's words: each line (tutor/cluster/story.py, a kind and its fields), its cause and
each episode's title, in English or Korean. One function per kind says which of its sentences
the fields call for; Korean particles are the templates' format specs ("{group:이}")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from tutor.i18n.bilingual import say

if TYPE_CHECKING:  # the story's types only: the story itself is built by whoever asks for its words
    from tutor.cluster.story import Episode, Line

ODD_MARK = "⚠ "  # an LWS oddity, shown as what it is


def what(line: Line, lang: str) -> str:
    """What happened, in `lang`."""
    return (ODD_MARK if line.odd else "") + _WHAT[line.kind](lang, line.what.as_dict())


def because(line: Line, lang: str) -> str:
    """Its cause, in `lang` ("" where the data shows none)."""
    return _CAUSE[line.cause.kind](lang, line.cause.fields.as_dict()) if line.cause else ""


def title(episode: Episode, lang: str) -> str:
    return _TITLE[episode.kind](lang, episode.title.as_dict())


def seconds(d: float) -> str:
    """A span in seconds: hundredths under ten, else whole."""
    return f"{d:.2f}" if d < 10 else f"{d:.0f}"


def span(d: float, lang: str) -> str:
    """A span as a person reads it: milliseconds under a second, else whole seconds."""
    if d < 1:
        return say(lang, "{n} ms", "{n}밀리초", n=f"{d * 1000:.0f}")
    return say(lang, "{n} s", "{n}초", n=f"{d:.0f}")


def short(uid_or_revision: str) -> str:
    """A UID or a revision hash as the story shows it: its first 8 characters."""
    return uid_or_revision[:8]


Wording = Callable[[str, dict], str]  # (lang, the fields) -> the text


# --- what happened, by the line's kind ------------------------------------------------------------

def _restarted(lang: str, f: dict) -> str:
    if "event" in f:  # only the kubelet's event tells it
        return say(lang, "{pod} container restarting ({event} event)", "{pod} 컨테이너 재시작 중({event} 이벤트)", **f)
    if f["exit_code"] is not None:
        return say(lang, "{pod} container exited {exit_code} (restart {count})",
                   "{pod} 컨테이너 종료 코드 {exit_code} (재시작 {count})", **f)
    return say(lang, "{pod} container restarted (restart {count})", "{pod} 컨테이너 재시작 (재시작 {count})", **f)


def _recreate_group(lang: str, f: dict) -> str:
    uid = f" {short(f['uid'])}" if f["uid"] else ""
    if f["by_effects"]:
        return say(lang, "LWS deleted leader {leader}{uid} to recreate group {group} (no event says so: told by its "
                         "effects)", "LWS가 그룹 {group:을} 다시 만들려고 리더 {leader}{uid} 삭제(이벤트 없음: 결과로 앎)",
                   leader=f["leader"], uid=uid, group=f["group"])
    return say(lang, "LWS {reason}: deleted leader {leader}{uid}", "LWS {reason}: 리더 {leader}{uid} 삭제",
               reason=f["reason"] or "RecreateGroup", leader=f["leader"], uid=uid)


def _garbage_collected(lang: str, f: dict) -> str:
    if f["pods"]:
        return say(lang, "worker StatefulSet {sts} and {pods} removed (garbage collection)",
                   "워커 StatefulSet {sts:과} {pods} 제거됨(가비지 컬렉션)", sts=f["statefulset"], pods=", ".join(f["pods"]))
    return say(lang, "worker StatefulSet {sts} removed (garbage collection)", "워커 StatefulSet {sts} 제거됨(가비지 컬렉션)",
               sts=f["statefulset"])


def _new_uid(lang: str, f: dict) -> str:
    rev = say(lang, ", revision {rev}", ", 리비전 {rev}", rev=short(f["revision"])) if f["revision"] else ""
    return say(lang, "{pod} new UID {uid} (was {was}){rev}", "{pod} 새 UID {uid} (이전 {was}){rev}",
               pod=f["pod"], uid=short(f["uid"]), was=short(f["was"]), rev=rev)


def _running_again(lang: str, f: dict) -> str:
    return say(lang, "group {group} Running again after {took} s", "그룹 {group:이} {took}초 만에 다시 Running",
               group=f["group"], took=seconds(f["took"]))


def _created(lang: str, f: dict) -> str:
    return say(lang, "LWS {lws} created, template revision {rev}", "LWS {lws} 생성, 템플릿 리비전 {rev}",
               lws=f["lws"], rev=short(f["revision"]))


def _all_ready(lang: str, f: dict) -> str:
    return say(lang, "all groups ready after {took} s", "{took}초 만에 모든 그룹 준비됨", took=seconds(f["took"]))


def _revision(lang: str, f: dict) -> str:
    if f["old"]:
        return say(lang, "template revision {old} → {new}", "템플릿 리비전 {old} → {new}",
                   old=short(f["old"]), new=short(f["new"]))
    return say(lang, "new template revision {new}", "새 템플릿 리비전 {new}", new=short(f["new"]))


def _group_replaced(lang: str, f: dict) -> str:
    if f["highest"]:
        return say(lang, "group {group} replaced first (highest index)", "그룹 {group} 먼저 교체(번호가 가장 큰 그룹)", **f)
    if f["first"]:
        return say(lang, "group {group} replaced first", "그룹 {group} 먼저 교체", **f)
    return say(lang, "group {group} next", "다음은 그룹 {group}", **f)


def _mixed_revisions(lang: str, f: dict) -> str:
    def pods(pairs) -> str:
        state = say(lang, " Terminating", " 종료 중")
        return ", ".join(f"{p} ({short(r)}{state if p in f['terminating'] else ''})" for p, r in pairs)
    if not (f["new"] and f["old"]):
        return say(lang, "group {group} ran two revisions at once: {pods}", "그룹 {group}에 리비전 둘이 함께 돌았음: {pods}",
                   group=f["group"], pods=pods(f["pods"]))
    lasted = say(lang, " for {span}", "({span} 동안)", span=span(f["span"], lang)) if f["span"] else ""
    return say(lang, "new {new} Running beside old {old}{lasted}", "새 {new:이} 옛 {old} 옆에서 Running{lasted}",
               new=pods(f["new"]), old=pods(f["old"]), lasted=lasted)


def _rollout_done(lang: str, f: dict) -> str:
    running = say(lang, " and every new pod Running", ", 새 파드가 모두 Running") if f["running_after"] else ""
    if f["updated"] is not None:  # the LWS's status says it is done, too
        return say(lang, "updatedReplicas {updated}, Available{running}: rollout done in {took} s",
                   "updatedReplicas {updated}, Available{running}: {took}초 만에 롤링 업데이트 완료",
                   updated=f["updated"], running=running, took=seconds(f["took"]))
    return say(lang, "all groups ready{running}: rollout done in {took} s",
               "모든 그룹 준비됨{running}: {took}초 만에 롤링 업데이트 완료", running=running, took=seconds(f["took"]))


def _failed_scheduling(lang: str, f: dict) -> str:
    times = f" ×{f['count']}" if f["count"] > 1 else ""
    return f"{f['pod']} FailedScheduling{times}"


def _gang_placed(lang: str, f: dict) -> str:
    return say(lang, "gang {podgroup} placed: its {members} pods bound within {spread}",
               "갱 {podgroup} 배치: 파드 {members}개가 {spread} 안에 모두 바인딩됨", podgroup=f["podgroup"],
               members=f["members"], spread=span(f["spread"], lang))


_WHAT: dict[str, Wording] = {
    "restarted": _restarted, "recreate-group": _recreate_group, "garbage-collected": _garbage_collected,
    "new-uid": _new_uid, "running-again": _running_again, "created": _created, "all-ready": _all_ready,
    "revision": _revision, "group-replaced": _group_replaced, "mixed-revisions": _mixed_revisions,
    "rollout-done": _rollout_done, "failed-scheduling": _failed_scheduling,
    "lws-event": lambda lang, f: f["event"],  # an event of a reason the tutor does not know, as it is
    "gang-held": lambda lang, f: say(lang, "gang {podgroup} held: none of its {members} pods placed",
                                     "갱 {podgroup} 대기: 파드 {members}개 중 하나도 배치 안 됨", **f),
    "gang-bound": lambda lang, f: say(lang, "{pod} bound to {node}", "{pod:이} {node}에 바인딩됨", **f),
    "gang-placed": _gang_placed,
}


# --- why, by the cause's kind ------------------------------------------------------------------------

def _restarted_before(lang: str, f: dict) -> str:
    role = say(lang, "the leader ", "리더 ") if f["leader"] else ""
    return say(lang, "{role}{pod} failed: its restart, {gap} s before", "{role}{pod} 실패: {gap}초 전의 재시작",
               role=role, pod=f["pod"], gap=seconds(f["gap"]))


def _event_names_failed(lang: str, f: dict) -> str:
    if f["leader"]:  # LWS's message calls every pod of a group a worker, its leader too
        return say(lang, "the event says the leader {pod} failed (LWS calls it a worker)",
                   "이벤트 메시지: 리더 {pod} 실패(LWS는 리더도 워커라고 부름)", **f)
    return say(lang, "the event says worker {pod} failed", "이벤트 메시지: 워커 {pod} 실패", **f)


def _not_a_failure(lang: str, f: dict) -> str:
    return say(lang, "nothing in group {group} restarted: part of the rollout, not a failure",
               "그룹 {group}에서 재시작한 것이 없음: 실패가 아니라 롤링 업데이트의 일부", **f)


def _all_groups_ready(lang: str, f: dict) -> str:
    said = (say(lang, "AllGroupsReady event; the LWS's status", "AllGroupsReady 이벤트, LWS의 status") if f["status"]
            else say(lang, "AllGroupsReady event", "AllGroupsReady 이벤트"))
    if f["running_after"]:
        said += say(lang, "; the tutor saw the last new pod Running after it", ", 그 뒤 튜터가 마지막 새 파드의 Running을 봄")
    return said


_CAUSE: dict[str, Wording] = {
    "restarted-before": _restarted_before, "event-names-failed": _event_names_failed,
    "all-groups-ready": _all_groups_ready, "rollout-not-failure": _not_a_failure,
    "event": lambda lang, f: say(lang, "{reason} event", "{reason} 이벤트", **f),
    "deleted-owner": lambda lang, f: say(lang, "owner: leader {leader} {uid}, deleted", "소유자: 삭제된 리더 {leader} {uid}",
                                         leader=f["leader"], uid=short(f["uid"])),
    "owner": lambda lang, f: say(lang, "owner: {owner_kind} {name}", "소유자: {owner_kind} {name}", **f),
    "new-worker-statefulset": lambda lang, f: say(lang, "owner: new worker StatefulSet {sts} of leader {uid}",
                                                  "소유자: 리더 {uid}의 새 워커 StatefulSet {sts}",
                                                  sts=f["statefulset"], uid=short(f["leader_uid"])),
    "template-changed": lambda lang, f: say(lang, "LWS {lws}'s template changed (CreatingRevision event)",
                                            "LWS {lws}의 템플릿이 바뀜(CreatingRevision 이벤트)", **f),
    "groups-updating": lambda lang, f: say(lang, "GroupsUpdating event: {message}", "GroupsUpdating 이벤트: {message}", **f),
    "got-revision": lambda lang, f: say(lang, "its pods got revision {rev}", "파드가 리비전 {rev:으로} 바뀜",
                                        rev=short(f["revision"])),
    "all-members-bound": lambda lang, f: say(lang, "the last member's Scheduled event", "마지막 구성원의 Scheduled 이벤트"),
    "see-the-ledger": lambda lang, f: say(lang, "why: see the node ledger and the scheduler's message in the Events pane",
                                          "이유: 노드 장부와 이벤트 창의 스케줄러 메시지를 보세요"),
}


# --- the episodes' titles, by the episode's kind ------------------------------------------------------

def _failure_title(lang: str, f: dict) -> str:
    if f["how"] == "recreated":
        return say(lang, "group {group} recreated", "그룹 {group} 재생성", **f)
    if f["how"] == "restarted":
        return say(lang, "group {group}: container restarted", "그룹 {group}: 컨테이너 재시작", **f)
    return say(lang, "group {group}: pods replaced", "그룹 {group}: 파드 교체", **f)


_TITLE: dict[str, Wording] = {
    "created": lambda lang, f: say(lang, "{lws} created", "{lws} 생성", **f),
    "failure": _failure_title,
    "rollout": lambda lang, f: say(lang, "rolling update to {rev}", "{rev:으로} 롤링 업데이트", rev=short(f["revision"])),
    "scheduling": lambda lang, f: say(lang, "{pod} not scheduled", "{pod} 스케줄 안 됨", **f),
    "gang-held": lambda lang, f: say(lang, "gang {podgroup} held", "갱 {podgroup} 대기", **f),
    "gang-placed": lambda lang, f: say(lang, "gang {podgroup} placed", "갱 {podgroup} 배치", **f),
    "event": lambda lang, f: say(lang, "LWS events the tutor does not know", "튜터가 모르는 LWS 이벤트"),
}
