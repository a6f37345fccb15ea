"""Resource quantities as the API server writes them ("500m", "1Gi", "2e3"), and what a pod
requests and a node offers, in the scheduler's units (milli-CPU, bytes, counts): the arithmetic
under placement.py's NodeResourcesFit."""

from __future__ import annotations

import math
import re
from decimal import Decimal, InvalidOperation

from tutor.cluster import objects as o
from tutor.cluster.objects import Obj

_SUFFIX: dict[str, int | Decimal] = {
    "": 1, "n": Decimal("1e-9"), "u": Decimal("1e-6"), "m": Decimal("1e-3"), "k": 10**3, "M": 10**6,
    "G": 10**9, "T": 10**12, "P": 10**15, "E": 10**18, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30,
    "Ti": 2**40, "Pi": 2**50, "Ei": 2**60}
_QUANTITY = re.compile(r"^([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]?)$")


def counts_on_node(pod: Obj) -> bool:
    """Whether the pod's requests count on its node: the scheduler's cache holds assigned pods
    that are not terminal (its informer drops Succeeded and Failed pods); a terminating pod still
    holds its resources."""
    return bool(o.node_name(pod)) and o.phase(pod) not in ("Succeeded", "Failed")


def quantity(raw: object) -> Decimal | None:
    """A resource.Quantity ("500m", "1Gi", 4) as a Decimal, or None when it is not one."""
    if isinstance(raw, bool) or raw is None:
        return None
    text = str(raw).strip()
    m = _QUANTITY.match(text)
    if not m:
        return None
    try:
        return Decimal(m.group(1)) * Decimal(_SUFFIX[m.group(2)])
    except (InvalidOperation, KeyError):
        return None


def scaled(resource: str, value: Decimal) -> int:
    """The integer the scheduler compares: millicores for cpu, else Value(); both round up."""
    return math.ceil(value * 1000) if resource == "cpu" else math.ceil(value)


def shown(resource: str, value: int) -> str:
    if resource == "cpu":
        return f"{value}m" if value % 1000 else str(value // 1000)
    if resource in ("memory", "ephemeral-storage") or resource.startswith("hugepages-"):
        for unit, size in (("Gi", 2**30), ("Mi", 2**20), ("Ki", 2**10)):
            if value and value % size == 0:
                return f"{value // size}{unit}"
    return str(value)


def _add(into: dict[str, int], more: dict[str, int]) -> None:
    for k, v in more.items():
        into[k] = into.get(k, 0) + v


def _quantities(raw: object) -> dict[str, int]:
    """A resource map as the API stores it (requests, allocatable, overhead), in the scheduler's
    units; values that are not quantities are left out."""
    out: dict[str, int] = {}
    for res, value in o.as_dict(raw).items():
        q = quantity(value)
        if q is not None:
            out[str(res)] = scaled(str(res), q)
    return out


def _container_requests(c: Obj) -> dict[str, int]:
    return _quantities(o.dig(c, "resources", "requests"))


def pod_requests(pod: Obj) -> dict[str, int]:
    """pod_requests_of, read once per pod object."""
    return o.memo(pod, "requests", pod_requests_of)


def pod_requests_of(pod: Obj) -> dict[str, int]:
    """What the scheduler counts for a pod (component-helpers PodRequests): the containers' sum,
    at least each init container's (plus the restartable, "sidecar", init containers before it,
    which also run beside the containers), pod-level cpu/memory requests when set, plus
    overhead. Requests as the API stored them (limits alone were defaulted into requests)."""
    spec = o.as_dict(pod.get("spec"))
    total: dict[str, int] = {}
    for c in o.containers(spec):
        _add(total, _container_requests(c))
    sidecars: dict[str, int] = {}
    init_peak: dict[str, int] = {}
    for c in (c for c in o.as_list(spec.get("initContainers")) if isinstance(c, dict)):
        req = _container_requests(c)
        if c.get("restartPolicy") == "Always":
            _add(total, req)
            _add(sidecars, req)
            use = dict(sidecars)
        else:
            use = dict(req)
            _add(use, sidecars)
        for k, v in use.items():
            init_peak[k] = max(init_peak.get(k, 0), v)
    for k, v in init_peak.items():
        total[k] = max(total.get(k, 0), v)
    for res, v in _quantities(o.dig(spec, "resources", "requests")).items():
        if res in ("cpu", "memory"):
            total[res] = v
    _add(total, _quantities(spec.get("overhead")))
    return {k: v for k, v in total.items() if v}


def allocatable(node: Obj) -> dict[str, int]:
    return _quantities(o.dig(node, "status", "allocatable"))


def capacity(node: Obj, resource: str) -> int:
    q = quantity(o.dig(node, "status", "capacity", resource))
    return scaled(resource, q) if q is not None else 0
