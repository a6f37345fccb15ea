"""Tolerant readers for raw Kubernetes objects (the JSON dicts the API returns).

Everything in the store is a raw dict exactly as the API sent it, so a recording keeps every
field. Objects from a learner's cluster can be odd (missing status, wrong types), so each reader
returns a safe default instead of raising.
"""

# No `from __future__ import annotations` here: it binds the name `annotations`, which this
# module defines as a reader.
import re
from datetime import datetime
from typing import Any, overload

from tutor.cluster.memo import ByIdentity

# A Kubernetes object (or any JSON object in one) as the API sent it, parsed: the type the
# cluster package reads every stored object as.
Obj = dict[str, Any]

LABEL_PREFIX = "leaderworkerset.sigs.k8s.io/"
NAME_LABEL = LABEL_PREFIX + "name"
GROUP_INDEX_LABEL = LABEL_PREFIX + "group-index"
WORKER_INDEX_LABEL = LABEL_PREFIX + "worker-index"
REVISION_LABEL = LABEL_PREFIX + "template-revision-hash"
EXCLUSIVE_ANNOTATION = LABEL_PREFIX + "exclusive-topology"


def dig(obj: Any, *path: str | int, default: Any = None) -> Any:
    """Walks dicts and lists; any missing key or wrong type gives `default`."""
    cur = obj
    for key in path:
        if isinstance(key, int):
            if not isinstance(cur, list) or not -len(cur) <= key < len(cur):
                return default
        elif not isinstance(cur, dict) or key not in cur:
            return default
        cur = cur[key]
    return default if cur is None else cur


def as_dict(value: Any) -> Obj:
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def kind(obj: Obj) -> str:
    value = obj.get("kind") if isinstance(obj, dict) else None
    return "" if value is None else str(value)


def _meta(obj: Obj, key: str) -> str:
    """str(dig(obj, "metadata", key, default="")), spelled out: the store reads a name, a
    namespace or a uid several times on every change it applies."""
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    value = meta.get(key) if isinstance(meta, dict) else None
    return "" if value is None else str(value)


def name(obj: Obj) -> str:
    return _meta(obj, "name")


def namespace(obj: Obj) -> str:
    return _meta(obj, "namespace")


def uid(obj: Obj) -> str:
    return _meta(obj, "uid")


def labels(obj: Obj) -> dict[str, str]:
    return {str(k): str(v) for k, v in as_dict(dig(obj, "metadata", "labels")).items()}


@overload
def label(obj: Obj, key: str, default: str = "") -> str: ...
@overload
def label(obj: Obj, key: str, default: None) -> str | None: ...


def label(obj: Obj, key: str, default: str | None = "") -> str | None:
    """One label's value, as labels(obj).get(key, default) without copying every label."""
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    labels_ = meta.get("labels") if isinstance(meta, dict) else None
    if not isinstance(labels_, dict) or key not in labels_:
        return default
    value = labels_[key]
    return value if isinstance(value, str) else str(value)


def annotations(obj: Obj) -> dict[str, str]:
    return {str(k): str(v) for k, v in as_dict(dig(obj, "metadata", "annotations")).items()}


def resource_version(obj: Obj) -> str:
    return str(dig(obj, "metadata", "resourceVersion", default=""))


def written_order(obj: Obj) -> int:
    """Where the API server wrote this version of the object among those of its resource: its
    resourceVersion as an integer, 0 when it has none or a malformed one (so it sorts first).
    Kubernetes compares them so since 1.35: a shorter well-formed integer is less."""
    # source: k8s.io/apimachinery@v0.37.2 pkg/util/resourceversion/resourceversion.go «// shorter is less return -1»
    rv = resource_version(obj)
    return int(rv) if rv.isdigit() and rv.isascii() and not rv.startswith("0") else 0


def event_order(ev: Obj) -> tuple[int, str]:
    """Events in the order the cluster produced them. Their timestamps cannot say it: a core
    Event's lastTimestamp is whole seconds and an events.k8s.io one's eventTime is microseconds,
    so "…:40Z" (written at 40.6) sorts after "…:40.145550Z" as a string, and as a time it is
    before it. Their resourceVersions are the order they were written; the time only orders
    events without one (made by hand)."""
    return written_order(ev), event_time(ev)


Controller = tuple[str, str, str] | tuple[()]  # an owner reference's (kind, name, uid), or () for none


def controller_of(obj: Obj) -> Controller:
    """(kind, name, uid) of the object's controlling owner reference, or () when it has none."""
    for ref in as_list(dig(obj, "metadata", "ownerReferences")):
        if isinstance(ref, dict) and ref.get("controller") is True:
            return (str(ref.get("kind", "")), str(ref.get("name", "")), str(ref.get("uid", "")))
    return ()


def drop_managed_fields(obj: Obj) -> None:
    """Drops metadata.managedFields, in place: the server-side-apply bookkeeping nothing in the
    tutor reads, yet a third of a watched pod's or StatefulSet's size. Sources drop it from the
    objects they have just parsed (so the queue to the UI holds less), the store from anything
    else it is given."""
    md = obj.get("metadata") if isinstance(obj, dict) else None
    if isinstance(md, dict):
        md.pop("managedFields", None)


# What is derived from one object, kept while that very object is held (memo.ByIdentity): the
# store replaces an object's dict on every change, so identity means "unchanged", and forgets
# the old one here. Panes and the scheduler model read thousands of pods per re-check and redo
# only those that changed. The bound counts objects (each with its few results).
memo = ByIdentity(20_000)


