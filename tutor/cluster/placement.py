"""Where can a pod go? The kube-scheduler's filter rules, as a pure function of nodes and pods.

Modelled on kube-scheduler v1.37's default profile: filters run per node in the profile's order
and a node is rejected by the FIRST one that fails (framework.RunFilterPlugins returns at the
first failure), so the FitError message counts each node under that plugin's reasons only.
NodeResourcesFit may give one node several reasons ("Insufficient cpu", "Insufficient memory");
each is counted. PreFilter may narrow the nodes (spec.nodeName, node affinity on metadata.name):
the others are counted as "node(s) didn't satisfy plugin(s) [...]".

Modelled: NodeName, NodeUnschedulable, TaintToleration, NodeAffinity (nodeSelector and required
terms), NodeResourcesFit, InterPodAffinity (required terms, incoming and existing pods). Not
modelled: NodePorts, the volume plugins, PodTopologySpread, DRA. A pod that uses those gets them
listed in `Placement.unmodelled`, and a node that passes the rest only "fits as far as the tutor
can tell". Only the objects given are counted: a caller that sees one namespace's pods says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from tutor.cluster import objects as o
from tutor.cluster.memo import LRU
from tutor.cluster.objects import Obj
from tutor.cluster.resources import allocatable, counts_on_node, pod_requests

HOSTNAME = "kubernetes.io/hostname"
UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable"
FILTER_ORDER = ("NodeName", "NodeUnschedulable", "TaintToleration", "NodeAffinity", "NodeResourcesFit",
                "InterPodAffinity")
# The scheduler's own words (pkg/scheduler/framework/plugins/*, k8s v1.37).
R_NODE_NAME = "node(s) didn't match the requested node name"
R_UNSCHEDULABLE = "node(s) were unschedulable"
R_TAINT = "node(s) had untolerated taint(s)"
R_AFFINITY = "node(s) didn't match Pod's node affinity/selector"
R_TOO_MANY_PODS = "Too many pods"
R_POD_AFFINITY = "node(s) didn't match pod affinity rules"
R_POD_ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules"
R_EXISTING_ANTI_AFFINITY = "node(s) didn't satisfy existing pods anti-affinity rules"
R_TERMS_CONFLICT = "pod affinity terms conflict"
NO_NODE_AVAILABLE = "0/{n} nodes are available"


def labels_of(obj: Obj) -> dict[str, str]:
    """An object's labels, read once per object (a placement reads every pod's several times)."""
    return o.memo(obj, "labels", o.labels)


# --- selectors -----------------------------------------------------------------------------------

def tolerates(tolerations: list[Any], taint: Obj) -> bool:
    """v1.Toleration.ToleratesTaint. Gt/Lt need the TaintTolerationComparisonOperators gate,
    alpha and off by default in v1.37, so they never match here."""
    for tol in tolerations:
        if not isinstance(tol, dict):
            continue
        effect, key, op = tol.get("effect") or "", tol.get("key") or "", tol.get("operator") or "Equal"
        if effect and effect != taint.get("effect"):
            continue
        if key and key != taint.get("key"):
            continue
        if op == "Exists" or (op == "Equal" and (tol.get("value") or "") == (taint.get("value") or "")):
            return True
    return False


def _int(text: object) -> int | None:
    return int(text) if isinstance(text, str) and re.fullmatch(r"[+-]?\d+", text.strip()) else None


def requirement_matches(req: Obj, value: str | None) -> bool:
    """One NodeSelectorRequirement (or LabelSelectorRequirement) against a label's value."""
    op, values = req.get("operator"), [str(v) for v in o.as_list(req.get("values"))]
    if op == "In":
        return value is not None and value in values
    if op == "NotIn":
        return value is None or value not in values
    if op == "Exists":
        return value is not None
    if op == "DoesNotExist":
        return value is None
    if op in ("Gt", "Lt"):
        have, want = _int(value), _int(values[0]) if len(values) == 1 else None
        if have is None or want is None:
            return False
        return have > want if op == "Gt" else have < want
    return False


