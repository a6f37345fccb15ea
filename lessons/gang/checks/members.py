"""What the gang lesson's checkers share: reading PodGroups (from a file and from the cluster), and
telling why a gang waits when the cluster itself says nothing.

Several ways a gang goes wrong are silent in kubectl: a pod that names a PodGroup that is not
there, or a PodGroup whose minCount is more than the pods that name it, is held by the scheduler
before it is tried (no event, no condition); a pod whose template has `schedulingGroup` but which
has none itself was stripped by an API server with the GenericWorkload gate off; a member bound
while its PodGroup has no condition was placed by a scheduler with the gate off. `silent_faults`
reads each of these from the store, so a verdict can name it.
"""

from __future__ import annotations

import re

from tutor.checks.api import Context, every, lwt, misplaced_fields, named, o, template_gpus, templates, say

KIND = "PodGroup"
API_VERSION = "scheduling.k8s.io/v1beta1"  # the version Kubernetes 1.37 serves (beta)
CONDITION = "PodGroupInitiallyScheduled"


def podgroup(ctx: Context, name: str) -> dict | None:
    return named(ctx, KIND, name)


def group_of(pod_or_template: dict) -> str:
    """The PodGroup a pod (or a pod template) names in spec.schedulingGroup, or ""."""
    name = o.dig(pod_or_template, "spec", "schedulingGroup", "podGroupName")
    return str(name) if name else ""


def min_count(pg: dict) -> int | None:
    return o.int_or_none(o.dig(pg, "spec", "schedulingPolicy", "gang", "minCount"))


def scheduled(pg: dict) -> dict:
    """The PodGroup's PodGroupInitiallyScheduled condition, or {} while it has none."""
    return o.condition(pg, CONDITION)


def bound(pod: dict) -> bool:
    return bool(o.node_name(pod))


def normalise(text: str) -> str:
    return " ".join(text.split())


def names_pod(text: str, pod: str) -> bool:
    """Whether the text names the pod as a word of its own (orphan-0 is not in orphan-0-1)."""
    return re.search(r"(?<![\w-])" + re.escape(pod) + r"(?![\w-])", text) is not None


def podgroup_problems(ctx: Context, pg: dict, where: str, size: int, lws: str) -> list[str]:
    """What keeps a PodGroup (from a file or the cluster) from being the gang of one group of
    `lws`, which has `size` pods: not the v1beta1 kind, no gang policy, a minCount that is not
    the group's pod count. Says the rule, never the number."""
    probs = []
    api = str(pg.get("apiVersion") or "")
    if not api:  # kubectl refuses a file without one
        probs.append(say(ctx.lang, "{where}: apiVersion is missing; Kubernetes 1.37 serves PodGroups at {want}.",
                                   "{where}: apiVersion이 없습니다. 쿠버네티스 1.37은 PodGroup을 {want:으로} 제공합니다.",
                                   where=where, want=API_VERSION))
    elif api != API_VERSION:
        probs.append(say(ctx.lang, "{where}: apiVersion is {api}; Kubernetes 1.37 serves PodGroups at {want}.",
                                   "{where}: apiVersion이 {api}입니다. 쿠버네티스 1.37은 PodGroup을 {want:으로} 제공합니다.",
                                   where=where, api=api, want=API_VERSION))
    policy = o.as_dict(o.dig(pg, "spec", "schedulingPolicy"))
    if "gang" not in policy:
        # source: k8s.io/api@v0.37.2 scheduling/v1beta1/types.go «minCount is the minimum number of pods that must be schedulable»
        probs.append(say(ctx.lang, "{where}: spec.schedulingPolicy has no gang policy ({found}): only the gang policy has a "
                                   "minCount, the least number of pods the gang needs.",
                                   "{where}: spec.schedulingPolicy에 gang 정책이 없습니다({found}). 갱에 필요한 최소 파드 "
                                   "수인 minCount는 gang 정책에만 있습니다.",
                                   where=where, found=", ".join(sorted(policy)) or "-"))
        return probs
    count = min_count(pg)
    if count is None:
        probs.append(say(ctx.lang, "{where}: spec.schedulingPolicy.gang has no minCount.",
                                   "{where}: spec.schedulingPolicy.gang에 minCount가 없습니다.", where=where))
    elif count > size:
        probs.append(say(ctx.lang, "{where}: minCount is {n}, more than the pods of one group of {lws}: the gang would wait for "
                                   "pods that never come. minCount counts the pods of one group, its leader included.",
                                   "{where}: minCount({n})가 {lws} 그룹 하나의 파드 수보다 많습니다. 갱이 끝내 오지 않을 "
                                   "파드를 기다리게 됩니다. minCount는 리더를 포함한 그룹 하나의 파드 수입니다.",
                                   where=where, n=count, lws=lws))
    elif count < size:
        probs.append(say(ctx.lang, "{where}: minCount is {n}, fewer than the pods of one group of {lws}: the gang would need "
                                   "only part of its group. minCount counts the pods of one group, its leader included.",
                                   "{where}: minCount({n})가 {lws} 그룹 하나의 파드 수보다 적습니다. 갱이 그룹의 일부만 "
                                   "필요로 하게 됩니다. minCount는 리더를 포함한 그룹 하나의 파드 수입니다.",
                                   where=where, n=count, lws=lws))
    return probs


