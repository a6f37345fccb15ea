"""The kinds table (tutor/cluster/kinds.py) is the one place a watched kind is described: the
live source's calls, the store, the checkers' declarations, doctor's access review, the words
for a kind that is not served and the shipped role all follow its rows. The calls are made for
real, by the kubernetes client, to a loopback server that answers as an API server would."""

from __future__ import annotations

import ast
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import yaml
from kubernetes import client
from kubernetes.client.exceptions import ApiException

from tutor.checks.reads import Reads, merged
from tutor.cluster import deps, kinds
from tutor.cluster.source_events import Conn, ObjectEvent
from tutor.cluster.live import RESOURCES, classify, list_call, list_once
from tutor.cluster.store import Store
from tutor.lesson.loader import LessonError, load
from tutor.narration.absent_kinds import absent

ROOT = Path(__file__).resolve().parent.parent
GANG = (kinds.POD_GROUP, kinds.WORKLOAD)


class ApiServer:
    """Answers GETs: a list of one object for the paths in `serves`, the body itself for those in
    `bodies`, 404 for any other; a SelfSubjectAccessReview allowed unless its resource is in
    `denied`. Notes every request."""

    def __init__(self, serves: dict[str, dict] | None = None, denied: set[str] = frozenset(),
                 bodies: dict[str, dict] | None = None):
        self.serves, self.denied, self.bodies, self.asked = serves or {}, denied, bodies or {}, []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_):
                pass

            def _send(self, code: int, body: dict) -> None:
                data = json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):  # noqa: N802 - the handler's API
                path = self.path.split("?", 1)[0]
                outer.asked.append(("GET", path))
                if path in outer.bodies:
                    self._send(200, outer.bodies[path])
                elif path in outer.serves:
                    self._send(200, {"kind": "List", "metadata": {"resourceVersion": "7"}, "items": [outer.serves[path]]})
                else:
                    self._send(404, {"kind": "Status", "code": 404, "reason": "NotFound", "message": "not found"})

            def do_POST(self):  # noqa: N802 - an access review is answered and never stored
                review = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                attrs = review["spec"]["resourceAttributes"]
                outer.asked.append(("can-i", attrs["verb"], attrs["resource"], attrs.get("group", "")))
                review["status"] = {"allowed": attrs["resource"] not in outer.denied}
                self._send(201, review)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        cfg = client.Configuration()
        cfg.host, cfg.retries = f"http://127.0.0.1:{self.httpd.server_address[1]}", 0
        self.api_client = client.ApiClient(cfg)

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server():
    servers = []

    def make(**kw) -> ApiServer:
        servers.append(ApiServer(**kw))
        return servers[-1]
    yield make
    for s in servers:
        s.close()


def _obj(name: str) -> dict:
    return {"metadata": {"name": name, "namespace": "infer", "resourceVersion": "5"}}


# --- the rows ------------------------------------------------------------------------------------
def test_each_kind_and_each_watch_name_is_one_row():
    assert len({k.kind for k in kinds.TABLE}) == len({k.name for k in kinds.TABLE}) == len(kinds.TABLE)
    assert all(kinds.of(k.kind) is k and kinds.named(k.name) is k for k in kinds.TABLE)


def test_every_row_is_served_by_a_read_of_the_client():
    for k in kinds.TABLE:
        assert set(k.verbs) <= set(kinds.READ), k
        if k.typed:
            api, method = k.typed
            assert method.startswith("list_") and callable(getattr(getattr(client, api), method)), k
        else:  # CustomObjectsApi builds /apis/<group>/...: it cannot reach the core group
            assert k.group, k


def test_the_gang_kinds_are_built_in_behind_their_gate_and_watched_only_when_asked():
    for k in GANG:
        assert (k.group, k.version, k.namespaced, k.crd, k.gate) == ("scheduling.k8s.io", "v1beta1", True, "",
                                                                     "GenericWorkload")
        assert k.optional and k not in kinds.DEFAULT and k not in RESOURCES
    assert [k.plural for k in GANG] == ["podgroups", "workloads"]