def _clip(value: str) -> str:
    """LWS's group keys are 40-hex hashes: the first 8 characters name one in a narrow pane."""
    return value[:8] + "…" if len(value) > 20 and re.fullmatch(r"[0-9a-f]+", value) else value


def requirement_text(req: Obj) -> str:
    op, values = req.get("operator"), [_clip(str(v)) for v in o.as_list(req.get("values"))]
    key = req.get("key", "")
    if op in ("Exists", "DoesNotExist"):
        return f"{key} {op}"
    return f"{key} {op} [{', '.join(values)}]"


def term_failure(term: Obj, node: Obj) -> str | None:
    """Why one NodeSelectorTerm does not match the node (its first failing requirement), or
    None when it matches. A term with no requirements matches nothing."""
    node_labels = labels_of(node)
    exprs = [r for r in o.as_list(term.get("matchExpressions")) if isinstance(r, dict)]
    fields = [r for r in o.as_list(term.get("matchFields")) if isinstance(r, dict)]
    if not exprs and not fields:
        return "empty term"
    for r in exprs:
        if not requirement_matches(r, node_labels.get(str(r.get("key", "")))):
            return requirement_text(r)
    for r in fields:
        if r.get("key") != "metadata.name" or r.get("operator") not in ("In", "NotIn"):
            return requirement_text(r)
        if not requirement_matches(r, o.name(node)):
            return "metadata.name " + requirement_text(r).split(" ", 1)[1]
    return None


def selector_text(sel: object) -> str:
    if not isinstance(sel, dict):
        return "-"
    parts = [f"{k}={v}" for k, v in o.as_dict(sel.get("matchLabels")).items()]
    parts += [requirement_text(r) for r in o.as_list(sel.get("matchExpressions")) if isinstance(r, dict)]
    return ", ".join(parts) or "{}"


def _compiled(sel: object) -> Callable[[dict[str, str]], bool]:
    """A test of whether labels match a metav1.LabelSelector (a missing, null, selector matches
    nothing, {} everything), its requirements read once: a placement tries every term against
    every pod."""
    if not isinstance(sel, dict):
        return lambda labels: False
    hit = _COMPILED.get(id(sel))
    if hit is not None and hit[0] is sel:
        test: Callable[[dict[str, str]], bool] = hit[1]  # (the LRU keeps Any)
        return test
    exact = [(str(k), str(v)) for k, v in o.as_dict(sel.get("matchLabels")).items()]
    reqs = [r for r in o.as_list(sel.get("matchExpressions"))]
    if any(not isinstance(r, dict) or r.get("operator") not in ("In", "NotIn", "Exists", "DoesNotExist") for r in reqs):
        def test(labels: dict[str, str]) -> bool:
            return False
    else:
        checks = [(str(r.get("key", "")), r.get("operator"), frozenset(str(v) for v in o.as_list(r.get("values"))))
                  for r in reqs]

        def test(labels: dict[str, str]) -> bool:
            for k, v in exact:
                if labels.get(k) != v:
                    return False
            for k, op, values in checks:
                have = labels.get(k)
                if op == "In" and (have is None or have not in values) or op == "NotIn" and have in values \
                        or op == "Exists" and have is None or op == "DoesNotExist" and have is not None:
                    return False
            return True
    _COMPILED[id(sel)] = (sel, test)
    return test


_COMPILED = LRU(10_000)  # id(selector) -> (the selector, its test): kept while that very dict is held


