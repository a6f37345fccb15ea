"""Lab preflight: is this cluster ready for the chosen lesson's lab (its lesson.yaml `lab:`)? Each
finding says what is wrong and the exact command that fixes it. The tutor stays read-only: it
prints fixes and never applies them.

Only reads are made, plus SelfSubjectAccessReviews (what `kubectl auth can-i` does): the API
server answers them without storing anything.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from tutor.cluster import kinds
from tutor.cluster import objects as o
from tutor.lesson.lab import NONE as NO_LAB, FakeNodes, Lab
from tutor.i18n.bilingual import Words, say
from tutor.narration import failures

CRD_NAME = kinds.LEADER_WORKER_SET.crd
# The LWS release the tests run (tests/e2e/labcluster): another one may word its events or
# status differently, which doctor says, and is never asked to be replaced by this one.
TESTED_LWS = "v0.9.0"
LWS_NAMESPACE = "lws-system"  # where its manifests and its Helm chart put the controller


def lws_install(version: str = TESTED_LWS) -> str:
    return ("kubectl apply --server-side -f "
            f"https://github.com/kubernetes-sigs/lws/releases/download/{version}/manifests.yaml")


# What the tutor reads by default (a lesson may name other kinds): the rows of the kinds table,
# each with the verbs the tutor's role must grant on it.
READS = kinds.DEFAULT


@dataclass
class Finding:
    id: str
    ok: bool
    title: str
    detail: str = ""
    fix: list[str] = field(default_factory=list)
    failure: object = None  # tutor.cluster.failure.Failure when the cluster could not be asked
    warn: bool = False  # ok, but worth knowing (an LWS the tests do not cover): marked !, the lab is still ready

    def to_json(self) -> dict:
        return {"id": self.id, "ok": self.ok, "warn": self.warn, "title": self.title, "detail": self.detail,
                "fix": self.fix}

    @property
    def mark(self) -> str:
        return "✗" if not self.ok else "!" if self.warn else "✓"


def _status(exc: Exception | None) -> int | None:  # None: no error to read
    return getattr(exc, "status", None)


def kwok_node_yaml(name: str, fake: FakeNodes, gpu: str) -> str:
    """A KWOK node as the lesson describes it. kwok manages the nodes annotated with the taint's
    key and value (the lab runs it with --manage-nodes-with-annotation-selector so)."""
    labels = ", ".join(f"{k}: {v}" for k, v in {**fake.labels, "kubernetes.io/hostname": name}.items())
    taint = fake.taint
    res = f"{{{gpu}: \"{fake.gpus}\", cpu: \"32\", memory: 256Gi, pods: \"110\"}}"
    return (f"kubectl apply -f - <<'EOF'\napiVersion: v1\nkind: Node\nmetadata:\n  name: {name}\n"
            f"  labels: {{{labels}}}\n"
            f"  annotations: {{{taint.key}: {taint.value}}}\nspec:\n"
            f"  taints: [{{key: {taint.key}, value: {taint.value}, effect: {taint.effect}}}]\n"
            f"status:\n  allocatable: {res}\n  capacity: {res}\nEOF")


def gpu_patch(name: str, gpu: str, count: int) -> str:
    return (f"kubectl patch node {name} --subresource=status --type=merge -p "
            f"'{{\"status\":{{\"capacity\":{{\"{gpu}\":\"{count}\"}},\"allocatable\":{{\"{gpu}\":\"{count}\"}}}}}}'")


def run(api_client, namespace: str, workdir: str, gpu: str = "nvidia.com/gpu", lang: str = "en",
        reads: tuple[kinds.Kind, ...] = READS, lab: Lab = NO_LAB) -> list[Finding]:
    """Every finding, for a lesson that watches `reads` (the rows of tutor/cluster/kinds.py) and
    needs `lab` (its lesson.yaml `lab`: nodes, GPUs, taints, feature gates, API versions)."""
    from kubernetes import client

    from tutor.cluster.failure import describe

    core = client.CoreV1Api(api_client)
    out: list[Finding] = []
    timeout = (5, 15)

    # 1. reachable: if not, the cluster's checks cannot run, and the local ones still do -------
    try:
        version = client.VersionApi(api_client).get_code(_request_timeout=timeout).git_version
        out.append(Finding("cluster", True, say(lang, "cluster reachable (Kubernetes {v})", "클러스터에 연결됨 (쿠버네티스 {v})",
                                                      v=version)))
    except Exception as exc:  # noqa: BLE001 - refused, TLS, DNS, timeout, 401, 403: one line each
        failure = describe(exc, str(api_client.configuration.host))
        out.append(Finding("cluster", False, failures.sentence(failure, lang), "",
                           ["kubectl cluster-info", say(lang, "check --kubeconfig/--context or $KUBECONFIG",
                                                              "--kubeconfig/--context 또는 $KUBECONFIG를 확인하세요")], failure))
        return out + local_checks(workdir, lang)

    # 2. access (SelfSubjectAccessReview, like kubectl auth can-i) ------------------------------
    access = _access(client.AuthorizationV1Api(api_client), namespace, timeout, lang, reads)
    out.append(access)
    if "list pods" in access.detail:  # the tutor could show nothing: the cluster forbids it
        from tutor.cluster.failure import Failure

        access.failure = Failure("forbidden", str(api_client.configuration.host), 403,
                                 reason=(f"this user may not list pods in namespace {namespace}",
                                         f"이 사용자는 {namespace} 네임스페이스의 파드 목록을 볼 수 없습니다"))

    # 3. LWS CRD, version, controller and webhook, for a lesson that watches LWS ---------------
    if kinds.LEADER_WORKER_SET in reads:
        out.extend(_lws(api_client, namespace, timeout, lang))
    # ... and the API groups served only behind a feature gate, for a lesson that watches them
    out.extend(_gated(api_client, reads, timeout, lang, lab))

    # 4. namespace --------------------------------------------------------------------------
    try:
        core.read_namespace(namespace, _request_timeout=timeout)
        out.append(Finding("namespace", True, say(lang, "namespace {ns} exists", "네임스페이스 있음: {ns}", ns=namespace)))
    except Exception as exc:  # noqa: BLE001
        if _status(exc) == 404:
            out.append(Finding("namespace", False, say(lang, "namespace {ns} is missing",
                                                             "네임스페이스 없음: {ns}", ns=namespace), "",
                               [f"kubectl create namespace {namespace}"]))
        else:
            out.append(Finding("namespace", False, say(lang, "namespace {ns} could not be read", "네임스페이스를 읽지 못함: {ns}",
                                                             ns=namespace),
                               f"HTTP {_status(exc)}", [f"kubectl get namespace {namespace}"]))

    # 5. nodes ------------------------------------------------------------------------------
    out.extend(_nodes(core, gpu, timeout, lang, lab))

    # 6. local: the workdir ------------------------------------------------------------------
    return out + local_checks(workdir, lang)


def local_checks(workdir: str, lang: str = "en") -> list[Finding]:
    """What doctor checks on this machine, with or without a cluster."""
    return [_workdir(workdir, lang)]


def _may(authz, verb: str, resource: str, group: str, namespace: str | None, timeout) -> bool:
    """Whether this user may (a SelfSubjectAccessReview, as kubectl auth can-i asks): doctor asks
    before it reads anything the tutor's role need not grant, so it is never refused."""
    from kubernetes import client

    attrs = client.V1ResourceAttributes(verb=verb, resource=resource, group=group, namespace=namespace)
    review = client.V1SelfSubjectAccessReview(spec=client.V1SelfSubjectAccessReviewSpec(resource_attributes=attrs))
    try:
        res = authz.create_self_subject_access_review(review, _request_timeout=timeout)
        return bool(res.status and res.status.allowed)
    except Exception:  # noqa: BLE001 - a review we cannot make is a no
        return False


