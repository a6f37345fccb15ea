"""The tutor is read-only toward the cluster: no write verb appears anywhere in tutor/.

Static half of the proof; the e2e half (tests/e2e/test_rbac.py) runs the tutor as a user bound
only to read verbs and reads the API server's audit log of everything that user asked for."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import yaml

TUTOR = Path(__file__).resolve().parent.parent / "tutor"
ROOT = TUTOR.parent


def sources() -> list[Path]:
    """Every module the tutor runs: the engine and the lessons' checkers."""
    return sorted([*TUTOR.rglob("*.py"), *(ROOT / "lessons").rglob("*.py")])
# The kubernetes client's methods that change the cluster (create_namespaced_pod,
# patch_node, delete_collection_..., connect_post_..._exec) and raw HTTP write verbs.
WRITE_CALL = re.compile(r"^(create|patch|replace|delete)_\w+$|^connect_(get|post|put|patch|delete|head|options)_\w+$")
HTTP_WRITE = {"POST", "PUT", "PATCH", "DELETE"}
# A SelfSubjectAccessReview (kubectl auth can-i) is answered and never stored: it changes nothing.
# Textual's OptionList.replace_option_prompt_at_index relabels a step in the step list, on screen.
NOT_A_WRITE = {"create_self_subject_access_review", "replace_option_prompt_at_index"}