@dataclass(frozen=True)
class PodTerm:
    """A required pod (anti-)affinity term, with the namespaces it covers resolved."""
    selector: Obj | None
    topology_key: str
    namespaces: frozenset[str] | None  # None: every namespace (namespaceSelector {})
    unknown_namespaces: bool  # a non-empty namespaceSelector: needs Namespace objects we do not have

    def matches(self, pod: Obj) -> bool:
        # Kept per (pod object, term): a placement tries every term on every pod, and a re-check
        # meets the same terms (the owner's are kept per object) and mostly the same pods. The
        # owner's entry in the same cache keeps the term alive, so its id is not reused.
        return o.memo(pod, ("matches", id(self)), self._matches)

    def _matches(self, pod: Obj) -> bool:
        if self.namespaces is not None and _where(pod)[1] not in self.namespaces:
            return False
        return _compiled(self.selector)(labels_of(pod))

    def text(self) -> str:
        return f"{selector_text(self.selector)} @ {self.topology_key}"


def pod_terms(pod: Obj, kind: str) -> tuple[PodTerm, ...]:
    """kind: podAffinity or podAntiAffinity; read once per pod object."""
    return o.memo(pod, kind, lambda p: tuple(_pod_terms(p, kind)))


def _pod_terms(pod: Obj, kind: str) -> list[PodTerm]:
    out = []
    raw = o.as_list(o.dig(pod, "spec", "affinity", kind, "requiredDuringSchedulingIgnoredDuringExecution"))
    for t in (t for t in raw if isinstance(t, dict)):
        names = [str(n) for n in o.as_list(t.get("namespaces"))]
        ns_sel = t.get("namespaceSelector")
        everything = isinstance(ns_sel, dict) and not ns_sel.get("matchLabels") and not ns_sel.get("matchExpressions")
        if everything:
            namespaces = None
        else:
            namespaces = frozenset(names or ([] if isinstance(ns_sel, dict) else [o.namespace(pod)]))
        out.append(PodTerm(t.get("labelSelector") if isinstance(t.get("labelSelector"), dict) else None,
                           str(t.get("topologyKey", "")), namespaces,
                           isinstance(ns_sel, dict) and not everything))
    return out


# --- the verdict per node ------------------------------------------------------------------------

@dataclass(frozen=True)
class Shortage:
    resource: str
    requested: int  # by the pod being placed
    used: int  # by the pods already on the node
    allocatable: int
    holders: tuple[tuple[str, int], ...]  # (namespace/name, amount) of the pods on the node holding it


@dataclass(frozen=True)
class Rejection:
    plugin: str
    reasons: tuple[str, ...]  # the scheduler's words, counted in its message
    taint: Obj | None = None
    missing: tuple[str, ...] = ()  # NodeAffinity: what the node lacks, one per selector/term
    shortages: tuple[Shortage, ...] = ()
    blocker: str = ""  # InterPodAffinity: the pod in the way (namespace/name), or ""
    term: str = ""  # InterPodAffinity: the rule


@dataclass(frozen=True)
class NodeFit:
    node: str
    rejection: Rejection | None  # None: the node fits (as far as the modelled filters go)

    @property
    def fits(self) -> bool:
        return self.rejection is None


@dataclass(frozen=True)
class Placement:
    namespace: str
    pod: str
    node_name: str  # where the pod is, or ""
    nodes: tuple[NodeFit, ...]
    prefilter_failure: str = ""  # the whole message part when PreFilter rejected every node
    unmodelled: tuple[str, ...] = ()  # what the pod uses that the tutor cannot check
    requests: tuple[tuple[str, int], ...] = ()
    # node → the pod (namespace/name) the pod's own anti-affinity keeps it away from there,
    # whatever filter rejects the node first: step 7 shows how exclusive topology sends the
    # other group elsewhere
    kept_off: tuple[tuple[str, str], ...] = ()

    @property
    def fitting(self) -> list[str]:
        return [n.node for n in self.nodes if n.fits]

    def histogram(self) -> dict[str, int]:
        """Reason → nodes, as the scheduler's FitError counts them."""
        out: dict[str, int] = {}
        if self.prefilter_failure:
            return out
        for n in self.nodes:
            for r in n.rejection.reasons if n.rejection else ():
                out[r] = out.get(r, 0) + 1
        return out

    def message(self) -> str:
        """The first sentence the scheduler would write now, when no node fits."""
        head = NO_NODE_AVAILABLE.format(n=len(self.nodes)) + ":"
        if self.prefilter_failure:
            return f"{head} {self.prefilter_failure}."
        return f"{head} " + ", ".join(sorted(f"{v} {k}" for k, v in self.histogram().items())) + "."