def int_or_none(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    # isascii: "²".isdigit() is True but int("²") raises
    if isinstance(value, str) and value.strip().lstrip("-").isdigit() and value.isascii():
        return int(value)
    return None


# --- pods -----------------------------------------------------------------------------------

def phase(pod: Obj) -> str:
    return str(dig(pod, "status", "phase", default="Unknown"))


def is_terminating(obj: Obj) -> bool:
    return bool(dig(obj, "metadata", "deletionTimestamp"))


def lws_name(pod: Obj) -> str:
    return label(pod, NAME_LABEL)


def group_index(pod: Obj) -> int | None:
    return int_or_none(label(pod, GROUP_INDEX_LABEL, None))


def worker_index(pod: Obj) -> int | None:
    return int_or_none(label(pod, WORKER_INDEX_LABEL, None))


def revision(obj: Obj) -> str:
    return label(obj, REVISION_LABEL)


def node_name(pod: Obj) -> str:
    return str(dig(pod, "spec", "nodeName", default=""))


def scheduling_group(pod: Obj) -> str:
    """The PodGroup a pod names for gang scheduling (spec.schedulingGroup.podGroupName), or ""."""
    return str(dig(pod, "spec", "schedulingGroup", "podGroupName", default=""))


def pod_ip(pod: Obj) -> str:
    return str(dig(pod, "status", "podIP", default=""))


def containers(pod_spec: Obj) -> list[Obj]:
    return [c for c in as_list(dig(pod_spec, "containers")) if isinstance(c, dict)]


def container_statuses(pod: Obj) -> list[Obj]:
    return [c for c in as_list(dig(pod, "status", "containerStatuses")) if isinstance(c, dict)]


def restart_count(pod: Obj) -> int:
    return sum(int_or_none(c.get("restartCount")) or 0 for c in container_statuses(pod))


def condition(obj: Obj, ctype: str) -> Obj:
    for cond in as_list(dig(obj, "status", "conditions")):
        if isinstance(cond, dict) and cond.get("type") == ctype:
            return cond
    return {}


def node_ready(node: Obj) -> bool:
    return condition(node, "Ready").get("status") == "True"


def taints(node: Obj) -> list[Obj]:
    return [t for t in as_list(dig(node, "spec", "taints")) if isinstance(t, dict)]


def taint_text(t: Obj) -> str:
    """A taint as kubectl writes it: key=value:effect, or key:effect."""
    key, value, effect = t.get("key", ""), t.get("value", ""), t.get("effect", "")
    return f"{key}={value}:{effect}" if value else f"{key}:{effect}"


def env_of(container: Obj) -> dict[str, str]:
    """Literal env values of one container (valueFrom entries have no literal value)."""
    out: dict[str, str] = {}
    for item in as_list(container.get("env")):
        if isinstance(item, dict) and isinstance(item.get("name"), str) and "value" in item:
            out[item["name"]] = "" if item["value"] is None else str(item["value"])
    return out


_FIELD_RE = re.compile(r"^metadata\.(labels|annotations)\['([^']*)'\]$")
_FIELDS = {"metadata.name": ("metadata", "name"), "metadata.namespace": ("metadata", "namespace"),
           "metadata.uid": ("metadata", "uid"), "spec.nodeName": ("spec", "nodeName"),
           "spec.serviceAccountName": ("spec", "serviceAccountName"), "status.podIP": ("status", "podIP"),
           "status.hostIP": ("status", "hostIP")}


def env_values(container: Obj, pod: Obj) -> dict[str, str | None]:
    """Every env variable of one container as the container sees it: literal values, and those a
    `valueFrom.fieldRef` takes from the pod (its name, labels, annotations, IPs, …), as the
    kubelet resolves them; None for one the tutor cannot know (a ConfigMap, a Secret, a
    resource, or a field it does not hold yet)."""
    out: dict[str, str | None] = {}
    for item in as_list(container.get("env")):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            continue
        if "value" in item:
            out[item["name"]] = "" if item["value"] is None else str(item["value"])
            continue
        path = str(dig(item, "valueFrom", "fieldRef", "fieldPath", default=""))
        value = None
        if m := _FIELD_RE.match(path):
            value = as_dict(dig(pod, "metadata", m.group(1))).get(m.group(2))
        elif path in _FIELDS:
            value = dig(pod, *_FIELDS[path])
        out[item["name"]] = str(value) if isinstance(value, (str, int)) and not isinstance(value, bool) else None
    return out


# --- events (core/v1 and events.k8s.io/v1 shapes) --------------------------------------------

def event_regarding(ev: Obj) -> Obj:
    return as_dict(ev.get("involvedObject") or ev.get("regarding"))


def event_message(ev: Obj) -> str:
    return str(ev.get("message") or ev.get("note") or "")


def event_reason(ev: Obj) -> str:
    return str(ev.get("reason") or "")


def event_type(ev: Obj) -> str:
    return str(ev.get("type") or "Normal")


def event_time(ev: Obj) -> str:
    """Best timestamp for ordering, as the ISO string the API gave."""
    return str(
        ev.get("lastTimestamp")
        or ev.get("eventTime")
        or dig(ev, "series", "lastObservedTime", default="")
        or ev.get("firstTimestamp")
        or dig(ev, "metadata", "creationTimestamp", default="")
    )


def event_count(ev: Obj) -> int:
    return int_or_none(ev.get("count")) or int_or_none(dig(ev, "series", "count")) or 1


def parse_time(value: Any) -> tuple[float, bool] | None:
    """(epoch seconds, has sub-second precision) of an RFC 3339 time that names its zone, as the
    API writes them; None for anything else. The one timestamp parser: the store, the timeline
    and the checkers read every time through it."""
    if not isinstance(value, str) or not value:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return (parsed.timestamp(), "." in value) if parsed.tzinfo is not None else None
