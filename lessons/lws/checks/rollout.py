"""Step 6: VERSION=v2 in both templates of llm, rolled out group by group to every pod."""

from __future__ import annotations

from tutor.checks.api import (attach, Context, Episode, evidence, failed, grace_note, live_lws, lwt, merged, say,
                              mixed_revisions, named, o, passed, Reads, Seen, Story, template_containers,
                              templates, Verdict, waiting)

from . import NOTES  # the lab's words on its pods' command

LWS = "llm"
FILE = "lws.yaml"
ENV = ("VERSION", "v2")
# llm, its pods, its StatefulSet and mixed revisions, and the story its verdict carries
# (checks/step_story.py), which reads more than all of those. FILE is only named, never read.
READS = merged(evidence(LWS), Reads(lws=(LWS,), pods_of=(LWS,), statefulsets=(LWS,)))


def has_version(containers: list[dict]) -> bool:
    return any(o.env_of(c).get(ENV[0]) == ENV[1] for c in containers)


def group_lines(ctx: Context, current: str) -> list[str]:
    lines = []
    by_group: dict[int, list[dict]] = {}
    for p in ctx.pods_of(LWS):
        g = o.group_index(p)
        if g is not None:
            by_group.setdefault(g, []).append(p)
    for g, pods in sorted(by_group.items()):
        revs = {o.revision(p) for p in pods}
        state = (say(ctx.lang, "updated", "갱신됨") if current and revs == {current} else
                 say(ctx.lang, "old revision", "옛 리비전") if current and current not in revs else
                 say(ctx.lang, "in progress", "진행 중"))
        pods_txt = ", ".join(f"{o.name(p)} {o.phase(p)} {o.revision(p)[:10]}" for p in pods)
        lines.append(say(ctx.lang, "group {g}: {state} ({pods})", "그룹 {g}: {state} ({pods})", g=g, state=state, pods=pods_txt))
    for m in mixed_revisions(ctx, LWS):
        if m.lws == LWS:
            mixed = ", ".join(f"{name} {rev[:10]}" + (" Terminating" if name in m.terminating else "")
                              for name, rev in m.pods)
            lasted = (say(ctx.lang, " for about {s} s", " 약 {s}초 동안", s=f"{m.until - m.t:.0f}")
                      if m.until is not None and m.until - m.t >= 1 else "")
            lines.append(say(ctx.lang, "! group {g} held two revisions at once{lasted}: {pods}",
                                       "! 그룹 {g}에{lasted} 리비전 둘이 함께 돌았습니다: {pods}",
                                       g=m.group, lasted=lasted, pods=mixed))
            break
    return lines


def being_replaced(ctx: Context) -> tuple[list[str], list[dict]]:
    """llm's pods the store shows on their way out of a rollout, as "name" or "name Terminating",
    and the Terminating ones: a pod Terminating, or one whose revision is not that of llm's leader
    StatefulSet (the revision the LWS controller rolls every group to)."""
    sts = named(ctx, "StatefulSet", LWS)
    current = o.revision(sts) if sts else ""
    terminating = ctx.terminating_of(LWS)
    behind = [o.name(p) for p in ctx.pods_of(LWS) if current and o.revision(p) and o.revision(p) != current]
    return [f"{o.name(p)} Terminating" for p in terminating] + behind, terminating


def not_caught_up(ctx: Context) -> Verdict | None:
    """Waiting, when llm in the store has no VERSION=v2 while its pods are being replaced. The
    tutor watches each kind on a connection of its own, and nothing orders one kind's events
    against another's: the pods' watch can bring a rollout's first Terminating pod before the
    LeaderWorkerSet's brings the template that started it. A pod deleted by hand with the
    template unchanged is replaced too, so the fail waits until nothing is being replaced."""
    pods, terminating = being_replaced(ctx)
    if not pods:
        return None
    groups = group_lines(ctx, o.revision(named(ctx, "StatefulSet", LWS) or {}))
    if terminating:  # the real kubelet: a replaced pod waits out its grace period
        groups.append(grace_note(ctx, terminating[0], NOTES))
    # source: sigs.k8s.io/lws@v0.9.0 pkg/controllers/leaderworkerset_controller.go «leaderUpdated := revisionutils.GetRevisionKey»
    return waiting(say(ctx.lang, "Pods of llm are being replaced ({pods}), but the llm the tutor holds has no VERSION=v2 "
                                 "yet: waiting until the replacement ends or the new llm reaches the tutor.",
                                 "llm 파드가 교체되는 중입니다({pods}). 그런데 튜터가 가진 llm에는 아직 VERSION=v2가 "
                                 "없습니다. 교체가 끝나거나 새 llm이 튜터에 도착하기를 기다립니다.",
                       pods=", ".join(pods)), *groups)