@dataclass
class _Cluster:
    nodes: dict[str, Obj]
    on_node: dict[str, list[Obj]] = field(default_factory=dict)


# (uid, namespace, name, node, counts on its node, namespace/name) of a pod
_Where = tuple[str, str, str, str, bool, str]


def _where(p: Obj) -> _Where:
    """(uid, namespace, name, node, counts on its node, namespace/name) of a pod, read once per pod object."""
    return o.memo(p, "where", lambda p: (o.uid(p), o.namespace(p), o.name(p), o.node_name(p), counts_on_node(p),
                                            f"{o.namespace(p)}/{o.name(p)}"))


def _cluster(nodes: list[Obj], pods: list[Obj], skip_uid: str, skip_key: tuple[str, str]) -> _Cluster:
    by_name = {o.name(n): n for n in nodes if o.name(n)}
    cl = _Cluster(by_name, {n: [] for n in by_name})
    for p in pods:
        uid, ns, name, node, counts, _ = _where(p)
        if (skip_uid and uid == skip_uid) or (ns, name) == skip_key:
            continue  # the pod being placed is not yet on any node
        if counts and node in cl.on_node:
            cl.on_node[node].append(p)
    return cl


def _prefilter(pod: Obj, want: str) -> tuple[set[str] | None, list[str], str]:
    """(nodes left, plugins that narrowed them, failure message when none is left); `want` is
    the spec.nodeName the pod asked for itself ("" for one the scheduler bound)."""
    allowed: set[str] | None = None
    plugins: list[str] = []
    if want:
        allowed, plugins = {want}, ["NodeName"]
    terms = [t for t in o.as_list(o.dig(pod, "spec", "affinity", "nodeAffinity",
                                           "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms"))
             if isinstance(t, dict)]
    names: set[str] | None = None
    for t in terms:
        term_names: set[str] | None = None
        for r in (r for r in o.as_list(t.get("matchFields")) if isinstance(r, dict)):
            if r.get("key") == "metadata.name" and r.get("operator") == "In":
                s = {str(v) for v in o.as_list(r.get("values"))}
                term_names = s if term_names is None else term_names & s
        if term_names is None:
            names = None
            break
        names = term_names if names is None else names | term_names
    else:
        if terms and names is not None and not names:
            return set(), ["NodeAffinity"], R_TERMS_CONFLICT
    if terms and names:
        allowed = set(names) if allowed is None else allowed & names
        plugins.append("NodeAffinity")
    if allowed is not None and not allowed:
        if len(plugins) == 1:
            return allowed, plugins, f"node(s) didn't satisfy plugin {plugins[0]}"
        return allowed, plugins, f"node(s) didn't satisfy plugin(s) [{' '.join(sorted(plugins))}] simultaneously"
    return allowed, plugins, ""


def _node_affinity(pod: Obj, node: Obj) -> Rejection | None:
    spec = o.as_dict(pod.get("spec"))
    labels = labels_of(node)
    missing = []
    for k, v in o.as_dict(spec.get("nodeSelector")).items():
        if labels.get(str(k)) != str(v):
            have = labels.get(str(k))
            missing.append(f"{k}={v} (node: {k}={have})" if have is not None else f"{k}={v}")
    required = o.dig(spec, "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution")
    if isinstance(required, dict):
        terms = [t for t in o.as_list(required.get("nodeSelectorTerms")) if isinstance(t, dict)]
        fails = [term_failure(t, node) for t in terms]
        if not terms or all(f is not None for f in fails):
            missing.append(" or ".join(f for f in fails if f) or "no nodeSelectorTerms")
    return Rejection("NodeAffinity", (R_AFFINITY,), missing=tuple(missing)) if missing else None


