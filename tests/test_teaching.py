"""Verdicts say what is wrong and where to look; the commands that solve a step belong to the
hints. Over every recording, in both languages, as the learner would read them while it plays."""

from __future__ import annotations

import re

import pytest

from tests.verdict_lines import ALL, lines

# What solves a step, typed: exec into a pod, a lookup, the failure, reading env or a UID out.
SOLVING = re.compile(r"kubectl |nslookup [a-z0-9-]+\.|touch /tmp/fail|env \| grep|jsonpath")
# Recovery instructions stay: how to do the step again after it was done wrong.
RECOVERY = ("To do the step again", "To prove it again", "다시 하려면", "다시 보이려면", "단계를 다시")


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_with_no_answer_written_no_verdict_names_a_solving_command(path, lang):
    said = [(n, line) for n, line in lines(str(path), lang, empty_workdir=True) if SOLVING.search(line)]
    assert not said, said[:5]


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_a_command_in_a_verdict_is_only_a_way_back(path):
    said = [(n, line) for lang in ("en", "ko") for n, line in lines(str(path), lang)
            if SOLVING.search(line) and not any(r in line for r in RECOVERY)]
    assert not said, said[:5]


def test_the_scan_would_catch_one():
    assert SOLVING.search("Copy them from: kubectl exec -n infer llm-1-1 -- env | grep ^LWS_")
    assert SOLVING.search("then run nslookup llm-1.llm.infer.svc.cluster.local")
    assert not SOLVING.search("the whole output of a DNS lookup of llm-1.llm.infer.svc.cluster.local")


# The hints nudge, explain and show part of the way; the whole answer is the solution's alone,
# shown apart from them (its own key, after a question). Over every lesson, in both languages.
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.M | re.S)


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def whole_answer_in(hint: str, solution: str) -> list[str]:
    """How a hint gives the solution away: one of its code blocks whole (indented as it may be),
    or every line of its code."""
    said = "\n".join(_lines(hint))
    blocks = ["\n".join(_lines(b)) for b in FENCE.findall(solution)]
    out = [f"holds the solution's block {b.splitlines()[0]!r}…" for b in blocks if b and b in said]
    code = {line for b in blocks for line in b.splitlines()}
    if code and code <= set(said.splitlines()):
        out.append("holds every line of the solution's code")
    return out


def _steps():
    from tutor.lesson.loader import available, load

    return [(name, step, lang) for name in available() for step in load(name).steps for lang in load(name).languages]


@pytest.mark.parametrize("name,step,lang", _steps(), ids=lambda v: getattr(v, "id", v))
def test_every_step_has_a_solution_no_hint_gives_away(name, step, lang):
    text = step.text(lang)
    assert text.solution and FENCE.search(text.solution), f"{name} step {step.number} ({lang}): no solution with code"
    given = {i: whole_answer_in(hint, text.solution) for i, hint in enumerate(text.hints, start=1)}
    assert not any(given.values()), {f"hint {i}": why for i, why in given.items() if why}


def test_the_hint_scan_would_catch_one():
    solution = "The file:\n\n```yaml\nkind: X\nspec:\n  a: 1\n```\n\nthen\n\n```sh\nkubectl apply -f x.yaml\n```\n"
    assert whole_answer_in("Like this:\n\n```yaml\n    kind: X\n    spec:\n      a: 1\n```\n", solution)
    assert whole_answer_in("Run `kubectl apply -f x.yaml`.", solution)
    assert not whole_answer_in("Start with:\n\n```yaml\nkind: X\nspec:\n```\n", solution)


# The ladder, held by data: hint 1 is the idea (no code block, no command), and no hint holds the
# lines that make a step's answer (each step's `answer:` in lesson.yaml); those are the solution's.
COMMAND = re.compile(r"`(?:kubectl|grep|touch|echo|cat|sed|awk|env)\b[^`]*`|`nslookup [^`]+`|`-{1,2}[A-Za-z][^`]*`"
                     r"|jsonpath|^\s*(?:kubectl|grep|nslookup|touch|echo) ", re.M)


def first_rung_problems(hint: str) -> list[str]:
    """How a first hint does more than name the idea: a code block, or a command or flag to type."""
    out = ["has a code block"] if FENCE.search(hint) else []
    out += [f"has the command {m.group(0).strip()!r}" for m in COMMAND.finditer(hint)]
    return out


def _norm(text: str) -> str:
    return "\n".join(_lines(text))


def answer_lines(lesson: str) -> dict[str, list[str]]:
    """Each step's answer lines (lesson.yaml `answer:`): what only the solution may hold."""
    import yaml

    from tutor.lesson.loader import lesson_dir

    meta = yaml.safe_load((lesson_dir(lesson) / "lesson.yaml").read_text(encoding="utf-8"))
    return {raw["id"]: [_norm(a) for a in raw.get("answer") or ()] for raw in meta["steps"]}


@pytest.mark.parametrize("name,step,lang", _steps(), ids=lambda v: getattr(v, "id", v))
def test_the_first_hint_names_the_idea_and_no_command(name, step, lang):
    assert not first_rung_problems(step.text(lang).hints[0]), (name, step.id, lang, step.text(lang).hints[0])


@pytest.mark.parametrize("name,step,lang", _steps(), ids=lambda v: getattr(v, "id", v))
def test_the_answer_lines_are_the_solutions_alone(name, step, lang):
    keys = answer_lines(name)[step.id]
    text = step.text(lang)
    assert keys, f"{name} {step.id}: lesson.yaml names no answer lines"
    assert all(k in _norm(text.solution) for k in keys), [k for k in keys if k not in _norm(text.solution)]
    told = {i: [k for k in keys if k in _norm(h)] for i, h in enumerate(text.hints, start=1)}
    assert not any(told.values()), {f"hint {i}": k for i, k in told.items() if k}


def test_the_ladder_scan_would_catch_one():
    assert first_rung_problems("Look:\n\n```sh\nkubectl get pods\n```\n")
    assert first_rung_problems("`grep` keeps the lines that start with `^LWS_`.")
    assert first_rung_problems("`-L <key>` turns a label into a column.")
    assert not first_rung_problems("Every pod carries its group in a label; the tool can show labels as columns.")
    assert not first_rung_problems("busybox's `nslookup` tries no search domain for a dotted name.")