def check(ctx: Context) -> Verdict:
    live = live_lws(ctx, LWS, FILE)
    missing = [label for label, tmpl in templates(live) if not has_version(template_containers(tmpl))]
    if len(missing) == len(templates(live)):
        pending = not_caught_up(ctx)
        if pending is not None:
            return pending
        return failed(say(ctx.lang, "Add env VERSION=v2 to the leader and worker templates of llm in {path} and apply it.",
                                    "{path}의 llm 리더·워커 템플릿에 env VERSION=v2를 더하고 적용하세요.",
                                    path=ctx.path(FILE)))
    if missing:
        return failed(say(ctx.lang, "{tmpl} of llm has no VERSION=v2. Both templates need it, or leaders and workers "
                                    "would run different versions.",
                                    "llm의 {tmpl}에 VERSION=v2가 없습니다. 두 템플릿 모두에 있어야 "
                                    "리더와 워커가 같은 판으로 뜹니다.",
                                    tmpl=", ".join(missing)))
    spec_replicas = o.int_or_none(o.dig(live, "spec", "replicas")) or 0
    updated = o.int_or_none(o.dig(live, "status", "updatedReplicas")) or 0
    available = o.condition(live, "Available").get("status") == "True"
    sts = named(ctx, "StatefulSet", LWS)
    current = o.revision(sts) if sts else ""
    pods = ctx.pods_of(LWS)
    groups = group_lines(ctx, current)
    terminating = ctx.terminating_of(LWS)
    if terminating:  # the real kubelet: each replaced group waits out its grace period
        groups.append(grace_note(ctx, terminating[0], NOTES))
    if updated < spec_replicas or not available:
        return waiting(say(ctx.lang, "Rolling update in progress: {u}/{r} groups updated, Available={a}.",
                                     "롤링 업데이트 진행 중: 그룹 {u}/{r} 갱신, Available={a}.",
                                     u=updated, r=spec_replicas, a=available), *groups)
    stale = [o.name(p) for p in pods if o.phase(p) != "Running"
             or not has_version(o.containers(o.dig(p, "spec", default={})))
             or (current and o.revision(p) != current)]
    revs = {o.revision(p) for p in pods}
    size = o.int_or_none(lwt(live).get("size")) or 1
    if len(pods) < size * spec_replicas or stale or len(revs) != 1:
        return waiting(say(ctx.lang, "Waiting for every llm pod to run the new template: {pods}",
                                     "llm 파드가 모두 새 템플릿으로 뜨기를 기다립니다: {pods}",
                                     pods=", ".join(stale) or "-"), *groups)
    return passed(say(ctx.lang, "All {n} groups run the new template (revision {rev}); LWS replaced them one group at a time.",
                                "그룹 {n}개가 모두 새 템플릿(리비전 {rev})으로 실행 중입니다. LWS는 한 그룹씩 바꿨습니다.",
                                n=spec_replicas, rev=next(iter(revs))[:10]), *groups)


def _leader(pod: str, group: int | None) -> bool:
    return pod == f"{LWS}-{group}"