# --- the calls --------------------------------------------------------------------------------
@pytest.mark.parametrize("row, path", [
    (kinds.POD, "/api/v1/namespaces/infer/pods"),
    (kinds.LEADER_WORKER_SET, "/apis/leaderworkerset.x-k8s.io/v1/namespaces/infer/leaderworkersets"),
    (kinds.STATEFUL_SET, "/apis/apps/v1/namespaces/infer/statefulsets"),
    (kinds.NODE, "/api/v1/nodes"),
    (kinds.POD_GROUP, "/apis/scheduling.k8s.io/v1beta1/namespaces/infer/podgroups"),
    (kinds.WORKLOAD, "/apis/scheduling.k8s.io/v1beta1/namespaces/infer/workloads"),
])
def test_a_row_is_listed_at_its_path_and_its_objects_get_its_kind(server, row, path):
    api = server(serves={path: _obj("a")})
    items, rv = list_once(api.api_client, row, "infer")
    assert api.asked == [("GET", path)] and rv == "7"
    assert [(i["kind"], i["apiVersion"], i["metadata"]["name"]) for i in items] == [(row.kind, row.api_version, "a")]


def test_a_kind_without_a_typed_call_is_watched_through_the_custom_objects_api(server):
    api = server()
    custom = kinds.Kind("Thing", "example.com", "v1", "things", False, crd="things.example.com")
    assert list_call(api.api_client, custom).func.__name__ == "list_cluster_custom_object"
    with pytest.raises(ApiException):
        list_once(api.api_client, custom, "infer")
    assert api.asked == [("GET", "/apis/example.com/v1/things")]


def _missing(api, row) -> object:
    try:
        list_once(api.api_client, row, "infer")
    except ApiException as exc:
        return classify(exc, row)
    raise AssertionError("the list did not fail")


def test_a_404_says_what_is_missing_for_that_kind(server):
    api = server()
    lws = _missing(api, kinds.LEADER_WORKER_SET)
    assert (lws.resource, lws.state) == ("leaderworkersets", Conn.CRD_MISSING)
    assert lws.detail == "LeaderWorkerSet CRD not installed (kubectl get crd leaderworkersets.leaderworkerset.x-k8s.io)"
    gang = _missing(api, kinds.POD_GROUP)
    assert (gang.resource, gang.state) == ("podgroups", Conn.CRD_MISSING)
    assert gang.detail == "scheduling.k8s.io/v1beta1 not served (GenericWorkload feature gate off)"
    pods = _missing(api, kinds.POD)  # a built-in kind that is always served: a 404 is no settled answer
    assert pods.state is Conn.RECONNECTING


def test_the_words_for_a_kind_not_served_name_that_kind_in_both_languages():
    crd = "leaderworkersets.leaderworkerset.x-k8s.io"
    assert absent(kinds.LEADER_WORKER_SET, "en") == (
        f"LeaderWorkerSet is not installed in this cluster (no CRD {crd}). Check with: kubectl get crd {crd}")
    assert absent(kinds.LEADER_WORKER_SET, "ko") == (
        f"이 클러스터에 LeaderWorkerSet이 설치되어 있지 않습니다(CRD {crd} 없음). 확인: kubectl get crd {crd}")
    en, ko = absent(kinds.POD_GROUP, "en"), absent(kinds.POD_GROUP, "ko")
    assert "does not serve scheduling.k8s.io/v1beta1" in en and "GenericWorkload feature gate" in en
    assert "--runtime-config=scheduling.k8s.io/v1beta1=true" in en and "PodGroup" in en
    assert "scheduling.k8s.io/v1beta1을 제공하지 않아 PodGroup이 없습니다" in ko and "GenericWorkload 기능 게이트" in ko
    assert "Workload가 없습니다" in absent(kinds.WORKLOAD, "ko")


# --- lessons --------------------------------------------------------------------------------
def test_the_lws_lessons_watch_what_they_always_did():
    for lesson in ("lws", "scale"):
        assert [k.name for k in load(lesson).kinds] == ["pods", "leaderworkersets", "events", "statefulsets", "nodes"]
        assert load(lesson).kinds == RESOURCES


def _lesson(tmp_path, extra: str):
    (tmp_path / "lesson.yaml").write_text(f"id: t\nlanguages: [en]\n{extra}steps: []\n")
    return load("t", tmp_path)