def _access(authz, namespace: str, timeout, lang: str, reads: tuple[kinds.Kind, ...] = READS) -> Finding:
    denied = []
    for k in reads:
        for verb in k.verbs:
            if not _may(authz, verb, k.plural, k.group, namespace if k.namespaced else None, timeout):
                denied.append(f"{verb} {k.plural}{'.' + k.group if k.group else ''}")
    if not denied:
        return Finding("access", True, say(lang, "you may get, list and watch everything the tutor reads",
                                                 "튜터가 읽는 것을 모두 get, list, watch 할 수 있습니다"))
    return Finding("access", False, say(lang, "the tutor cannot read everything it needs",
                                              "튜터에게 필요한 읽기 권한이 모자랍니다"),
                   say(lang, "denied: {verbs}", "거부됨: {verbs}", verbs=", ".join(denied)),
                   [say(lang, "kubectl apply -f deploy/rbac.yaml   # a read-only ClusterRole for the tutor",
                              "kubectl apply -f deploy/rbac.yaml   # 튜터용 읽기 전용 ClusterRole"),
                    "kubectl auth can-i --list -n " + namespace])


def _lws(api_client, namespace: str, timeout, lang: str) -> list[Finding]:
    from kubernetes import client

    out = []
    crd, crd_error = None, None
    try:
        crd = client.ApiextensionsV1Api(api_client).read_custom_resource_definition(CRD_NAME, _request_timeout=timeout)
    except Exception as exc:  # noqa: BLE001
        crd_error = exc
    running = running_lws(api_client, crd, timeout)
    # Never a fix that installs an older LWS than the one that runs: the same release, else the tested one.
    install = lws_install(running[0] if running else TESTED_LWS)
    if crd is not None:
        served = [v.name for v in crd.spec.versions if v.served]
        version = kinds.LEADER_WORKER_SET.version
        ok = version in served
        out.append(Finding("lws-crd", ok, say(lang, "LeaderWorkerSet CRD installed (served: {v})",
                                                    "LeaderWorkerSet CRD 설치됨 (제공 버전: {v})", v=", ".join(served)),
                           "" if ok else say(lang, "version {v} is not served",
                                                   "{v} 버전이 제공되지 않습니다", v=version), [] if ok else [install]))
        out.append(_version_finding(running, lang))
    else:
        if _status(crd_error) == 404:
            return [Finding("lws-crd", False, say(lang, "LeaderWorkerSet is not installed (no CRD {crd})",
                                                        "LeaderWorkerSet 미설치 (CRD 없음: {crd})", crd=CRD_NAME), "",
                            [install, f"kubectl get crd {CRD_NAME}"])]
        out.append(Finding("lws-crd", False, say(lang, "could not read the LeaderWorkerSet CRD",
                                                       "LeaderWorkerSet CRD를 읽지 못했습니다"), f"HTTP {_status(crd_error)}",
                           [f"kubectl get crd {CRD_NAME}"]))
    # The webhook is what makes groups form: it labels pods and injects LWS_* env.
    hooks = []
    try:
        for cfg in client.AdmissionregistrationV1Api(api_client).list_mutating_webhook_configuration(
                _request_timeout=timeout).items:
            hooks += [w for w in cfg.webhooks or [] if "mutate--v1-pod" in str(
                (w.client_config.service and w.client_config.service.path) or w.client_config.url or "")]
    except Exception:  # noqa: BLE001 - may be forbidden; the pods below still tell
        pass
    labelled = None
    try:
        pods = client.CoreV1Api(api_client).list_namespaced_pod(
            namespace, label_selector=o.NAME_LABEL, _request_timeout=timeout).items
        if pods:
            labelled = any(o.GROUP_INDEX_LABEL in (p.metadata.labels or {}) for p in pods)
    except Exception:  # noqa: BLE001
        pass
    if labelled is False:
        out.append(Finding("lws-webhook", False, say(lang, "LWS pods exist but lack the webhook's labels",
                                                           "LWS 파드는 있는데 웹훅의 라벨이 없습니다"),
                           say(lang, "the LWS pod webhook is not running, so groups never form",
                                     "LWS 파드 웹훅이 동작하지 않아 그룹이 만들어지지 않습니다"),
                           ["kubectl get pods -n lws-system", "kubectl logs -n lws-system deploy/lws-controller-manager"]))
    elif hooks or labelled:
        why = say(lang, "its pod webhook is registered",
                        "파드 웹훅이 등록되어 있음") if hooks else say(lang, "LWS pods carry the webhook's labels",
                                                                                           "LWS 파드에 웹훅의 라벨이 있음")
        out.append(Finding("lws-webhook", True, say(lang, "LWS controller and webhook look active ({why})",
                                                          "LWS 컨트롤러와 웹훅이 동작 중으로 보입니다 ({why})", why=why)))
    else:
        out.append(Finding("lws-webhook", False, say(lang, "no LWS pod webhook found", "LWS 파드 웹훅이 없습니다"),
                           say(lang, "no MutatingWebhookConfiguration serves /mutate--v1-pod",
                                     "/mutate--v1-pod 경로를 처리하는 MutatingWebhookConfiguration 없음"), [install,
                                                                                    "kubectl get mutatingwebhookconfigurations"]))
    return out


