"""Step 1: LeaderWorkerSet llm, 2 groups of 2, one GPU per pod, a container that fails on /tmp/fail."""

from __future__ import annotations

from tutor.checks.api import (Context, EXPLAIN, file_then_live, lwt, misplaced_fields, o, passed, pods_running, say,
                              Reads, template_containers, template_gpus, templates, Verdict)

from . import NOTES  # the lab's words on its pods' command

LWS = "llm"
FILE = "lws.yaml"
PODS = ["llm-0", "llm-0-1", "llm-1", "llm-1-1"]
WANT_POLICY = "RecreateGroupOnPodRestart"
# pods_running reads the LWS each pod's label names (group_to_be_recreated): every LWS.
READS = Reads(kinds=("LeaderWorkerSet",), pods=tuple(PODS), files=(FILE,),
              explained=Reads(kinds=EXPLAIN, events_about=tuple(PODS)))


def spec_problems(ctx: Context, obj: dict, where: str) -> list[str]:
    """Everything about an llm object (file or live) that differs from what the step asks."""
    spec = o.as_dict(obj.get("spec"))
    t = lwt(obj)
    probs = []
    if o.int_or_none(spec.get("replicas")) != 2:
        probs.append(say(ctx.lang, "{where}: spec.replicas is {v}; it must be 2 (two groups).",
                                   "{where}: spec.replicas가 {v}입니다. 2(그룹 둘)여야 합니다.",
                                   where=where, v=spec.get("replicas", "-")))
    probs += misplaced_fields(ctx, obj, where)
    if o.int_or_none(t.get("size")) != 2:
        probs.append(say(ctx.lang, "{where}: leaderWorkerTemplate.size is {v}; it must be 2 (leader + 1 worker).",
                                   "{where}: leaderWorkerTemplate.size가 {v}입니다. 2(리더+워커 1)여야 합니다.",
                                   where=where, v=t.get("size", "-")))
    if t.get("restartPolicy") != WANT_POLICY:
        probs.append(say(ctx.lang, "{where}: leaderWorkerTemplate.restartPolicy is {v}; set it to {want}.",
                                   "{where}: leaderWorkerTemplate.restartPolicy가 {v}입니다. {want:으로} 두세요.",
                                   where=where, v=t.get("restartPolicy", "-"), want=WANT_POLICY))
    if not isinstance(t.get("workerTemplate"), dict):
        probs.append(say(ctx.lang, "{where}: leaderWorkerTemplate.workerTemplate is missing.",
                                   "{where}: leaderWorkerTemplate.workerTemplate이 없습니다.", where=where))
        return probs
    for label, tmpl in templates(obj):
        gpus = template_gpus(tmpl, ctx.gpu)
        if gpus != 1:
            probs.append(say(ctx.lang, "{where}: {tmpl} limits {n} {gpu}; each pod needs exactly 1 "
                                       "(resources.limits[\"{gpu}\"]: 1).",
                                       "{where}: {tmpl}의 {gpu} limits가 {n}입니다. 파드마다 정확히 1장"
                                       "(resources.limits[\"{gpu}\"]: 1)이어야 합니다.",
                                       where=where, tmpl=label, n=f"{gpus:g}" if gpus >= 0 else "?", gpu=ctx.gpu))
        cmd = " ".join(str(x) for c in template_containers(tmpl)
                       for x in o.as_list(c.get("command")) + o.as_list(c.get("args")))
        if "/tmp/fail" not in cmd:
            probs.append(say(ctx.lang, "{where}: the {tmpl} container's command must exit 1 once /tmp/fail exists "
                                       "(e.g. a shell loop that checks for the file).",
                                       "{where}: {tmpl} 컨테이너의 command는 /tmp/fail이 생기면 코드 1로 끝나야 합니다"
                                       "(파일을 확인하는 셸 루프 등).", where=where, tmpl=label))
    return probs


def check(ctx: Context) -> Verdict:
    file_then_live(ctx, LWS, FILE, spec_problems, say(ctx.lang, "live llm", "클러스터의 llm"))
    pods_running(ctx, PODS, NOTES)  # a Stop from here is the verdict (run_checker returns it)
    nodes = sorted({o.node_name(ctx.pod(p) or {}) for p in PODS})  # each one there (pods_running)
    return passed(say(ctx.lang, "llm runs as two groups of two: llm-0 + llm-0-1 and llm-1 + llm-1-1.",
                                "llm이 그룹 둘(llm-0 + llm-0-1, llm-1 + llm-1-1)로 실행 중입니다."),
                  say(ctx.lang, "nodes: {nodes}", "노드: {nodes}", nodes=", ".join(nodes)))