def test_a_lesson_watches_the_kinds_it_names_in_the_tables_order(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    named = _lesson(tmp_path / "a", "kinds: [Node, Event, Pod]\n")
    assert [k.name for k in named.kinds] == ["pods", "events", "nodes"]
    assert kinds.chosen(("Node", "Event", "Pod")) == named.kinds
    assert _lesson(tmp_path / "b", "").kinds == kinds.DEFAULT


def test_only_a_lesson_that_names_the_gang_kinds_watches_them(tmp_path):
    gang = _lesson(tmp_path, "kinds: [Workload, Pod, PodGroup, Event, Node]\n")
    assert [k.name for k in gang.kinds] == ["pods", "events", "nodes", "podgroups", "workloads"]
    for lesson in ("lws", "scale"):
        assert not set(load(lesson).kinds) & set(GANG)


@pytest.mark.parametrize("extra, says", [("kinds: [Pod, Gadget]\n", "unknown kind Gadget"),
                                         ("kinds: Pod\n", "kinds is a list of kinds"),
                                         ("kinds: []\n", "kinds is a list of kinds")])
def test_a_lesson_naming_a_kind_the_tutor_does_not_know_is_one_line(tmp_path, extra, says):
    with pytest.raises(LessonError) as err:
        _lesson(tmp_path, extra)
    assert says in str(err.value) and "\n" not in str(err.value)


# --- the store and the checkers' declarations -------------------------------------------------


def test_a_declaration_names_an_object_of_any_kind_and_its_change_is_counted():
    st = Store()
    sts = {"kind": "StatefulSet", "apiVersion": "apps/v1", **_obj("llm-0")}
    reads = Reads(named=(("StatefulSet", "llm-0"),))
    assert deps.Named("StatefulSet", "llm-0") in reads.keys()
    assert st.apply(ObjectEvent("ADDED", sts, 1.0)) and st.name_version[deps.Named("StatefulSet", "llm-0")] > 0
    assert merged(reads, Reads(pods=("llm-0",))).named == (("StatefulSet", "llm-0"),)


def test_the_store_keeps_the_gang_kinds_and_counts_their_changes():
    st = Store()
    pg = {"kind": "PodGroup", "apiVersion": "scheduling.k8s.io/v1beta1", **_obj("llm-0")}
    assert st.apply(ObjectEvent("ADDED", pg, 1.0))
    assert st.get("PodGroup", "llm-0", "infer") is pg and st.kind_version["PodGroup"] == 1
    reads = Reads(kinds=("Workload",), named=(("PodGroup", "llm-0"),))
    assert st.name_version[deps.Named("PodGroup", "llm-0")] > 0 and deps.Named("PodGroup", "llm-0") in reads.keys()


def test_a_declaration_naming_a_kind_the_tutor_does_not_watch_fails_at_once():
    with pytest.raises(ValueError, match="Gadget"):
        Reads(kinds=("Gadget",))
    with pytest.raises(ValueError, match="Gadget"):
        Reads(named=(("Gadget", "x"),))


# --- doctor and the shipped role ---------------------------------------------------------------
def _asked_can_i(api, reads) -> set[tuple[str, str, str]]:
    from tutor.preflight import _access

    finding = _access(client.AuthorizationV1Api(api.api_client), "infer", (2, 2), "en", reads)
    assert finding.ok, finding
    return {a[1:] for a in api.asked if a[0] == "can-i"}


def test_doctor_asks_for_the_lessons_kinds_only(server):
    lws = _asked_can_i(server(), load("lws").kinds)
    assert ("watch", "leaderworkersets", "leaderworkerset.x-k8s.io") in lws and ("list", "nodes", "") in lws
    assert not {r for _, r, _ in lws} & {"podgroups", "workloads"}
    nodes = _asked_can_i(server(), (kinds.POD, kinds.NODE))
    assert {(v, r) for v, r, _ in nodes} == {(v, r) for v in kinds.READ for r in ("pods", "nodes")}


def test_doctor_asks_for_the_gang_kinds_of_a_lesson_that_watches_them_and_names_one_denied(server):
    from tutor.preflight import _access

    gang = _asked_can_i(server(), (kinds.POD, *GANG))
    assert {(v, r) for v, r, _ in gang} == {(v, r) for v in kinds.READ for r in ("pods", "podgroups", "workloads")}
    api = server(denied={"podgroups"})
    finding = _access(client.AuthorizationV1Api(api.api_client), "infer", (2, 2), "en", GANG)
    assert not finding.ok and finding.detail == ("denied: get podgroups.scheduling.k8s.io, list podgroups.scheduling.k8s.io, "
                                                 "watch podgroups.scheduling.k8s.io")


def _role_rules() -> list[dict]:
    docs = list(yaml.safe_load_all((ROOT / "deploy" / "rbac.yaml").read_text()))
    return [rule for d in docs if d["kind"] == "ClusterRole" for rule in d["rules"]]


def test_the_shipped_role_grants_each_kind_its_verbs():
    rules = _role_rules()
    for k in kinds.TABLE:
        granted = {v for r in rules if k.group in r["apiGroups"] and k.plural in r["resources"]
                   and not r.get("resourceNames") for v in r["verbs"]}
        assert set(k.verbs) <= granted, (k.kind, granted)
    assert {v for r in rules for v in r["verbs"]} <= set(kinds.READ)



def _groups(*group_versions: str) -> dict:
    return {"kind": "APIGroupList", "apiVersion": "v1", "groups": [
        {"name": gv.split("/")[0], "versions": [{"groupVersion": gv, "version": gv.split("/")[1]}]}
        for gv in group_versions]}


def test_doctor_says_whether_the_gang_kinds_group_is_served_only_for_a_lesson_that_watches_them(server):
    from tutor.preflight import _gated

    api = server(bodies={"/apis/": _groups("apps/v1", "scheduling.k8s.io/v1")})
    assert _gated(api.api_client, load("lws").kinds, (2, 2), "en") == [] and api.asked == []
    off = _gated(api.api_client, (kinds.POD, *GANG), (2, 2), "en")
    assert [(f.id, f.ok) for f in off] == [("served-scheduling.k8s.io/v1beta1", False)] and api.asked == [("GET", "/apis/")]
    assert off[0].title == ("the API server does not serve scheduling.k8s.io/v1beta1: the GenericWorkload feature gate "
                            "and --runtime-config=scheduling.k8s.io/v1beta1=true are needed")
    assert off[0].detail == "no PodGroup, Workload without it"
    ko = _gated(api.api_client, GANG, (2, 2), "ko")[0]
    assert ko.title.startswith("API 서버가 제공하지 않음: scheduling.k8s.io/v1beta1.")
    assert "GenericWorkload 기능 게이트" in ko.title
    on = server(bodies={"/apis/": _groups("apps/v1", "scheduling.k8s.io/v1beta1")})
    assert [(f.ok, f.title) for f in _gated(on.api_client, GANG, (2, 2), "en")] == [
        (True, "scheduling.k8s.io/v1beta1 is served (PodGroup, Workload)")]
    gone = _gated(server().api_client, GANG, (2, 2), "en")
    assert [(f.ok, f.detail) for f in gone] == [(False, "HTTP 404")]


def test_no_engine_module_names_a_watch_by_a_literal():
    """A pane asks whether its kind is served, and a command whether the pods were refused, by the
    kinds table's row (kinds.POD.name), never by a literal a renamed row would leave behind."""
    import ast

    watch_names = {k.name for k in kinds.TABLE}
    # There a Shortage's `resource` is a node's allocatable resource ("pods": how many pods fit), not a watch.
    other_meaning = {ROOT / "tutor" / "checks" / "explain.py"}
    found = []
    for path in sorted(set((ROOT / "tutor").rglob("*.py")) - other_meaning):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            literals = []
            if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
                    "unavailable", "_unavailable"):
                literals = node.args
            elif isinstance(node, ast.Compare) and isinstance(node.left, ast.Attribute) and node.left.attr == "resource":
                literals = node.comparators
            found += [f"{path.relative_to(ROOT)}:{node.lineno} {a.value!r}" for a in literals
                      if isinstance(a, ast.Constant) and a.value in watch_names]
    assert not found, found


