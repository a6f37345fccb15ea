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