def _gated(api_client, reads: tuple[kinds.Kind, ...], timeout, lang: str, lab: Lab = NO_LAB) -> list[Finding]:
    """One finding per group/version the lesson needs (lesson.yaml `lab.api_versions`, and its
    gated kinds'): served, or which feature gates and runtime-config turn it on, as k3s flags. The
    API server's discovery says what it serves; whether the scheduler and the controller manager
    have the lesson's gates on too no API says, which a last finding marks with !."""
    from kubernetes import client

    needed: dict[str, list[str]] = {gv: [] for gv in lab.api_versions}
    gates = list(lab.feature_gates)
    for k in reads:
        if k.gate:
            needed.setdefault(k.api_version, []).append(k.kind)
            gates += [k.gate] if k.gate not in gates else []
    if not needed and not gates:
        return []
    served: set[str] = set()
    if needed:
        try:
            groups = client.ApisApi(api_client).get_api_versions(_request_timeout=timeout).groups or []
            served = {v.group_version for g in groups for v in g.versions or []}
        except Exception as exc:  # noqa: BLE001 - the watches report it too; doctor says what to run
            return [Finding("served", False, say(lang, "could not ask the API server which groups it serves",
                                                       "API 서버가 제공하는 그룹을 묻지 못했습니다"),
                            f"HTTP {_status(exc)}", ["kubectl api-versions"])]
    out = []
    for gv, names in needed.items():
        what = ", ".join(names)
        if gv in served:
            out.append(Finding(f"served-{gv}", True, say(lang, "{gv} is served ({kinds})",
                                                               "제공됨: {gv} ({kinds})", gv=gv, kinds=what)
                               if names else say(lang, "{gv} is served", "제공됨: {gv}", gv=gv)))
            continue
        gate = " + ".join(gates)
        title = (say(lang, "the API server does not serve {gv}: the {gate} feature gate and "
                           "--runtime-config={gv}=true are needed",
                           "API 서버가 제공하지 않음: {gv}. {gate} 기능 게이트와 --runtime-config={gv}=true 설정이 필요합니다",
                           gv=gv, gate=gate) if gates else
                 say(lang, "the API server does not serve {gv}: --runtime-config={gv}=true is needed",
                           "API 서버가 제공하지 않음: {gv}. --runtime-config={gv}=true 설정이 필요합니다", gv=gv))
        out.append(Finding(f"served-{gv}", False, title,
                           say(lang, "no {kinds} without it", "이 설정 없이는 {kinds} 없음", kinds=what) if names else "",
                           [*k3s_fix(gates, [g for g in needed if g not in served], lang),
                            f"kubectl api-versions | grep {gv.split('/')[0]}"]))
    if lab.feature_gates and all(gv in served for gv in needed):
        out.append(Finding("feature-gates", True,
                           say(lang, "feature gate {gates}: the scheduler's and the controller manager's are not "
                                     "visible to the tutor",
                                     "기능 게이트 {gates}: 스케줄러와 컨트롤러 매니저의 설정은 튜터가 볼 수 없습니다",
                                     gates=", ".join(lab.feature_gates)),
                           say(lang, "if the lesson's objects get no status, check that k3s runs with these flags",
                                     "수업에서 만든 오브젝트에 status가 생기지 않으면 k3s가 이 플래그로 실행 중인지 확인하세요"),
                           k3s_fix(list(lab.feature_gates), [], lang), warn=True))
    return out


