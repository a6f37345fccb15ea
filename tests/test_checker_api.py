"""A lesson's checkers reach the engine through one module, the checker API (tutor/checks/api.py):
import-linter's contract in pyproject.toml protects every tutor module but that one, and these
tests hold that contract's shape, the lessons' import lines as written, and what no contract sees:
the attributes a lesson reads."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import tutor.checks.api as api

ROOT = Path(__file__).resolve().parent.parent
API = "tutor.checks.api"


def engine_modules() -> set[str]:
    out = set()
    for path in (ROOT / "tutor").rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        out.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return out


def contract(name: str) -> dict:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    return next(c for c in contracts if c["name"] == name)


def test_the_contract_is_an_allow_list_of_the_api():
    """Every tutor module is protected (imported only from within tutor) but for a lesson's import
    of the API: a new engine module is covered with no line to add, and none is left out."""
    allow = contract("a lesson imports tutor.checks.api only")
    assert allow["type"] == "protected"
    assert allow["protected_modules"] == ["tutor"] and allow["allowed_importers"] == ["tutor"]
    assert allow["ignore_imports"] == [f"lessons.** -> {API}"]
    assert "forbidden_modules" not in allow  # no hand-kept list of the engine's modules
    assert API in engine_modules()


def test_every_engine_import_of_a_lesson_is_the_api():
    found = []
    for path in sorted((ROOT / "lessons").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            found += [f"{path.relative_to(ROOT)}:{node.lineno} {n}" for n in names
                      if (n == "tutor" or n.startswith("tutor.")) and n != API]
    assert not found, found


def test_the_api_exports_what_it_names():
    missing = [n for n in api.__all__ if not hasattr(api, n)]
    assert not missing and len(set(api.__all__)) == len(api.__all__)


def test_an_object_is_read_by_its_kinds_row_namespaced_or_not(tmp_path):
    import pytest

    from tutor.cluster.source_events import ObjectEvent
    from tutor.lesson.loader import load
    from tutor.session import Session

    s = Session(load("lws"), str(tmp_path), "en")

    def add(kind: str, name: str, ns: str = "") -> None:
        meta = {"name": name, "uid": f"uid-{kind}-{name}-{ns}", "resourceVersion": "1", **({"namespace": ns} if ns else {})}
        s.apply(ObjectEvent("ADDED", {"kind": kind, "apiVersion": "v1", "metadata": meta}, s.store.now))

    add("Node", "n1")
    add("Pod", "p", s.lesson.namespace)
    add("Pod", "p", "elsewhere")
    ctx = s.context()
    assert api.named(ctx, "Node", "n1")["metadata"]["name"] == "n1"
    assert api.named(ctx, "Pod", "p")["metadata"]["namespace"] == s.lesson.namespace
    assert [x["metadata"]["namespace"] for x in api.every(ctx, "Pod")] == [s.lesson.namespace]
    assert [x["metadata"]["name"] for x in api.every(ctx, "Node")] == ["n1"]
    with pytest.raises(ValueError, match="Gadget"):
        api.named(ctx, "Gadget", "x")


def private_reads(source: str, path: str = "<source>") -> list[str]:
    """Every `x._name` (dunders aside) in a module's source, as "line ._name"."""
    return [f"{path}:{node.lineno} .{node.attr}" for node in ast.walk(ast.parse(source, path))
            if isinstance(node, ast.Attribute) and node.attr.startswith("_")
            and not (node.attr.startswith("__") and node.attr.endswith("__"))]


def test_no_lesson_reads_a_private_attribute():
    """The import contract cannot see attribute access: a checker that read ctx._store (or any
    private part of what the engine hands it) would depend on the engine's insides, which the
    checker API is there to hide."""
    paths = sorted((ROOT / "lessons").rglob("*.py"))
    assert len(paths) > 10
    found = [hit for path in paths for hit in private_reads(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))]
    assert not found, found


def test_the_private_scan_would_catch_one():
    source = "def check(ctx):\n    return ctx._store.all('Pod'), ctx.__class__, ctx.ns\n"
    assert private_reads(source) == ["<source>:2 ._store"]


def test_the_context_keeps_its_store_to_the_engine(tmp_path):
    from tutor.lesson.loader import load
    from tutor.session import Session

    ctx = Session(load("gang"), str(tmp_path), "en").context()
    assert not hasattr(ctx, "store")
