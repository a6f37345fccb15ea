"""A checker's constants say again what its lesson.yaml and its step's text say (the LWS it is
about, its pods, its answer file): held to them here, so a renamed object or file in the lesson
cannot leave a checker judging the old one. The lab's facts (its nodes, their taint, the pods'
failure file, the namespace) a checker does not repeat at all: it reads them from the lesson
(ctx.lesson.lab, ctx.ns)."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from tutor.lesson.loader import available, load

ROOT = Path(__file__).resolve().parent.parent
STEPS = [(lesson_id, step) for lesson_id in available() for step in load(lesson_id).steps]
# An object's or a file's name, as a lesson names them: llm, llm-0-1, wide.yaml, v2.
NAME = re.compile(r"^[a-z0-9][a-z0-9-]*(\.[a-z]+)?$")
PATH = re.compile(r"(?<![A-Za-z0-9_.])/(?:tmp|root|home|var)/[A-Za-z0-9_./-]+")


def module_constants(path: Path) -> dict[str, object]:
    """The module's UPPERCASE constants that are literals (A = "x", A, B = "x", "y")."""
    out = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if not isinstance(node, (ast.Assign, ast.AnnAssign)) or node.value is None:
            continue
        target = node.targets[0] if isinstance(node, ast.Assign) else node.target
        try:
            value = ast.literal_eval(node.value)
        except ValueError:
            continue
        if isinstance(target, ast.Name):
            out[target.id] = value
        elif isinstance(target, ast.Tuple) and isinstance(value, tuple):
            out.update({t.id: v for t, v in zip(target.elts, value) if isinstance(t, ast.Name)})
    return {k: v for k, v in out.items() if k.isupper()}


def names_in(value: object):
    if isinstance(value, str):
        if NAME.match(value):
            yield value
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            yield from names_in(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from names_in(k)
            yield from names_in(v)


def step_text(step) -> str:
    return "\n".join("\n".join((t.title, t.body, *t.hints, t.solution, t.recap)) for t in step.texts.values())


def _file(step) -> Path:
    return Path(importlib.import_module(step.checker).__file__)


@pytest.mark.parametrize("lesson_id, step", STEPS, ids=lambda x: getattr(x, "id", x))
def test_each_name_a_checker_holds_is_one_its_step_names(lesson_id, step):
    text, consts = step_text(step), module_constants(_file(step))
    lws_names = {v for k, v in consts.items() if k == "LWS" and isinstance(v, str)}
    if step.story:
        assert lws_names <= {step.story.lws}, (lws_names, step.story.lws)
    # a pod of an LWS the step names is named by that LWS: <lws>-<group>[-<worker>]
    pod_of = re.compile(rf"^(?:{'|'.join(map(re.escape, lws_names)) or '$^'})-\d+(?:-\d+)?$")
    unnamed = [f"{k}: {n}" for k, v in consts.items() for n in names_in(v)
               if not re.search(rf"(?<![\w.-]){re.escape(n)}(?![\w-])", text) and not pod_of.match(n)]
    assert not unnamed, f"{lesson_id}/{step.id}: not in the step's text: {unnamed}"


@pytest.mark.parametrize("lesson_id, step", STEPS, ids=lambda x: getattr(x, "id", x))
def test_a_checker_reads_only_its_steps_files(lesson_id, step):
    module = importlib.import_module(step.checker)
    assert set(module.READS.files) <= set(step.files), (module.READS.files, step.files)
    file = module_constants(_file(step)).get("FILE")
    assert file is None or file in step.files, (file, step.files)


@pytest.mark.parametrize("lesson_id", available())
def test_a_checker_names_no_lab_fact_but_its_lessons_failure_file(lesson_id):
    lesson = load(lesson_id)
    lab, found = lesson.lab, []
    nodes = set(lab.fake_nodes.names) if lab.fake_nodes else set()
    taint = {lab.fake_nodes.taint.key} if lab.fake_nodes else set()
    for path in sorted((ROOT / "lessons" / lesson_id).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            text = node.value
            found += [f"{where} node {n}" for n in nodes | taint if n in text]
            if text == lesson.namespace:
                found.append(f"{where} namespace")
            # a path in a checker's words is the lab's failure file (lab.pod_command), nothing else
            found += [f"{where} path {p}" for p in PATH.findall(text) if p.rstrip(".") != lab.fail_file]
    assert not found, found


def test_the_lws_lessons_words_on_its_pods_name_its_failure_file():
    from tutor.lessons.lws.checks import NOTES

    assert load("lws").lab.fail_file in NOTES.crash_loop[0] and load("lws").lab.fail_file in NOTES.crash_loop[1]