def k3s_fix(gates: list[str], group_versions: list[str], lang: str) -> list[str]:
    """The k3s server flags that turn `gates` on in every component that reads them and serve
    `group_versions`: each component's flag once, the gates joined by commas."""
    on = ",".join(f"{g}=true" for g in gates)
    flags = [f"--kube-apiserver-arg=feature-gates={on}"] if gates else []
    if group_versions:
        flags.append("--kube-apiserver-arg=runtime-config=" + ",".join(f"{gv}=true" for gv in group_versions))
    if gates:
        flags += [f"--kube-scheduler-arg=feature-gates={on}", f"--kube-controller-manager-arg=feature-gates={on}"]
    return [say(lang, "# start the k3s server with these flags (or list them in /etc/rancher/k3s/config.yaml), then restart it",
                      "# k3s 서버를 이 플래그로 시작하세요(또는 /etc/rancher/k3s/config.yaml에 적고 다시 시작하세요)"), *flags]


def _tag(image: str) -> str:
    """The tag of an image reference (registry.k8s.io/lws/lws:v0.9.0@sha256:… -> v0.9.0), or ""."""
    name = image.split("@", 1)[0]
    last = name.rsplit("/", 1)[-1]
    return last.rsplit(":", 1)[1] if ":" in last else ""


IMAGE: Words = ("the controller's image", "컨트롤러 이미지")
LABEL: Words = ("the CRD's version label", "CRD의 버전 라벨")