# --- a row registers what the store does with its kind ------------------------------------------

def kind_literals(source: str, path: str = "<source>") -> list[str]:
    """The string constants (docstrings aside) that name a kind of the table, by its kind or its
    watch name, as "line 'literal'"."""
    from tests.test_engine_contract import constants

    names = {k.kind for k in kinds.TABLE} | {k.name for k in kinds.TABLE}
    return [f"{path}:{node.lineno} {node.value!r}" for node in constants(ast.parse(source, path)) if node.value in names]


def test_the_store_and_the_panes_name_no_kind():
    """What the store does with a kind is registered on the kind's row, and a pane names a kind
    by its row (kinds.POD_GROUP.kind): a literal or an `if kind == "..."` would be a second place
    to change when a kind is added or renamed."""
    sources = [ROOT / "tutor" / "cluster" / "store.py", *sorted((ROOT / "tutor" / "ui" / "panes").glob("*.py"))]
    assert len(sources) > 4
    found = [hit for path in sources for hit in kind_literals(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))]
    assert not found, found


def test_the_kind_scan_would_catch_one():
    source = '"""A pane of PodGroup."""\nif kind == "Pod":\n    store.sees("PodGroup")\nstore.all(kinds.NODE.kind)\n'
    assert kind_literals(source) == ["<source>:2 'Pod'", "<source>:3 'PodGroup'"]