def made_anew(ctx: Context, live: dict, path: str) -> str:
    """What fixes a PodGroup in the cluster that differs from its file: applying the file again, or,
    when the PodGroup was made without a gang policy, deleting it and making it again ("" when it
    has its gang policy: applying the file changes its minCount)."""
    if "gang" in o.as_dict(o.dig(live, "spec", "schedulingPolicy")):
        return ""
    # source: k8s.io/api@v0.37.2 scheduling/v1beta1/types.go «The PodGroup may not change policy after creation.»
    return say(ctx.lang, "The PodGroup {name} in the cluster was made without a gang policy, and a PodGroup's policy cannot "
                         "change once it is made: delete the PodGroup {name}, then apply {path} again.",
                         "클러스터의 PodGroup {name:은} gang 정책 없이 만들어졌고, PodGroup의 정책은 만든 뒤에는 바꿀 수 "
                         "없습니다. PodGroup {name:을} 지운 뒤 {path:을} 다시 적용하세요.", name=o.name(live), path=path)


WORKERS = {1: ("one worker", "워커 하나"), 2: ("two workers", "워커 둘")}


def lws_problems(ctx: Context, obj: dict, where: str, pg_name: str, size: int) -> list[str]:
    """What keeps an LWS of the lesson (file or live) from being the one group of `size` pods that
    the gang `pg_name` is made for: more groups than one, a field of leaderWorkerTemplate put
    directly under spec (kubectl refuses it), another size, a GPU limit other than none for the
    leader and one for each worker, a template that does not name the PodGroup."""
    lws = o.name(obj) or "?"
    probs = []
    replicas = o.as_dict(obj.get("spec")).get("replicas", 1)  # the CRD's default is one group
    if o.int_or_none(replicas) != 1:
        more = (n := o.int_or_none(replicas)) is not None and n > 1
        # source: sigs.k8s.io/lws@v0.9.0 pkg/controllers/leaderworkerset_controller.go «LeaderTemplate.DeepCopy()»
        # source: sigs.k8s.io/lws@v0.9.0 pkg/controllers/pod_controller.go «currentLws.Spec.LeaderWorkerTemplate.WorkerTemplate»
        probs.append(say(ctx.lang, "{where}: spec.replicas is {v}; {lws} is one group here.{more}",
                                   "{where}: spec.replicas 값이 {v}입니다. 여기서 {lws:은} 그룹 하나입니다.{more}",
                                   where=where, v=replicas, lws=lws,
                                   more=say(ctx.lang, " The templates' podGroupName is copied into the pods of every group, "
                                                      "so the pods of all {v} groups would name the one PodGroup {pg}, "
                                                      "whose minCount counts one group.",
                                                      " 템플릿의 podGroupName은 모든 그룹의 파드에 그대로 복사되므로, "
                                                      "그룹 {v}개의 파드가 모두 PodGroup {pg} 하나를 가리키게 됩니다. 이 "
                                                      "PodGroup의 minCount는 그룹 하나를 셉니다.",
                                            v=replicas, pg=pg_name) if more else ""))
    probs += misplaced_fields(ctx, obj, where)
    got = lwt(obj).get("size")
    if o.int_or_none(got) != size:
        probs.append(say(ctx.lang, "{where}: leaderWorkerTemplate.size is {v}; {lws} is one group of a leader and {w}.",
                                   "{where}: leaderWorkerTemplate.size 값이 {v}입니다. {lws:은} 리더 하나와 {w:으로} 된 "
                                   "그룹 하나입니다.",
                                   where=where, v=got if got is not None else "-", lws=lws,
                                   w=WORKERS.get(size - 1, (f"{size - 1} workers", f"워커 {size - 1}개"))))
    if "leaderTemplate" not in lwt(obj):
        # source: sigs.k8s.io/lws@v0.9.0 pkg/controllers/leaderworkerset_controller.go «} else { podTemplateSpec =»
        probs.append(say(ctx.lang, "{where}: leaderWorkerTemplate has no leaderTemplate, so the leader is made from "
                                   "workerTemplate, with its {gpu} limit; the leader's must be none.",
                                   "{where}: leaderWorkerTemplate에 leaderTemplate이 없으므로 리더도 workerTemplate으로 "
                                   "만들어지고 그 {gpu} 한도(limits)를 그대로 받습니다. 리더는 0장이어야 합니다.",
                                   where=where, gpu=ctx.gpu))
    for label, template in templates(obj):
        gpus = template_gpus(template, ctx.gpu)
        if gpus != (0 if label == "leaderTemplate" else 1):
            probs.append(say(ctx.lang, "{where}: {t} has a {gpu} limit of {n}; the leader's must be none, and each "
                                       "worker's one.",
                                       "{where}: {t}의 {gpu} 한도(limits)가 {n}장입니다. 리더는 0장, 워커는 "
                                       "한 장씩이어야 합니다.",
                                       where=where, t=label, n=f"{gpus:g}" if gpus >= 0 else "?", gpu=ctx.gpu))
    return probs + template_problems(ctx, obj, where, pg_name)