def running_lws(api_client, crd, timeout) -> tuple[str, Words] | None:
    """(version, where it was read) of the LWS that runs: the controller's image tag (its pods,
    else its Deployment, in lws-system, where the user may read them), else the CRD's
    app.kubernetes.io/version label (Helm sets it); None when none of them says."""
    from kubernetes import client

    def lws_image(containers) -> str:
        return next((_tag(c.image or "") for c in containers or []
                     if "lws" in (c.image or "").rsplit("/", 2)[-1] and _tag(c.image or "")), "")

    authz = client.AuthorizationV1Api(api_client)
    try:
        if _may(authz, "list", "pods", "", LWS_NAMESPACE, timeout):
            for pod in client.CoreV1Api(api_client).list_namespaced_pod(LWS_NAMESPACE, _request_timeout=timeout).items:
                if tag := lws_image(pod.spec.containers):
                    return tag, IMAGE
    except Exception:  # noqa: BLE001 - absent or unreadable: the next place may tell
        pass
    try:
        if _may(authz, "list", "deployments", "apps", LWS_NAMESPACE, timeout):
            for dep in client.AppsV1Api(api_client).list_namespaced_deployment(LWS_NAMESPACE,
                                                                               _request_timeout=timeout).items:
                if tag := lws_image(dep.spec.template.spec.containers):
                    return tag, IMAGE
    except Exception:  # noqa: BLE001
        pass
    label = ((crd.metadata.labels or {}).get("app.kubernetes.io/version") if crd is not None else None) or ""
    if label:
        return (label if label.startswith("v") else f"v{label}"), LABEL
    return None


def _version_finding(running: tuple[str, Words] | None, lang: str) -> Finding:
    if running is None:
        return Finding("lws-version", True, say(lang, "which LWS runs is not visible to this user",
                                                      "이 사용자 권한으로는 실행 중인 LWS 버전을 알 수 없습니다"),
                       say(lang, "no controller pod or Deployment in {ns} could be read, and the CRD names no version; "
                                 "the tests cover {tested}",
                                 "{ns}의 컨트롤러 파드나 Deployment를 읽을 수 없고, CRD에도 버전이 없습니다. "
                                 "테스트가 다루는 버전: {tested}", ns=LWS_NAMESPACE, tested=TESTED_LWS), warn=True)
    version, where = running
    if version == TESTED_LWS:
        return Finding("lws-version", True, say(lang, "LWS {v} runs (from {where})",
                                                      "실행 중인 LWS: {v} ({where}에서 읽음)",
                                                      v=version, where=say(lang, *where)))
    return Finding("lws-version", True, say(lang, "LWS {v} runs (from {where}); the tests cover {tested}",
                                                  "실행 중인 LWS: {v} ({where}에서 읽음). 테스트가 다루는 버전: {tested}",
                                                  v=version,
                                                  where=say(lang, *where), tested=TESTED_LWS),
                   say(lang, "its events or status may read differently: a verdict that looks wrong may be this LWS's wording",
                             "이벤트나 status 문구가 다를 수 있습니다. 판정이 이상해 보이면 이 "
                             "LWS 버전의 문구 차이일 수 있습니다"),
                   warn=True)