def calls(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            yield node, name


def _compared_constants(tree: ast.AST) -> set[int]:
    """String constants a comparison reads data against (an Event's action == "Delete"): no
    request can be sent with them. Any other use of an HTTP write verb is an offender."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                items = side.elts if isinstance(side, (ast.Tuple, ast.List, ast.Set)) else [side]
                out.update(id(item) for item in items if isinstance(item, ast.Constant))
    return out


def test_no_write_calls_or_verbs_in_tutor():
    offenders = []
    for path in sources():
        tree = ast.parse(path.read_text(), str(path))
        for node, name in calls(tree):
            if WRITE_CALL.match(name) and name not in NOT_A_WRITE:
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}()")
        compared = _compared_constants(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.upper() in HTTP_WRITE \
                    and id(node) not in compared:
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.value!r}")
    assert not offenders, "write calls in tutor/: " + ", ".join(offenders)


def test_the_scan_would_catch_a_write():
    tree = ast.parse("api.patch_namespaced_pod_status('a', 'b', {})\nclient.request('DELETE', url)\n"
                     "core.connect_get_namespaced_pod_exec('p', 'ns')\nos.replace(a, b)\n")
    assert [n for _, n in calls(tree) if WRITE_CALL.match(n)] == ["patch_namespaced_pod_status",
                                                                 "connect_get_namespaced_pod_exec"]
    assert any(isinstance(n, ast.Constant) and n.value == "DELETE" for n in ast.walk(tree))
    # a verb read against data is not a request; the same verb sent is
    both = ast.parse("if ev['action'] in ('Delete', 'Deleted'): pass\nrequest('DELETE', url)\n")
    sent = [n for n in ast.walk(both) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and n.value.upper() in HTTP_WRITE and id(n) not in _compared_constants(both)]
    assert [n.value for n in sent] == ["DELETE"]


def test_live_source_only_lists_and_watches():
    text = (TUTOR / "cluster" / "live.py").read_text()
    used = set(re.findall(r"\.(\w+_namespaced_\w+|list_node|list_namespaced_custom_object)\b", text))
    assert used and all(u.startswith("list_") for u in used), used


# Ways around the generated API methods: raw HTTP, the dynamic client, exec/attach, YAML apply
# helpers, and shelling out to kubectl.
BANNED_MODULES = ("subprocess", "requests", "httpx", "aiohttp", "http.client", "urllib.request", "urllib3",
                  "pty", "kubernetes.dynamic", "kubernetes.stream", "kubernetes.utils")
BANNED_CALLS = re.compile(r"^(system|popen|exec\w*|spawn\w*|call_api|request|POST|PUT|PATCH|DELETE)$")
READ_METHOD = re.compile(r"^(list|read)_\w+$|^get_code$|^get_api_\w+$")


def api_methods() -> set[str]:
    """Every method of every generated API class in the kubernetes client (CoreV1Api, ...)."""
    from kubernetes import client

    names: set[str] = set()
    for attr in dir(client):
        cls = getattr(client, attr)
        if isinstance(cls, type) and cls.__module__.startswith("kubernetes.client.api."):
            names |= {m for m in vars(cls) if not m.startswith("_") and "_" in m}
    return names


def imported(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module
            yield from (f"{node.module}.{a.name}" for a in node.names)


def test_every_kubernetes_api_call_is_a_read():
    """Whatever a method is called, if the kubernetes client has it, it must be a list/read."""
    methods = api_methods()
    assert {"list_namespaced_pod", "patch_node", "delete_namespaced_pod", "create_namespaced_event",
            "connect_post_namespaced_pod_exec"} <= methods  # the introspection sees the client
    used, offenders = set(), []
    for path in sources():
        tree = ast.parse(path.read_text(), str(path))
        names = [(n.lineno, name) for n, name in calls(tree)]
        # Names in strings too: getattr(api, "delete_namespaced_pod") is a call in disguise.
        names += [(n.lineno, n.value) for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
        for line, name in names:
            base = name.removesuffix("_with_http_info")
            if base in methods:
                used.add(base)
                if not READ_METHOD.match(base) and base not in NOT_A_WRITE:
                    offenders.append(f"{path.relative_to(ROOT)}:{line} {name}")
    assert not offenders, offenders
    assert {"list_namespaced_pod", "list_node", "read_custom_resource_definition"} <= used, used


# lwstutor serve (tutor/serve) is a web server: it answers the browser (aiohttp) and starts a tutor
# per tab as its own process, which reads the cluster as any tutor does. It may use HTTP for that,
# and in turn must not touch the cluster itself: no kubernetes client, no watch of the engine's.
SERVER = ROOT / "tutor" / "serve"
SERVER_MAY = ("aiohttp",)
SERVER_MUST_NOT = ("kubernetes", "tutor.cluster", "tutor.checks", "tutor.session")
# A class (tutor/classroom) is HTTP between the tutors and the class server, and SQLite on the
# server's side: the same rule as serve's, and sqlite3's execute is no shell's exec.
CLASSROOM = ROOT / "tutor" / "classroom"
CLASSROOM_CALLS = {"execute", "executemany", "executescript"}


def test_no_way_around_the_api_methods():
    offenders = []
    for path in sources():
        tree = ast.parse(path.read_text(), str(path))
        classroom = CLASSROOM in path.parents
        serves = SERVER in path.parents or classroom
        for mod in imported(tree):
            if serves and any(mod == b or mod.startswith(b + ".") for b in SERVER_MUST_NOT):
                offenders.append(f"{path.relative_to(ROOT)} imports {mod}, and it serves over HTTP")
            if serves and any(mod == b or mod.startswith(b + ".") for b in SERVER_MAY):
                continue
            if any(mod == b or mod.startswith(b + ".") for b in BANNED_MODULES):
                offenders.append(f"{path.relative_to(ROOT)} imports {mod}")
        for node, name in calls(tree):
            if BANNED_CALLS.match(name) and not (classroom and name in CLASSROOM_CALLS):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}()")
    assert not offenders, offenders


def test_the_bypass_scan_would_catch_one():
    tree = ast.parse("import subprocess\nfrom kubernetes import dynamic\nfrom kubernetes.stream import stream\n"
                     "api_client.rest_client.POST(url)\napi_client.call_api('/api', 'GET')\nos.system('kubectl')\n")
    mods = list(imported(tree))
    assert "subprocess" in mods and "kubernetes.dynamic" in mods and "kubernetes.stream" in mods
    assert [n for _, n in calls(tree) if BANNED_CALLS.match(n)] == ["POST", "call_api", "system"]


def test_the_shipped_role_grants_only_reads():
    docs = list(yaml.safe_load_all((TUTOR.parent / "deploy" / "rbac.yaml").read_text()))
    roles = [d for d in docs if d["kind"] in ("ClusterRole", "Role")]
    assert roles and all(d["kind"] in ("ClusterRole", "Role", "ClusterRoleBinding", "RoleBinding") for d in docs)
    verbs = {v for r in roles for rule in r["rules"] for v in rule["verbs"]}
    assert verbs <= {"get", "list", "watch"}, verbs
