"""Step 7: LeaderWorkerSet wide with exclusive topology: one KWOK node per group."""

from __future__ import annotations

from tutor.checks.api import (Context, exclusive_lines, EXPLAIN, failed, file_then_live, lwt, misplaced_fields, say,
                              named, o, passed, pods_running, Reads, Taint, template_gpus, templates,
                              Verdict)

from . import NOTES  # the lab's words on its pods' command

LWS = "wide"
FILE = "wide.yaml"
PODS = ["wide-0", "wide-0-1", "wide-1", "wide-1-1"]
TOPOLOGY = "kubernetes.io/hostname"
# Every LWS (pods_running reads the one each pod's label names) and every node (the pods name
# them); explained, placement reads every pod too (exclusive_lines, verdict_lines).
READS = Reads(kinds=("LeaderWorkerSet", "Node"), pods=tuple(PODS), files=(FILE,),
              explained=Reads(kinds=EXPLAIN, pods_of=(LWS,), events_about=tuple(PODS)))


def tolerates_kwok(template: dict, taint: Taint) -> bool:
    """Whether the template tolerates the lab's KWOK taint (lesson.yaml lab.fake_nodes.taint)."""
    for tol in o.as_list(o.dig(template, "spec", "tolerations")):
        if not isinstance(tol, dict) or tol.get("effect") not in (None, "", taint.effect):
            continue
        if tol.get("operator") not in (None, "", "Equal", "Exists"):
            continue  # the API server refuses any other operator
        if tol.get("key") == taint.key and (tol.get("operator") == "Exists" or tol.get("value") == taint.value):
            return True
        if tol.get("key") in (None, "") and tol.get("operator") == "Exists":
            return True
    return False


def spec_problems(ctx: Context, obj: dict, where: str) -> list[str]:
    probs = misplaced_fields(ctx, obj, where)
    fake = ctx.lesson.lab.fake_nodes
    assert fake is not None  # the lab of this lesson has KWOK nodes (lesson.yaml)
    if o.annotations(obj).get(o.EXCLUSIVE_ANNOTATION) != TOPOLOGY:
        on_template = [label for label, t in templates(obj)
                       if o.annotations(t).get(o.EXCLUSIVE_ANNOTATION) is not None]
        if on_template:
            # source: sigs.k8s.io/lws@v0.9.0 pkg/controllers/pod_controller.go «found := leaderWorkerSet.Annotations[»
            probs.append(say(ctx.lang, "{where}: the exclusive-topology annotation is on {tmpl}'s metadata, where LWS does "
                                       "not read it: a pod template's annotations only go to its pods. The step says whose "
                                       "metadata LWS reads it from.",
                                       "{where}: exclusive-topology 주석이 {tmpl}의 metadata에 있는데, LWS는 거기서 "
                                       "읽지 않습니다. 파드 템플릿의 주석은 그 파드에만 붙습니다. LWS가 어느 오브젝트의 "
                                       "metadata에서 읽는지는 단계 설명에 있습니다.",
                                       where=where, tmpl=", ".join(on_template)))
        else:
            probs.append(say(ctx.lang, "{where}: the LeaderWorkerSet has no exclusive-topology annotation with the topology "
                                       "key the step names: read its metadata.annotations.",
                                       "{where}: LeaderWorkerSet에 단계가 말하는 토폴로지 키의 exclusive-topology 주석이 "
                                       "없습니다. metadata.annotations를 보세요.", where=where))
    if o.int_or_none(o.dig(obj, "spec", "replicas")) != 2 or o.int_or_none(lwt(obj).get("size")) != 2:
        probs.append(say(ctx.lang, "{where}: wide must make two groups of two pods; read its replicas and "
                                   "leaderWorkerTemplate.size.",
                                   "{where}: wide는 파드 둘짜리 그룹 두 개를 만들어야 합니다. replicas와 "
                                   "leaderWorkerTemplate.size를 보세요.", where=where))
    for label, tmpl in templates(obj):
        if template_gpus(tmpl, ctx.gpu) != 1:
            probs.append(say(ctx.lang, "{where}: {tmpl} must limit exactly 1 {gpu}.",
                                       "{where}: {tmpl:은} {gpu:을} 정확히 1장 limits로 요청해야 합니다.",
                                       where=where, tmpl=label, gpu=ctx.gpu))
        if not tolerates_kwok(tmpl, fake.taint):
            probs.append(say(ctx.lang, "{where}: {tmpl} does not tolerate the KWOK nodes' taint (read it in a KWOK "
                                       "node's spec.taints).",
                                       "{where}: {tmpl:이} KWOK 노드의 테인트를 견디지 못합니다(KWOK "
                                       "노드의 spec.taints를 보세요).",
                                       where=where, tmpl=label))
        if not picks_kwok(o.as_dict(o.dig(tmpl, "spec", "nodeSelector")), fake.labels):
            probs.append(say(ctx.lang, "{where}: {tmpl}'s nodeSelector does not pick the KWOK nodes (read their labels).",
                                       "{where}: {tmpl}의 nodeSelector가 KWOK 노드를 고르지 않습니다(KWOK 노드의 라벨을 보세요).",
                                       where=where, tmpl=label))
    return probs