def ref(p: Obj) -> str:
    """namespace/name of a pod, as explanations name the pods in the way."""
    return _where(p)[5]


def _resources(pod: Obj, node: Obj, here: list[Obj], requests: dict[str, int]) -> Rejection | None:
    alloc = allocatable(node)
    reasons, shortages = [], []
    allowed_pods = alloc.get("pods", 0)
    if len(here) + 1 > allowed_pods:
        reasons.append(R_TOO_MANY_PODS)
        shortages.append(Shortage("pods", 1, len(here), allowed_pods, tuple((ref(p), 1) for p in here)))
    held = [(p, pod_requests(p)) for p in here]
    # cpu, memory, ephemeral-storage first, then the rest ("scalar" resources) as the scheduler does
    order: list[str] = [r for r in ("cpu", "memory", "ephemeral-storage") if r in requests]
    order += sorted(r for r in requests if r not in ("cpu", "memory", "ephemeral-storage", "pods"))
    for res in order:
        want = requests[res]
        used = sum(h.get(res, 0) for _, h in held)
        if want > alloc.get(res, 0) - used:
            reasons.append(f"Insufficient {res}")
            holders = tuple((ref(p), h[res]) for p, h in held if h.get(res))
            shortages.append(Shortage(res, want, used, alloc.get(res, 0), holders))
    # The scheduler visits the scalar resources in map order; the counts do not depend on it.
    return Rejection("NodeResourcesFit", tuple(reasons), shortages=tuple(shortages)) if reasons else None


@dataclass(frozen=True)
class _PodRules:
    """The incoming pod's required pod (anti-)affinity against the placed pods, matched once per
    placement into topology domains (the value of the term's topology label on the node of each
    matching pod), so a node is judged by a lookup: thousands of pods are walked once, not once
    per node."""
    affinity: tuple[PodTerm, ...]
    affinity_domains: tuple[frozenset[str], ...]  # per term: domains holding a pod that matches every term
    any_affine: bool  # some placed pod matches every affinity term
    self_affine: bool  # the pod matches its own affinity terms (the first pod of a group may start)
    anti: tuple[tuple[PodTerm, dict[str, Obj]], ...]  # each anti-affinity term: domain → first pod it matches
    existing: dict[tuple[str, str], tuple[Obj, PodTerm]]  # (key, domain) → a placed pod whose anti-affinity matches


def _domain(cl: _Cluster, p: Obj, key: str) -> str | None:
    node = cl.nodes.get(_where(p)[3])
    return labels_of(node).get(key) if node is not None else None


def _pod_rules(pod: Obj, cl: _Cluster) -> _PodRules:
    placed = [p for ps in cl.on_node.values() for p in ps]
    affinity = pod_terms(pod, "podAffinity")
    affine = [p for p in placed if all(t.matches(p) for t in affinity)] if affinity else []
    anti = []
    for t in pod_terms(pod, "podAntiAffinity"):
        domains: dict[str, Obj] = {}
        for p in placed:
            if t.matches(p):
                v = _domain(cl, p, t.topology_key)
                if v is not None:
                    domains.setdefault(v, p)
        anti.append((t, domains))
    existing: dict[tuple[str, str], tuple[Obj, PodTerm]] = {}
    for p in placed:
        for t in pod_terms(p, "podAntiAffinity"):
            v = _domain(cl, p, t.topology_key)
            if v is not None and t.matches(pod):
                existing.setdefault((t.topology_key, v), (p, t))
    return _PodRules(
        affinity,
        tuple(frozenset(v for v in (_domain(cl, p, t.topology_key) for p in affine) if v is not None)
              for t in affinity),
        bool(affine), bool(affinity) and all(t.matches(pod) for t in affinity), tuple(anti), existing)


