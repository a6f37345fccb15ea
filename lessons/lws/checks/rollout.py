"""Step 6: VERSION=v2 in both templates of llm, rolled out group by group to every pod."""

from __future__ import annotations

from tutor.checks.common import grace_note, live_lws, lwt, templates, template_containers
from tutor.checks.context import Context
from tutor.checks.reads import Reads, evidence, merged
from tutor.checks.verdict import Verdict, failed, passed, waiting
from tutor.cluster import objects as o

LWS = "llm"
FILE = "lws.yaml"
ENV = ("VERSION", "v2")
# llm, its pods, its StatefulSet and mixed revisions, and the story its verdict carries
# (checks/timeline_recap.py), which reads more than all of those. FILE is only named, never read.
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
        state = (ctx.t("updated", "갱신됨") if current and revs == {current} else
                 ctx.t("old revision", "옛 리비전") if current and current not in revs else
                 ctx.t("in progress", "진행 중"))
        pods_txt = ", ".join(f"{o.name(p)} {o.phase(p)} {o.revision(p)[:10]}" for p in pods)
        lines.append(ctx.t("group {g}: {state} ({pods})", "그룹 {g}: {state} ({pods})", g=g, state=state, pods=pods_txt))
    for m in ctx.store.obs.mixed:
        if m.lws == LWS:
            pods = ", ".join(f"{name} {rev[:10]}" + (" Terminating" if name in m.terminating else "")
                             for name, rev in m.pods)
            lasted = (ctx.t(" for about {s} s", " 약 {s}초 동안", s=f"{m.until - m.t:.0f}")
                      if m.until is not None and m.until - m.t >= 1 else "")
            lines.append(ctx.t("! group {g} held two revisions at once{lasted}: {pods}",
                               "! 그룹 {g}에{lasted} 리비전 둘이 함께 돌았습니다: {pods}",
                               g=m.group, lasted=lasted, pods=pods))
            break
    return lines


def check(ctx: Context) -> Verdict:
    live = live_lws(ctx, LWS, FILE)
    missing = [label for label, tmpl in templates(live) if not has_version(template_containers(tmpl))]
    if len(missing) == len(templates(live)):
        return failed(ctx.t("Add env VERSION=v2 to the leader and worker templates of llm in {path} and apply it.",
                            "{path}의 llm 리더·워커 템플릿에 env VERSION=v2를 더하고 적용하세요.",
                            path=ctx.path(FILE)))
    if missing:
        return failed(ctx.t("{tmpl} of llm has no VERSION=v2. Both templates need it, or leaders and workers "
                            "would run different versions.",
                            "llm의 {tmpl}에 VERSION=v2가 없습니다. 두 템플릿 모두에 있어야 리더와 워커가 같은 판으로 뜹니다.",
                            tmpl=", ".join(missing)))
    spec_replicas = o.int_or_none(o.dig(live, "spec", "replicas")) or 0
    updated = o.int_or_none(o.dig(live, "status", "updatedReplicas")) or 0
    available = o.condition(live, "Available").get("status") == "True"
    sts = ctx.store.get("StatefulSet", LWS, ctx.ns)
    current = o.revision(sts) if sts else ""
    pods = ctx.pods_of(LWS)
    groups = group_lines(ctx, current)
    terminating = ctx.terminating_of(LWS)
    if terminating:  # the real kubelet: each replaced group waits out its grace period
        groups.append(grace_note(ctx, terminating[0]))
    if updated < spec_replicas or not available:
        return waiting(ctx.t("Rolling update in progress: {u}/{r} groups updated, Available={a}.",
                             "롤링 업데이트 진행 중: 그룹 {u}/{r} 갱신, Available={a}.",
                             u=updated, r=spec_replicas, a=available), *groups)
    stale = [o.name(p) for p in pods if o.phase(p) != "Running"
             or not has_version(o.containers(o.dig(p, "spec", default={})))
             or (current and o.revision(p) != current)]
    revs = {o.revision(p) for p in pods}
    size = o.int_or_none(lwt(live).get("size")) or 1
    if len(pods) < size * spec_replicas or stale or len(revs) != 1:
        return waiting(ctx.t("Waiting for every llm pod to run the new template: {pods}",
                             "llm 파드가 모두 새 템플릿으로 뜨기를 기다립니다: {pods}",
                             pods=", ".join(stale) or "-"), *groups)
    return passed(ctx.t("All {n} groups run the new template (revision {rev}); LWS replaced them one group at a time.",
                        "그룹 {n}개가 모두 새 템플릿(리비전 {rev})으로 돕니다. LWS는 그룹 단위로 하나씩 바꿨습니다.",
                        n=spec_replicas, rev=next(iter(revs))[:10]), *groups)