def picks_kwok(labels: dict, kwok: dict[str, str]) -> bool:
    """Whether labels (a nodeSelector, a node's) carry the lab's KWOK node labels."""
    return all(labels.get(k) == v for k, v in kwok.items())


def is_kwok_node(ctx: Context, node: str) -> bool:
    fake = ctx.lesson.lab.fake_nodes
    assert fake is not None  # the lab of this lesson has KWOK nodes (lesson.yaml)
    obj = named(ctx, "Node", node)
    if obj is not None:
        return picks_kwok(o.labels(obj), fake.labels)
    return node in fake.names


def check(ctx: Context) -> Verdict:
    file_then_live(ctx, LWS, FILE, spec_problems, say(ctx.lang, "live wide", "클러스터의 wide"))
    pods_running(ctx, PODS, NOTES)  # a Stop from here is the verdict (run_checker returns it)
    node = {p: o.node_name(ctx.pod(p) or {}) for p in PODS}  # each one there (pods_running)
    placement = [f"{p} → {n}" for p, n in node.items()]
    if node["wide-0"] != node["wide-0-1"] or node["wide-1"] != node["wide-1-1"]:
        return failed(say(ctx.lang, "A group is split across nodes; exclusive topology should keep each group on one node.",
                                    "한 그룹이 여러 노드에 흩어졌습니다. 독점 배치라면 그룹마다 노드 하나에 모여야 합니다."),
                      *placement)
    if node["wide-0"] == node["wide-1"]:
        return failed(say(ctx.lang, "Both groups share node {n}; exclusive topology should give each group its own node.",
                                    "두 그룹이 노드 {n:을} 함께 씁니다. 독점 배치라면 그룹마다 노드가 달라야 합니다.",
                                    n=node["wide-0"]), *placement)
    not_kwok = sorted({n for n in node.values() if not is_kwok_node(ctx, n)})
    if not_kwok:
        return failed(say(ctx.lang, "wide pods run on {nodes}, which is not a KWOK node: the templates' nodeSelector must "
                                    "pick the KWOK nodes.",
                                    "wide 파드가 KWOK 노드가 아닌 {nodes}에 있습니다. 템플릿의 "
                                    "nodeSelector가 KWOK 노드를 골라야 합니다.",
                                    nodes=", ".join(not_kwok)), *placement)
    return passed(say(ctx.lang, "Each wide group has a node to itself: group 0 on {a}, group 1 on {b}. Each group's "
                                "traffic stays inside its own node.",
                                "wide의 그룹마다 노드를 하나씩 차지했습니다: 그룹 0은 {a}, 그룹 1은 {b}. 그룹 안에서 주고받는 "
                                "통신이 제 노드 안에서 끝납니다.",
                                a=node["wide-0"], b=node["wide-1"]), *placement, *exclusive_lines(ctx, LWS))