def _inter_pod(node: Obj, rules: _PodRules) -> Rejection | None:
    labels = labels_of(node)
    if rules.affinity:
        if any(t.topology_key not in labels for t in rules.affinity):
            return Rejection("InterPodAffinity", (R_POD_AFFINITY,),
                             term="; ".join(t.text() for t in rules.affinity if t.topology_key not in labels))
        ok = all(labels[t.topology_key] in domains for t, domains in zip(rules.affinity, rules.affinity_domains))
        if not ok and not (not rules.any_affine and rules.self_affine):
            return Rejection("InterPodAffinity", (R_POD_AFFINITY,), term="; ".join(t.text() for t in rules.affinity))
    for t, domains in rules.anti:
        hit = domains.get(labels[t.topology_key]) if t.topology_key in labels else None
        if hit is not None:
            return Rejection("InterPodAffinity", (R_POD_ANTI_AFFINITY,), blocker=ref(hit), term=t.text())
    for (key, value), (p, t) in rules.existing.items():
        if labels.get(key) == value:
            return Rejection("InterPodAffinity", (R_EXISTING_ANTI_AFFINITY,), blocker=ref(p), term=t.text())
    return None


_PREFILTER_SAID = re.compile(r"^node\(s\) didn't satisfy plugin(\(s\))? ")


def modelled_reason(reason: str) -> bool:
    """Whether the model can give this reason of a scheduler message (a counted clause or a
    PreFilter sentence): one of the modelled filters' own words. A reason it cannot give comes
    from a filter it does not model (the volume plugins, NodePorts, …)."""
    return reason in _MODELLED or reason.startswith("Insufficient ") or bool(_PREFILTER_SAID.match(reason))


_MODELLED = frozenset({R_NODE_NAME, R_UNSCHEDULABLE, R_TAINT, R_AFFINITY, R_TOO_MANY_PODS, R_POD_AFFINITY,
                       R_POD_ANTI_AFFINITY, R_EXISTING_ANTI_AFFINITY, R_TERMS_CONFLICT})


def claim_names(pod: Obj) -> tuple[str, ...]:
    """The PersistentVolumeClaims a pod mounts: its persistentVolumeClaim volumes, and the claim
    each generic ephemeral volume gets (named <pod>-<volume>)."""
    out = []
    for v in o.as_list(o.dig(pod, "spec", "volumes")):
        if not isinstance(v, dict):
            continue
        if isinstance(v.get("persistentVolumeClaim"), dict):
            out.append(str(v["persistentVolumeClaim"].get("claimName", "")))
        elif isinstance(v.get("ephemeral"), dict):
            out.append(f"{o.name(pod)}-{v.get('name', '')}")
    return tuple(c for c in out if c)


def unmodelled(pod: Obj) -> tuple[str, ...]:
    spec = o.as_dict(pod.get("spec"))
    out = []
    every = o.containers(spec) + [c for c in o.as_list(spec.get("initContainers")) if isinstance(c, dict)]
    if any(isinstance(p, dict) and p.get("hostPort") for c in every for p in o.as_list(c.get("ports"))):
        out.append("NodePorts")
    if any(isinstance(v, dict) and any(k in v for k in ("persistentVolumeClaim", "ephemeral", "csi", "awsElasticBlockStore",
                                                           "gcePersistentDisk", "azureDisk", "rbd", "iscsi"))
           for v in o.as_list(spec.get("volumes"))):
        out.append("volumes")
    if o.as_list(spec.get("topologySpreadConstraints")):
        out.append("PodTopologySpread")
    if o.as_list(spec.get("resourceClaims")):
        out.append("DynamicResources")
    if any(t.unknown_namespaces for kind in ("podAffinity", "podAntiAffinity") for t in pod_terms(pod, kind)):
        out.append("namespaceSelector")
    if spec.get("schedulerName") not in (None, "", "default-scheduler"):
        out.append(f"schedulerName {spec.get('schedulerName')}")
    return tuple(out)