def test_a_new_kind_is_one_row_with_its_index_and_its_handler(monkeypatch):
    """A kind added to the table is kept, filed in the indexes its row registers and handed to its
    handlers, with no change to the store."""
    from tutor.cluster import objects as o
    from tutor.cluster.handlers import Indexer

    by_app = Indexer("config maps by app", lambda obj: o.label(obj, "app") or None)
    changes = []
    row = kinds.Kind("ConfigMap", "", "v1", "configmaps", True, indexers=(by_app,),
                     handlers=(lambda store, ch: changes.append((ch.old, ch.obj, ch.deleted)),))
    monkeypatch.setattr(kinds, "TABLE", (*kinds.TABLE, row))
    st = Store()
    reader = type("Reader", (), {})()
    st.take_changes(reader)

    def cm(app: str, rv: str) -> dict:
        return {"kind": "ConfigMap",
                "metadata": {"name": "c", "namespace": "infer", "labels": {"app": app}, "resourceVersion": rv}}

    one, two = cm("llm", "1"), cm("solo", "2")
    assert st.apply(ObjectEvent("ADDED", one, 1.0)) and st.apply(ObjectEvent("MODIFIED", two, 2.0))
    assert st.get("ConfigMap", "c", "infer") is two and st.kind_version["ConfigMap"] == 2
    assert st.indexed(by_app, "llm") == {} and st.indexed(by_app, "solo") == {"c": two}
    assert st.take_changes(reader).objects["ConfigMap"] == {("infer", "c")}
    assert st.apply(ObjectEvent("DELETED", two, 3.0))
    assert st.indexed(by_app, "solo") == {} and st.all("ConfigMap") == []
    assert changes == [(None, one, False), (one, two, False), (two, two, True)]
    assert st.name_version.get(deps.Named("ConfigMap", "c"))  # read by name, as every kind is by default


def test_the_pods_group_indexes_follow_their_pods():
    """One LWS's group indexes (a tally of its pods' groups): a group stays while any pod is in it,
    and keeps its place when one of its pods changes."""
    def pod(name: str, group: int, rv: str) -> dict:
        return {"kind": "Pod", "metadata": {"name": name, "namespace": "infer", "resourceVersion": rv, "labels": {
            "leaderworkerset.sigs.k8s.io/name": "llm", "leaderworkerset.sigs.k8s.io/group-index": str(group)}}}

    st = Store()
    for i, (name, group) in enumerate([("llm-1", 1), ("llm-0", 0), ("llm-1-1", 1)]):
        st.apply(ObjectEvent("ADDED", pod(name, group, str(i)), float(i)))
    assert list(st.group_indexes("llm", "infer")) == [1, 0]
    st.apply(ObjectEvent("MODIFIED", pod("llm-1", 1, "9"), 4.0))
    st.apply(ObjectEvent("DELETED", pod("llm-1-1", 1, "9"), 5.0))
    assert list(st.group_indexes("llm", "infer")) == [1, 0]
    st.apply(ObjectEvent("DELETED", pod("llm-1", 1, "9"), 6.0))
    assert list(st.group_indexes("llm", "infer")) == [0]
    st.apply(ObjectEvent("DELETED", pod("llm-0", 0, "9"), 7.0))
    assert list(st.group_indexes("llm", "infer")) == [] and st.pods_of("llm", "infer") == []
