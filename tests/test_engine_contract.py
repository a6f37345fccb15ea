"""The engine (tutor/) names no lesson fact: a lesson's names, steps and checkers live in its
pack (lessons/<id>/), and the engine reaches one only through the lesson loader."""

from __future__ import annotations

import ast
from pathlib import Path

from tutor.lesson.loader import load

TUTOR = Path(__file__).resolve().parent.parent / "tutor"


def lesson_facts() -> set[str]:
    lesson = load()
    facts = {s.story.lws for s in lesson.steps if s.story}
    # the objects the LWS lesson's steps are about, and its namespace and workdir
    facts |= {"wide", "orphan", lesson.namespace, lesson.workdir}
    return facts


def constants(tree: ast.AST):
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node


def test_no_engine_module_names_a_lesson_fact():
    facts, offenders = lesson_facts(), []
    for path in sorted(TUTOR.rglob("*.py")):
        for node in constants(ast.parse(path.read_text(), str(path))):
            if node.value in facts:
                offenders.append(f"{path.relative_to(TUTOR)}:{node.lineno} {node.value!r}")
    assert not offenders, offenders


def test_only_the_loader_imports_a_lesson():
    offenders = []
    for path in sorted(TUTOR.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n == "tutor.lessons" or n.startswith("tutor.lessons.") for n in names):
                offenders.append(f"{path.relative_to(TUTOR)}:{node.lineno}")
    assert not offenders, offenders


def test_the_scan_would_catch_one():
    tree = ast.parse('"""llm"""\nLWS = "llm"\n')
    assert [n.value for n in constants(tree)] == ["llm"]


# What must never import Textual, by pyproject.toml's contract: the engine below the screens (ui,
# serve), the words' package (tutor.i18n) too once it is there; import-linter refuses to name a
# module that does not exist, so this list names it ahead and the contract follows what exists.
BELOW_THE_SCREENS = ("tutor.cluster", "tutor.checks", "tutor.narration", "tutor.lesson", "tutor.workspace", "tutor.session",
                     "tutor.progress", "tutor.preflight", "tutor.i18n", "lessons")


def exists(module: str) -> bool:
    path = TUTOR.parent / module.replace(".", "/")
    return path.is_dir() or path.with_suffix(".py").is_file()


def test_textual_is_forbidden_to_every_module_below_the_screens():
    import tomllib

    config = tomllib.loads((TUTOR.parent / "pyproject.toml").read_text())["tool"]["importlinter"]
    contract = next(c for c in config["contracts"] if c.get("forbidden_modules") == ["textual"])
    assert config["include_external_packages"] is True  # else import-linter cannot see an import of textual
    assert contract["type"] == "forbidden" and not contract.get("allow_indirect_imports", False)
    assert contract["source_modules"] == [m for m in BELOW_THE_SCREENS if exists(m)]
    assert len(contract["source_modules"]) >= 9