def place(pod: Obj, nodes: list[Obj], pods: list[Obj], want: str = "") -> Placement:
    """Where `pod` could go now, node by node. `pods` are every pod the caller can see. A pod
    already bound is judged as the scheduler judged it: as if it were being placed again, left
    out of its node's accounting and without the spec.nodeName the binding wrote. `want` is a
    node the pod asks for by name (NodeName); the scheduler never places a pod created with
    spec.nodeName, so a caller passes it only to ask "what if"."""
    cl = _cluster(nodes, pods, o.uid(pod), (o.namespace(pod), o.name(pod)))
    bound_to = o.node_name(pod)
    rules = _pod_rules(pod, cl)
    requests = pod_requests(pod)
    names = sorted(cl.nodes)
    allowed, plugins, failure = _prefilter(pod, want)
    spec = o.as_dict(pod.get("spec"))
    tolerations = o.as_list(spec.get("tolerations"))
    fits = []
    for name in names:
        node = cl.nodes[name]
        if failure:
            fits.append(NodeFit(name, Rejection("PreFilter", (failure,))))
            continue
        if allowed is not None and name not in allowed:
            said = f"node(s) didn't satisfy plugin(s) [{' '.join(sorted(plugins))}]"
            fits.append(NodeFit(name, Rejection("PreFilter", (said,))))
            continue
        fits.append(NodeFit(name, _first_rejection(pod, want, node, tolerations, cl, rules, requests)))
    kept_off = []
    for name in names:
        node_labels = labels_of(cl.nodes[name])
        hit = next((domains[node_labels[t.topology_key]] for t, domains in rules.anti
                    if node_labels.get(t.topology_key) in domains), None)
        if hit is not None:
            kept_off.append((name, ref(hit)))
    return Placement(o.namespace(pod), o.name(pod), bound_to, tuple(fits), failure, unmodelled(pod),
                     tuple(sorted(requests.items())), tuple(kept_off))


def _first_rejection(pod: Obj, want: str, node: Obj, tolerations: list[Any], cl: _Cluster, rules: _PodRules,
                     requests: dict[str, int]) -> Rejection | None:
    if want and want != o.name(node):
        return Rejection("NodeName", (R_NODE_NAME,))
    if o.dig(node, "spec", "unschedulable") is True and not tolerates(
            tolerations, {"key": UNSCHEDULABLE_TAINT, "effect": "NoSchedule"}):
        return Rejection("NodeUnschedulable", (R_UNSCHEDULABLE,))
    for taint in o.taints(node):
        if taint.get("effect") in ("NoSchedule", "NoExecute") and not tolerates(tolerations, taint):
            return Rejection("TaintToleration", (R_TAINT,), taint=taint)
    rejected = _node_affinity(pod, node)
    if rejected is None:
        rejected = _resources(pod, node, cl.on_node[o.name(node)], requests)
    if rejected is None:
        rejected = _inter_pod(node, rules)
    return rejected


# --- when to judge again ---------------------------------------------------------------------------

def _node_print(n: Obj) -> tuple[object, ...]:
    return (o.name(n), tuple(sorted(labels_of(n).items())), str(o.dig(n, "spec", "taints")),
            o.dig(n, "spec", "unschedulable") is True, str(o.dig(n, "status", "allocatable")))


def _pod_print(p: Obj) -> tuple[object, ...]:
    spec = o.as_dict(p.get("spec"))
    return (o.namespace(p), o.name(p), o.uid(p), o.node_name(p), counts_on_node(p),
            tuple(sorted(labels_of(p).items())), tuple(sorted(pod_requests(p).items())),
            str(spec.get("affinity")), str(spec.get("tolerations")), str(spec.get("nodeSelector")))


def fingerprint(nodes: list[Obj], pods: list[Obj]) -> tuple[object, ...]:
    """Everything a placement reads, as values: equal fingerprints give equal placements. A pod's
    status moving (phase Running, a restart) changes nothing here, so an explanation is redone
    only when a node or a pod's placement, labels, requests or rules changed. Each object's
    part is computed once per object."""
    return (tuple(sorted(o.memo(n, "print", _node_print) for n in nodes)),
            tuple(o.memo(p, "print", _pod_print) for p in pods))