def predict_first_group(episode: Episode, story: Story) -> Seen:
    """Which group the rollout replaced first (the step's first question, lesson.yaml): the
    episode's group-replaced lines, in order; both at once only when the second group's turn
    began before the first group was seen Running again."""
    turns = [line for line in episode.lines if line.kind == "group-replaced"]
    if not turns:
        return Seen("", ("the rollout has not replaced a group yet.", "롤링 업데이트가 아직 어느 그룹도 바꾸지 않았습니다."))
    first, second = turns[0], turns[1] if len(turns) > 1 else None
    back = next((line for line in episode.lines if line.kind == "running-again" and line.group == first.group), None)
    lines = tuple(sorted([first, *([back] if back else []), *([second] if second else [])], key=lambda line: line.at))
    g = first.group
    if second is not None and back is not None and second.at < back.at:
        return Seen("together", (f"LWS began group {second.group} before group {g} was Running again: both at once.",
                                 f"LWS는 그룹 {attach(g, '이')} 다시 Running이 되기 전에 그룹 {attach(second.group, '을')} "
                                 "시작했습니다. 두 그룹을 한꺼번에 바꾼 것입니다."), lines)
    if second is None:
        said = (f"LWS replaced group {g} first; the next group's turn is still to come.",
                f"LWS는 그룹 {attach(g, '을')} 먼저 바꿨습니다. 다음 그룹의 차례는 아직입니다.")
    elif back is not None:
        said = (f"LWS replaced group {g} first, and group {second.group} only once group {g} was Running again.",
                f"LWS는 그룹 {attach(g, '을')} 먼저 바꿨고, 그룹 {attach(g, '이')} 다시 Running이 된 뒤에야 "
                f"그룹 {attach(second.group, '을')} 바꿨습니다.")
    else:
        said = (f"LWS replaced group {g} first, then group {second.group} (its GroupsUpdating events).",
                f"LWS는 그룹 {attach(g, '을')} 먼저, 그다음 그룹 {attach(second.group, '을')} 바꿨습니다"
                "(GroupsUpdating 이벤트).")
    return Seen(f"group-{g}", said, lines)


def predict_old_leader(episode: Episode, story: Story) -> Seen:
    """Whether an old leader ever ran beside a new worker (the step's second question): the
    episode's mixed-revisions lines, the moments the tutor saw a group run two revisions. None of
    that kind says no only when the tutor watched the whole rollout; the other way round (a new
    leader beside its old worker, Terminating through its grace period) is said beside it."""
    mixed = [line for line in episode.lines if line.kind == "mixed-revisions"]
    old_leader = tuple(line for line in mixed if any(_leader(p, line.group) for p in line.old)
                       and any(not _leader(p, line.group) for p in line.pods))
    if old_leader:
        return Seen("yes", ("an old leader ran beside a new worker (the ⚠ lines).",
                            "옛 리더가 새 워커 옆에서 돌았습니다(⚠ 줄)."), old_leader)
    if story.anchor is None or story.anchor > episode.start:
        return Seen("", ("the tutor started after the rollout had begun, so it did not see which pods ran side by side.",
                         "롤링 업데이트가 시작된 뒤에 튜터가 켜져서, 어느 파드들이 함께 돌았는지 보지 못했습니다."))
    if not any(line.kind == "rollout-done" for line in episode.lines):
        return Seen("", ("the rollout is not over yet.", "롤링 업데이트가 아직 끝나지 않았습니다."))
    workers = [line for line in episode.lines if line.kind == "new-uid" and any(not _leader(p, line.group)
                                                                                   for p in line.pods)]
    reverse = [line for line in mixed if any(_leader(p, line.group) for p in line.pods)
               and any(not _leader(p, line.group) for p in line.old)]
    also = (("The other way round did happen: a new leader ran beside its old worker, Terminating but still running "
             "through its grace period (the ⚠ lines). LWS does not wait for the old workers to stop before it starts "
             "the new leader.",
             "반대 방향은 실제로 있었습니다. 새 리더가 옛 워커 옆에서 돌았습니다. 옛 워커는 Terminating이지만 유예 시간 "
             "동안 계속 돌았습니다(⚠ 줄). LWS는 옛 워커가 멈추기를 기다리지 않고 새 리더를 시작합니다.")
            if reverse else None)
    # a new worker's line names its maker only when it is the new leader's worker StatefulSet (story.py)
    said = (("no old leader ran beside a new worker: every new worker came from its new leader's worker StatefulSet.",
             "옛 리더가 새 워커와 함께 돈 적은 없습니다. 새 워커는 모두 새 리더의 워커 StatefulSet이 만들었습니다.")
            if workers and all(line.cause for line in workers) else
            ("the tutor saw no old leader beside a new worker.", "튜터는 옛 리더가 새 워커 옆에 있는 것을 보지 못했습니다."))
    return Seen("no", said, tuple(sorted(workers + reverse, key=lambda line: line.at)), also)
