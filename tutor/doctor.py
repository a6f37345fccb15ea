"""Lab preflight: is this cluster ready for the LWS lab? Each finding says what is wrong and the
exact command that fixes it. The tutor stays read-only: it prints fixes and never applies them.

Only reads are made, plus SelfSubjectAccessReviews (what `kubectl auth can-i` does): the API
server answers them without storing anything.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from tutor.cluster import objects as o

CRD_NAME = f"{o.LWS_PLURAL}.{o.LWS_GROUP}"
KWOK_NODES = ("gpu-a", "gpu-b")
KWOK_TAINT = ("kwok.x-k8s.io/node", "fake", "NoSchedule")
GPUS_NEEDED = 4
LWS_INSTALL = ("kubectl apply --server-side -f "
               "https://github.com/kubernetes-sigs/lws/releases/download/v0.9.0/manifests.yaml")
# What the tutor reads: (verb list, resource, group, namespaced)
READS = [("pods", "", True), ("events", "", True), ("statefulsets", "apps", True),
         (o.LWS_PLURAL, o.LWS_GROUP, True), ("nodes", "", False)]


@dataclass
class Finding:
    id: str
    ok: bool
    title: str
    detail: str = ""
    fix: list[str] = field(default_factory=list)
    failure: object = None  # tutor.cluster.failure.Failure when the cluster could not be asked

    def to_json(self) -> dict:
        return {"id": self.id, "ok": self.ok, "title": self.title, "detail": self.detail, "fix": self.fix}


def _status(exc: Exception) -> int | None:
    return getattr(exc, "status", None)


def kwok_node_yaml(name: str) -> str:
    return (f"kubectl apply -f - <<'EOF'\napiVersion: v1\nkind: Node\nmetadata:\n  name: {name}\n"
            f"  labels: {{type: kwok, kubernetes.io/hostname: {name}}}\n"
            f"  annotations: {{kwok.x-k8s.io/node: fake}}\nspec:\n"
            f"  taints: [{{key: {KWOK_TAINT[0]}, value: {KWOK_TAINT[1]}, effect: {KWOK_TAINT[2]}}}]\n"
            f"status:\n  allocatable: {{nvidia.com/gpu: \"4\", cpu: \"32\", memory: 256Gi, pods: \"110\"}}\n"
            f"  capacity: {{nvidia.com/gpu: \"4\", cpu: \"32\", memory: 256Gi, pods: \"110\"}}\nEOF")


def gpu_patch(name: str, gpu: str) -> str:
    return (f"kubectl patch node {name} --subresource=status --type=merge -p "
            f"'{{\"status\":{{\"capacity\":{{\"{gpu}\":\"4\"}},\"allocatable\":{{\"{gpu}\":\"4\"}}}}}}'")


def run(api_client, namespace: str, workdir: str, gpu: str = "nvidia.com/gpu", lang: str = "en") -> list[Finding]:
    from kubernetes import client

    from tutor.cluster.failure import describe

    core = client.CoreV1Api(api_client)
    out: list[Finding] = []
    timeout = (5, 15)

    # 1. reachable: if not, the cluster's checks cannot run, and the local ones still do -------
    try:
        version = client.VersionApi(api_client).get_code(_request_timeout=timeout).git_version
        out.append(Finding("cluster", True, f"cluster reachable (Kubernetes {version})"))
    except Exception as exc:  # noqa: BLE001 - refused, TLS, DNS, timeout, 401, 403: one line each
        failure = describe(exc, str(api_client.configuration.host))
        out.append(Finding("cluster", False, failure.text(lang), "",
                           ["kubectl cluster-info", "check --kubeconfig/--context or $KUBECONFIG"], failure))
        return out + local_checks(workdir)

    # 2. access (SelfSubjectAccessReview, like kubectl auth can-i) ------------------------------
    access = _access(client.AuthorizationV1Api(api_client), namespace, timeout)
    out.append(access)
    if "list pods" in access.detail:  # the tutor could show nothing: the cluster forbids it
        from tutor.cluster.failure import make

        access.failure = make("forbidden", str(api_client.configuration.host), 403,
                              why="this user may not list pods in namespace " + namespace)

    # 3. LWS CRD, version, controller and webhook --------------------------------------------
    out.extend(_lws(api_client, namespace, timeout))

    # 4. namespace --------------------------------------------------------------------------
    try:
        core.read_namespace(namespace, _request_timeout=timeout)
        out.append(Finding("namespace", True, f"namespace {namespace} exists"))
    except Exception as exc:  # noqa: BLE001
        if _status(exc) == 404:
            out.append(Finding("namespace", False, f"namespace {namespace} is missing", "",
                               [f"kubectl create namespace {namespace}"]))
        else:
            out.append(Finding("namespace", False, f"namespace {namespace} could not be read",
                               f"HTTP {_status(exc)}", [f"kubectl get namespace {namespace}"]))

    # 5. nodes ------------------------------------------------------------------------------
    out.extend(_nodes(core, gpu, timeout))

    # 6. local: the workdir ------------------------------------------------------------------
    return out + local_checks(workdir)


def local_checks(workdir: str) -> list[Finding]:
    """What doctor checks on this machine, with or without a cluster."""
    return [_workdir(workdir)]


def _access(authz, namespace: str, timeout) -> Finding:
    from kubernetes import client

    denied = []
    for resource, group, namespaced in READS:
        for verb in ("get", "list", "watch"):
            attrs = client.V1ResourceAttributes(verb=verb, resource=resource, group=group,
                                                namespace=namespace if namespaced else None)
            review = client.V1SelfSubjectAccessReview(spec=client.V1SelfSubjectAccessReviewSpec(
                resource_attributes=attrs))
            try:
                res = authz.create_self_subject_access_review(review, _request_timeout=timeout)
                allowed = bool(res.status and res.status.allowed)
            except Exception:  # noqa: BLE001 - a review we cannot make is a no
                allowed = False
            if not allowed:
                denied.append(f"{verb} {resource}{'.' + group if group else ''}")
    if not denied:
        return Finding("access", True, "you may get, list and watch everything the tutor reads")
    return Finding("access", False, "the tutor cannot read everything it needs", "denied: " + ", ".join(denied),
                   ["kubectl apply -f deploy/rbac.yaml   # a read-only ClusterRole for the tutor",
                    "kubectl auth can-i --list -n " + namespace])


def _lws(api_client, namespace: str, timeout) -> list[Finding]:
    from kubernetes import client

    out = []
    try:
        crd = client.ApiextensionsV1Api(api_client).read_custom_resource_definition(CRD_NAME, _request_timeout=timeout)
        served = [v.name for v in crd.spec.versions if v.served]
        ok = o.LWS_VERSION in served
        out.append(Finding("lws-crd", ok, f"LeaderWorkerSet CRD installed (served: {', '.join(served)})",
                           "" if ok else f"version {o.LWS_VERSION} is not served", [] if ok else [LWS_INSTALL]))
    except Exception as exc:  # noqa: BLE001
        if _status(exc) == 404:
            return [Finding("lws-crd", False, "LeaderWorkerSet is not installed (no CRD " + CRD_NAME + ")", "",
                            [LWS_INSTALL, f"kubectl get crd {CRD_NAME}"])]
        out.append(Finding("lws-crd", False, "could not read the LeaderWorkerSet CRD", f"HTTP {_status(exc)}",
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
        out.append(Finding("lws-webhook", False, "LWS pods exist but lack the webhook's labels",
                           "the LWS pod webhook is not running, so groups never form",
                           ["kubectl get pods -n lws-system", "kubectl logs -n lws-system deploy/lws-controller-manager"]))
    elif hooks or labelled:
        why = "its pod webhook is registered" if hooks else "LWS pods carry the webhook's labels"
        out.append(Finding("lws-webhook", True, f"LWS controller and webhook look active ({why})"))
    else:
        out.append(Finding("lws-webhook", False, "no LWS pod webhook found",
                           "no MutatingWebhookConfiguration serves /mutate--v1-pod", [LWS_INSTALL,
                                                                                    "kubectl get mutatingwebhookconfigurations"]))
    return out


def _nodes(core, gpu: str, timeout) -> list[Finding]:
    out = []
    try:
        nodes = {n.metadata.name: n for n in core.list_node(_request_timeout=timeout).items}
    except Exception as exc:  # noqa: BLE001
        return [Finding("nodes", False, "nodes could not be listed", f"HTTP {_status(exc)}",
                        ["kubectl get nodes"])]

    def gpus(n) -> int:
        return o.int_or_none(str((n.status.allocatable or {}).get(gpu, "0"))) or 0

    def ready(n) -> bool:
        return any(c.type == "Ready" and c.status == "True" for c in n.status.conditions or [])

    real = [n for n in nodes.values() if not n.spec.taints and not n.spec.unschedulable]
    best = max(real, key=gpus, default=None)
    if best is not None and gpus(best) >= GPUS_NEEDED:
        out.append(Finding("gpu-node", True, f"node {best.metadata.name} is untainted with {gpus(best)} {gpu}"))
    else:
        name = best.metadata.name if best else "<your node>"
        out.append(Finding("gpu-node", False, f"no untainted schedulable node with {GPUS_NEEDED} {gpu}",
                           f"{name} has {gpus(best) if best else 0}", [gpu_patch(name, gpu)]))
    for name in KWOK_NODES:
        n = nodes.get(name)
        if n is None:
            out.append(Finding(f"node-{name}", False, f"KWOK node {name} is missing", "", [kwok_node_yaml(name)]))
            continue
        problems, fixes = [], []
        if not ready(n):
            problems.append("not Ready")
            fixes.append("kubectl get pods -n kube-system -l app=kwok-controller   # is kwok running?")
        if (n.metadata.labels or {}).get("type") != "kwok":
            problems.append("no label type=kwok")
            fixes.append(f"kubectl label node {name} type=kwok --overwrite")
        if not any((t.key, t.value, t.effect) == KWOK_TAINT for t in n.spec.taints or []):
            problems.append(f"no taint {KWOK_TAINT[0]}={KWOK_TAINT[1]}:{KWOK_TAINT[2]}")
            fixes.append(f"kubectl taint node {name} {KWOK_TAINT[0]}={KWOK_TAINT[1]}:{KWOK_TAINT[2]}")
        if gpus(n) < GPUS_NEEDED:
            problems.append(f"{gpus(n)} {gpu} allocatable, needs {GPUS_NEEDED}")
            fixes.append(gpu_patch(name, gpu))
        out.append(Finding(f"node-{name}", not problems, f"KWOK node {name}" + (" is ready" if not problems else ""),
                           "; ".join(problems), fixes))
    return out


def _workdir(workdir: str) -> Finding:
    if os.path.lexists(workdir) and not os.path.isdir(workdir):
        return Finding("workdir", False, f"workdir {workdir} is not a directory", "",
                       [f"ls -l {workdir}   # move it away, or give --workdir another directory"])
    if not os.path.isdir(workdir):
        return Finding("workdir", False, f"workdir {workdir} does not exist", "", [f"mkdir -p {workdir}"])
    if not os.access(workdir, os.W_OK | os.X_OK):
        return Finding("workdir", False, f"workdir {workdir} is not writable by you", "",
                       [f"sudo chown $(id -u):$(id -g) {workdir}"])
    return Finding("workdir", True, f"workdir {workdir} is writable")