def template_problems(ctx: Context, lws_obj: dict, where: str, pg_name: str) -> list[str]:
    """The templates of an LWS (file or live) that do not put their pods into the PodGroup."""
    probs = []
    for label, template in templates(lws_obj):
        named = group_of(template)
        if not named:
            probs.append(say(ctx.lang, "{where}: {t} has no spec.schedulingGroup, so the pods made from it are not in any "
                                       "gang and are placed on their own.",
                                       "{where}: {t}에 spec.schedulingGroup이 없습니다. 이 템플릿으로 만든 파드는 어느 갱에도 "
                                       "속하지 않고 따로 배치됩니다.", where=where, t=label))
        elif named != pg_name and podgroup(ctx, named) is None:
            probs.append(say(ctx.lang, "{where}: {t} names the PodGroup {name}, and namespace {ns} has no PodGroup of that "
                                       "name: its pods would be held with no event.",
                                       "{where}: {t:이} 가리키는 PodGroup {name:은} 네임스페이스 {ns}에 없습니다. 이 템플릿으로 "
                                       "만든 파드는 이벤트도 없이 붙잡혀 있게 됩니다.",
                                       where=where, t=label, name=named, ns=ctx.ns))
        elif named != pg_name:
            probs.append(say(ctx.lang, "{where}: {t} names the PodGroup {name}, not the one this step's gang is made of.",
                                       "{where}: {t:이} 가리키는 PodGroup {name:은} 이 단계의 갱이 아닙니다.",
                                       where=where, t=label, name=named))
    return probs


