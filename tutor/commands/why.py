"""`lwstutor why POD`: why a pod is Pending (or why its node fits it), node by node.

Reads nodes, pods, the pod's events and, for a pod that names a PodGroup, the namespace's
PodGroups; never writes. Pods are listed in every namespace when
the user may (a node's accounting needs every pod on it); otherwise in the pod's namespace only,
and the output says so.
"""

from __future__ import annotations

import json

from tutor.commands.results import EXIT_OK, UsageError, cluster_error, print_json
from tutor.checks.explain import Why, cause_text, explain
from tutor.cluster import kinds, objects as o
from tutor.commands.setup import connect_for, replay_items, session_for

PAGE = 500


def run_why(args) -> int:
    session = session_for(args)
    ns = session.lesson.namespace
    if args.replay:
        for item in replay_items(args, use_files=False):
            session.apply(item)
        store = session.store
        nodes, pods, events = store.all(kinds.NODE.kind), list(store.pods_named(ns).values()), store.events_about(args.pod, ns)
        pod_groups = store.all(kinds.POD_GROUP.kind, ns) if store.sees(kinds.POD_GROUP.kind) else None
        seen_ns: str | None = ns
    else:
        nodes, pods, events, seen_ns, pod_groups = _read_live(args, ns)
    pod = next((p for p in pods if o.name(p) == args.pod and o.namespace(p) == ns), None)
    if pod is None:
        raise UsageError(f"pod {args.pod} not found in namespace {ns}",
                         f"{ns} 네임스페이스에 {args.pod} 파드가 없습니다", kind="not-found")
    why = explain(pod, nodes, pods, events, session.lang, seen_namespace=seen_ns, pod_groups=pod_groups)
    if args.json:
        print_json(to_json(why, pod, pods, session.lang, seen_ns))
    else:
        print("\n".join(why.text_lines()))
    return EXIT_OK


def to_json(why: Why, pod: dict, pods: list[dict], lang: str, seen_ns: str | None) -> dict:
    from tutor.cluster.placement import ref
    from tutor.cluster.scheduler_message import parse_message

    p = why.placement
    pods_by_ref = {ref(x): x for x in pods}
    said = parse_message(why.message) if why.message else None
    return {
        "pod": p.pod, "namespace": p.namespace, "phase": o.phase(pod), "node": p.node_name or None,
        "scheduler": {"message": why.message or None,
                      "counts": said.histogram() if said is not None else None},
        "tutor": {"counts": p.histogram(), "fitting": p.fitting, "prefilter": p.prefilter_failure or None,
                  "requests": dict(p.requests), "cannot_tell": list(p.unmodelled),
                  "pods_seen": "all namespaces" if seen_ns is None else f"namespace {seen_ns}"},
        "nodes": [{"node": f.node, "fits": f.fits,
                   "plugin": f.rejection.plugin if f.rejection else None,
                   "reasons": list(f.rejection.reasons) if f.rejection else [],
                   "cause": cause_text(f.rejection, pod, lang, pods_by_ref) if f.rejection else None}
                  for f in p.nodes],
        "held": {"kind": why.hold.kind, "subject": why.hold.subject, "pods": list(why.hold.pods)} if why.hold else None,
        "explanation": why.text_lines(),
    }


def _read_live(args, ns: str):
    from kubernetes import client
    from kubernetes.client.exceptions import ApiException

    from tutor.cluster.failure import describe

    conn = connect_for(args)
    core = client.CoreV1Api(conn.api_client)
    try:
        nodes = _list(core.list_node)
        try:
            pods, seen_ns = _list(core.list_pod_for_all_namespaces), None
        except ApiException as exc:
            if exc.status != 403:
                raise
            pods, seen_ns = _list(core.list_namespaced_pod, ns), ns
        events = _list(core.list_namespaced_event, ns, field_selector=f"involvedObject.name={args.pod}")
        pod = next((p for p in pods if o.name(p) == args.pod and o.namespace(p) == ns), None)
        pod_groups = _pod_groups(conn, ns) if pod is not None and o.scheduling_group(pod) else None
    except Exception as exc:  # noqa: BLE001 - refused, TLS, DNS, timeout, 401, 403: one line each
        raise cluster_error(describe(exc, conn.server)) from None
    return nodes, pods, events, seen_ns, pod_groups


def _pod_groups(conn, ns: str) -> list[dict] | None:
    """The namespace's PodGroups, for a pod that names one; None when the cluster does not serve
    them (404) or the user may not list them (403): the explanation then says it cannot tell."""
    from kubernetes import client
    from kubernetes.client.exceptions import ApiException

    row = kinds.POD_GROUP
    custom = client.CustomObjectsApi(conn.api_client)
    try:
        return _list(custom.list_namespaced_custom_object, row.group, row.version, ns, row.plural)
    except ApiException as exc:
        if exc.status in (403, 404):
            return None
        raise


def _list(fn, *args, **kw) -> list[dict]:
    """Every item of a list call, paged, as raw dicts."""
    items, cont = [], None
    while True:
        resp = fn(*args, limit=PAGE, _continue=cont, _preload_content=False, _request_timeout=(5, 30), **kw)
        body = json.loads(resp.data)
        items += [i for i in body.get("items") or [] if isinstance(i, dict)]
        cont = (body.get("metadata") or {}).get("continue")
        if not cont:
            return items