def _nodes(core, gpu: str, timeout, lang: str, lab: Lab = NO_LAB) -> list[Finding]:
    """The lesson's nodes (lesson.yaml `lab`): an untainted node with its GPUs, and its KWOK nodes."""
    if lab.gpu_node_gpus is None and lab.fake_nodes is None:
        return []
    out = []
    try:
        nodes = {n.metadata.name: n for n in core.list_node(_request_timeout=timeout).items}
    except Exception as exc:  # noqa: BLE001
        return [Finding("nodes", False, say(lang, "nodes could not be listed",
                                                  "노드 목록을 읽지 못했습니다"), f"HTTP {_status(exc)}",
                        ["kubectl get nodes"])]

    def gpus(n) -> int:
        return o.int_or_none(str((n.status.allocatable or {}).get(gpu, "0"))) or 0

    def ready(n) -> bool:
        return any(c.type == "Ready" and c.status == "True" for c in n.status.conditions or [])

    if (need := lab.gpu_node_gpus) is not None:
        real = [n for n in nodes.values() if not n.spec.taints and not n.spec.unschedulable]
        best = max(real, key=gpus, default=None)
        if best is not None and gpus(best) >= need:
            out.append(Finding("gpu-node", True, say(lang, "node {node} is untainted with {n} {gpu}",
                                                           "테인트 없는 노드 {node}: {gpu} {n}개",
                                                           node=best.metadata.name, n=gpus(best), gpu=gpu)))
        else:
            name = best.metadata.name if best else say(lang, "<your node>", "<노드 이름>")
            out.append(Finding("gpu-node", False, say(lang, "no untainted schedulable node with {n} {gpu}",
                                                            "{gpu} {n}개가 있는, 테인트 없고 스케줄 가능한 노드가 없습니다",
                                                            n=need, gpu=gpu),
                               say(lang, "{node} has {n}", "{node}: {n}개", node=name, n=gpus(best) if best else 0),
                               [gpu_patch(name, gpu, need)]))
    fake = lab.fake_nodes
    if fake:  # a lab with KWOK nodes
        for name in fake.names:
            n = nodes.get(name)
            if n is None:
                out.append(Finding(f"node-{name}", False, say(lang, "KWOK node {node} is missing",
                                                                    "KWOK 노드 없음: {node}", node=name), "",
                                   [kwok_node_yaml(name, fake, gpu)]))
                continue
            problems, fixes = [], []
            if not ready(n):
                problems.append(say(lang, "not Ready", "Ready 아님"))
                fixes.append(say(lang, "kubectl get pods -n kube-system -l app=kwok-controller   # is kwok running?",
                                       "kubectl get pods -n kube-system -l app=kwok-controller   # kwok이 실행 중인가요?"))
            for key, value in fake.labels.items():
                if (n.metadata.labels or {}).get(key) != value:
                    problems.append(say(lang, "no label {label}", "라벨 없음: {label}", label=f"{key}={value}"))
                    fixes.append(f"kubectl label node {name} {key}={value} --overwrite")
            if not fake.taint.on(n):
                problems.append(say(lang, "no taint {taint}", "테인트 없음: {taint}", taint=str(fake.taint)))
                fixes.append(f"kubectl taint node {name} {fake.taint}")
            if gpus(n) < fake.gpus:
                problems.append(say(lang, "{n} {gpu} allocatable, needs {need}", "할당 가능한 {gpu} {n}개, 필요한 수 {need}개",
                                          n=gpus(n), gpu=gpu, need=fake.gpus))
                fixes.append(gpu_patch(name, gpu, fake.gpus))
            title = (say(lang, "KWOK node {node} is ready", "KWOK 노드 준비됨: {node}", node=name) if not problems
                     else say(lang, "KWOK node {node}", "KWOK 노드: {node}", node=name))
            out.append(Finding(f"node-{name}", not problems, title, "; ".join(problems), fixes))
    return out


def _what_stands(path: str) -> tuple[str, str]:
    """What a path that is not a directory is, (English, Korean), by its stat (links followed)."""
    import stat

    try:
        mode = os.stat(path).st_mode
    except OSError:
        return "a symlink that leads nowhere", "대상이 없는 심볼릭 링크"
    if stat.S_ISREG(mode):
        return "a file", "파일"
    if stat.S_ISFIFO(mode):
        return "a FIFO", "FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket", "소켓"
    return "a device", "장치 파일"


def _workdir(workdir: str, lang: str) -> Finding:
    if os.path.lexists(workdir) and not os.path.isdir(workdir):
        # What stands there is not the tutor's to move (it may be /dev/null or a system file):
        # the fix is another directory.
        return Finding("workdir", False, say(lang, "workdir {dir} is {what}, not a directory",
                                                   "작업 디렉터리 {dir}: 디렉터리가 아니라 {what}입니다",
                                                   dir=workdir, what=_what_stands(workdir)),
                       "", [say(lang, "lwstutor --workdir DIR   # a directory of yours, not {dir}",
                                      "lwstutor --workdir DIR   # {dir} 말고 내 디렉터리를 주세요", dir=workdir)])
    if not os.path.isdir(workdir):
        return Finding("workdir", False, say(lang, "workdir {dir} does not exist",
                                                   "작업 디렉터리 없음: {dir}", dir=workdir), "", [f"mkdir -p {workdir}"])
    if not os.access(workdir, os.W_OK | os.X_OK):
        return Finding("workdir", False, say(lang, "workdir {dir} is not writable by you",
                                                   "작업 디렉터리에 쓸 권한이 없습니다: {dir}",
                                                   dir=workdir), "",
                       [f"sudo chown $(id -u):$(id -g) {workdir}"])
    return Finding("workdir", True, say(lang, "workdir {dir} is writable", "작업 디렉터리에 쓸 수 있음: {dir}", dir=workdir))