def silent_faults(ctx: Context, pods: list[dict], lws_obj: dict | None) -> list[str]:
    """Why the gang of these pods (one LWS group) is held with nothing said, from the store: the
    first line is the fault, the rest where it shows."""
    wanted = {group_of(t) for _, t in templates(lws_obj)} - {""} if lws_obj else set()
    stripped = [o.name(p) for p in pods if not group_of(p) and wanted]
    if lws_obj is not None and stripped and len(stripped) == len(pods) and all(group_of(t) for _, t in templates(lws_obj)):
        return [say(ctx.lang, "The templates of {lws} name a PodGroup, but its pods ({pods}) have no spec.schedulingGroup: the "
                              "API server dropped the field, as it does when its GenericWorkload feature gate is off.",
                              "{lws}의 템플릿에는 PodGroup이 있는데 파드({pods})에는 spec.schedulingGroup이 없습니다. "
                              "API 서버는 GenericWorkload 기능 게이트가 꺼져 있으면 이 필드를 지웁니다.",
                              lws=o.name(lws_obj), pods=", ".join(stripped)),
                say(ctx.lang, "lwstutor doctor --lesson gang checks the cluster.",
                              "lwstutor doctor --lesson gang으로 클러스터를 점검하세요.")]
    members = [p for p in pods if group_of(p)]
    outside = [p for p in pods if not group_of(p)]
    if members and outside:
        return [say(ctx.lang, "{out} is in no gang (no spec.schedulingGroup) while {inside} is: the scheduler places {out} on "
                              "its own, and the gang counts only the pods that name its PodGroup.",
                              "{inside:은} 갱에 들었는데 {out:은} 어느 갱에도 속하지 않습니다(spec.schedulingGroup "
                              "없음). 스케줄러는 {out:을} 따로 배치하고, 갱은 자기 PodGroup을 가리키는 파드만 셉니다.",
                              out=", ".join(o.name(p) for p in outside), inside=", ".join(o.name(p) for p in members)),
                say(ctx.lang, "Where to look: the spec of each template of {lws}.", "볼 곳: {lws}의 각 템플릿에 있는 spec.",
                              lws=o.lws_name(members[0]) or "?")]
    for name in sorted({group_of(p) for p in members}):
        pg = podgroup(ctx, name)
        of_it = [p for p in members if group_of(p) == name]
        if pg is None:
            others = sorted(o.name(x) for x in every(ctx, KIND))
            return [say(ctx.lang, "{pods} name the PodGroup {name}, and namespace {ns} has no PodGroup of that name: the "
                                  "scheduler holds them before it even tries, with no event.",
                                  "{pods:은} PodGroup {name:을} 가리키는데 네임스페이스 {ns}에는 그런 이름의 PodGroup이 "
                                  "없습니다. 스케줄러는 시도하기도 전에 파드를 붙잡아 두고 이벤트도 남기지 않습니다.",
                                  pods=", ".join(o.name(p) for p in of_it), name=name, ns=ctx.ns),
                    say(ctx.lang, "PodGroups in {ns}: {list}",
                                  "{ns}의 PodGroup: {list}", ns=ctx.ns, list=", ".join(others) or "-")]
        count = min_count(pg)
        if not scheduled(pg) and count is not None and count > len(of_it):
            return [say(ctx.lang, "The PodGroup {name} waits for {n} pods, and only {k} name it: the scheduler keeps them all "
                                  "waiting for more, with no event and no condition.",
                                  "PodGroup {name:은} 파드 {n}개를 기다리는데, 이 PodGroup을 가리키는 파드는 {k}개뿐입니다. "
                                  "스케줄러는 더 올 파드를 기다리며 모두 붙잡아 두고, 이벤트도 조건도 남기지 않습니다.",
                                  name=name, n=count, k=len(of_it)),
                    say(ctx.lang, "Where to look: its spec.schedulingPolicy.gang.", "볼 곳: 그 PodGroup의 "
                                  "spec.schedulingPolicy.gang.")]
        placed = [p for p in of_it if bound(p)]
        if placed and not scheduled(pg) and len(placed) < len(of_it):
            return [say(ctx.lang, "Placed while the PodGroup has no condition: {pods} of the gang {name}. The scheduler "
                                  "placed pods one by one, as it does when its GenericWorkload feature gate is off.",
                                  "갱 {name}의 {pods:이} PodGroup에 조건이 없는데도 배치됐습니다. 스케줄러는 GenericWorkload "
                                  "기능 게이트가 꺼져 있으면 파드를 하나씩 따로 배치합니다.",
                                  pods=", ".join(o.name(p) for p in placed), name=name),
                    say(ctx.lang, "lwstutor doctor --lesson gang checks the cluster.",
                                  "lwstutor doctor --lesson gang으로 클러스터를 점검하세요.")]
    return []


def bound_alone(ctx: Context, pods: list[dict], pg: dict | None, again_text: str) -> list[str]:
    """The verdict's lines when some members of a gang have a node and the rest none, where the
    step shows the gang's members all waiting (steps 4 and 7), or []. A gang placed before (its
    condition True) is seen wait again as `again_text` says; else the pods bound alone are looked
    at: a pod made with a nodeName, or for another scheduler, is never queued by this one."""
    placed = [p for p in pods if bound(p)]
    if not placed or len(placed) == len(pods):
        return []
    name = group_of(placed[0]) or (o.name(pg) if pg else "?")
    first = say(ctx.lang, "Bound while the rest of the gang {pg} waits: {pods}, on {nodes}. In this step no pod of the gang "
                          "has a node.",
                          "갱 {pg}의 나머지 파드가 기다리는데 {pods:이} {nodes}에 바인딩됐습니다. 이 단계에서는 갱의 "
                          "어느 파드에도 노드가 없어야 합니다.",
                          pg=name, pods=", ".join(o.name(p) for p in placed),
                          nodes=", ".join(sorted({o.node_name(p) for p in placed})))
    if pg is not None and scheduled(pg).get("status") == "True":
        return [first, again_text]
    # source: k8s.io/kubernetes@v1.37.2 pkg/scheduler/eventhandlers.go «(!assignedPod(pod) || isPodDeferred) {»
    # source: k8s.io/kubernetes@v1.37.2 pkg/scheduler/eventhandlers.go «return len(pod.Spec.NodeName) != 0»
    # source: k8s.io/kubernetes@v1.37.2 pkg/scheduler/eventhandlers.go «profiles.HandlesSchedulerName(pod.Spec.SchedulerName)»
    return [first, say(ctx.lang, "Where to look: spec.nodeName and spec.schedulerName of {pods} and of {lws}'s templates. The "
                                 "scheduler does not queue a pod made with a nodeName, or for another scheduler, so no gang "
                                 "holds it back.",
                                 "볼 곳: {pods}의 spec.nodeName과 spec.schedulerName, 그리고 {lws} 템플릿의 같은 필드. "
                                 "nodeName을 지정해 만든 파드나 다른 스케줄러에 맡긴 파드는 이 스케줄러의 큐에 들어가지 "
                                 "않으므로, 어떤 갱도 붙잡아 두지 않습니다.",
                                 pods=", ".join(o.name(p) for p in placed), lws=o.lws_name(placed[0]) or "?")]


