"""The tutor is read-only toward the cluster: no write verb appears anywhere in tutor/."""

from __future__ import annotations

import ast
import re
from pathlib import Path

TUTOR = Path(__file__).resolve().parent.parent / "tutor"
# The kubernetes client's methods that change the cluster (create_namespaced_pod,
# patch_node, delete_collection_..., connect_post_..._exec) and raw HTTP write verbs.
WRITE_CALL = re.compile(r"^(create|patch|replace|delete)_\w+$|^connect_(get|post|put|patch|delete|head|options)_\w+$")
HTTP_WRITE = {"POST", "PUT", "PATCH", "DELETE"}
# A SelfSubjectAccessReview (kubectl auth can-i) is answered and never stored: it changes nothing.
NOT_A_WRITE = {"create_self_subject_access_review"}


def calls(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            yield node, name


def test_no_write_calls_or_verbs_in_tutor():
    offenders = []
    for path in sorted(TUTOR.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node, name in calls(tree):
            if WRITE_CALL.match(name) and name not in NOT_A_WRITE:
                offenders.append(f"{path.relative_to(TUTOR)}:{node.lineno} {name}()")
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.upper() in HTTP_WRITE:
                offenders.append(f"{path.relative_to(TUTOR)}:{node.lineno} {node.value!r}")
    assert not offenders, "write calls in tutor/: " + ", ".join(offenders)


def test_the_scan_would_catch_a_write():
    tree = ast.parse("api.patch_namespaced_pod_status('a', 'b', {})\nclient.request('DELETE', url)\n"
                     "core.connect_get_namespaced_pod_exec('p', 'ns')\nos.replace(a, b)\n")
    assert [n for _, n in calls(tree) if WRITE_CALL.match(n)] == ["patch_namespaced_pod_status",
                                                                 "connect_get_namespaced_pod_exec"]
    assert any(isinstance(n, ast.Constant) and n.value == "DELETE" for n in ast.walk(tree))


def test_live_source_only_lists_and_watches():
    text = (TUTOR / "cluster" / "live.py").read_text()
    used = set(re.findall(r"\.(\w+_namespaced_\w+|list_node|list_namespaced_custom_object)\b", text))
    assert used and all(u.startswith("list_") for u in used), used