def again(ctx: Context) -> str:
    """How to see orphan's gang wait again (steps 4 and 5) once it has been placed: its PodGroup
    has to be made anew, since the condition it was placed with stays True whatever the pods do."""
    # source: k8s.io/api@v0.37.2 scheduling/v1beta1/types.go «it serves as a terminal state and will never revert to False»
    # source: k8s.io/kubernetes@v1.37.2 pkg/scheduler/schedule_one_podgroup.go «already successfully scheduled, don't regress the»
    return say(ctx.lang, "To see it wait again: delete orphan, and big too if you made it; once orphan's pods are gone, delete "
                         "the PodGroup orphan-0 as well, since its {c} condition never goes back from True. Then scale llm "
                         "back to 2 groups and wait until its 4 pods run, holding every GPU again; only then apply "
                         "orphan-pg.yaml and orphan.yaml again.",
                         "다시 확인하려면 orphan을 지우고, big을 만들었다면 big도 지우세요. orphan의 파드가 사라지면 "
                         "PodGroup orphan-0도 지우세요. {c} 조건은 한번 True가 되면 다시 바뀌지 않습니다. 그다음 llm을 "
                         "다시 그룹 둘로 늘리고, llm의 파드 4개가 모두 실행되어 GPU를 다시 다 차지할 때까지 기다리세요. "
                         "그런 뒤에 orphan-pg.yaml과 orphan.yaml을 다시 적용하세요.", c=CONDITION)


def messages(ctx: Context, pod: dict) -> list[str]:
    """The scheduler's live reasons for a Pending pod, newest first: its PodScheduled condition,
    then its FailedScheduling events (those about this very pod, not an older one of its name)."""
    out = []
    cond = o.condition(pod, "PodScheduled")
    if cond.get("status") == "False" and cond.get("message"):
        out.append(str(cond["message"]))
    out += [o.event_message(e) for e in reversed(ctx.events_about(o.name(pod), "Pod"))
            if o.event_reason(e) == "FailedScheduling" and o.event_regarding(e).get("uid") in (None, "", o.uid(pod))]
    return [m for m in out if m]


def gpus_bound(ctx: Context, node: str) -> float:
    """The GPUs the live pods bound to a node hold (their limits), as the node ledger counts them."""
    total = 0.0
    for pod in every(ctx, "Pod"):
        if o.node_name(pod) != node or o.phase(pod) in ("Succeeded", "Failed"):
            continue
        for c in o.containers(o.as_dict(pod.get("spec"))):
            raw = o.dig(c, "resources", "limits", ctx.gpu)
            try:
                total += float(str(raw)) if raw is not None else 0.0
            except ValueError:
                continue
    return total


def allocatable_gpus(ctx: Context, node: str) -> float | None:
    obj = named(ctx, "Node", node)
    raw = o.dig(obj, "status", "allocatable", ctx.gpu) if obj else None
    try:
        return float(str(raw)) if raw is not None else None
    except ValueError:
        return None


def clauses(message: str) -> list[str]:
    """The "<n> <reason>" clauses of the first sentence of a scheduler message ("0/3 nodes are
    available: 1 Insufficient nvidia.com/gpu, 2 node(s) had untolerated taint(s)."), or the
    sentence itself when it has none."""
    first = normalise(message).split(". ")[0].rstrip(".")
    _, sep, rest = first.partition(": ")
    parts = [p.strip() for p in rest.split(", ")] if sep else []
    return [p for p in parts if re.match(r"^\d+ \S", p)] or [first]


def gang_of(ctx: Context, lws: str, pod_names: tuple[str, ...]) -> list[dict] | None:
    """The live pods of one LWS group by name, or None while one of them is not there yet."""
    pods = [pod for n in pod_names if (pod := ctx.pod(n)) is not None]
    return pods if len(pods) == len(pod_names) else None
