"""A prediction is asked before the cluster acts, so nothing the learner reads before the step
passes answers it: not the intro, the lesson's title (the status bar shows it on every step), any
step's title (the step list shows them all), the step's instructions, hints, solution or question,
nor what the earlier steps showed once they passed (their recaps, and their graded predictions:
questions, choices and why a choice was wrong). Each question's answer phrases are lesson data
(`spoilers:` beside the question in lesson.yaml), in each language; the answer itself lives in the
recap, shown once the step has passed."""

from __future__ import annotations

import re

import pytest
import yaml

from tutor.lesson.loader import available, lesson_dir, load


def _questions():
    for name in available():
        meta = yaml.safe_load((lesson_dir(name) / "lesson.yaml").read_text(encoding="utf-8"))
        for raw in meta["steps"]:
            for q in raw.get("predict") or ():
                yield name, raw["id"], q


QUESTIONS = list(_questions())


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).lower()


def before_the_pass(name: str, step_id: str, lang: str) -> dict[str, str]:
    """What the learner can read of a step before it passes, by where it is shown."""
    lesson = load(name)
    step = next(s for s in lesson.steps if s.id == step_id)
    text = step.text(lang)
    shown = {"intro": lesson.intro.get(lang, ""), "lesson title": lesson.title(lang), "instructions": text.body,
             "solution": text.solution}
    shown.update({f"step {s.number} title": s.title(lang) for s in lesson.steps})
    shown.update({f"hint {i}": h for i, h in enumerate(text.hints, start=1)})
    shown.update({f"question {q.id}": q.text(lang) for q in step.predict})
    for earlier in lesson.steps[:step.number - 1]:
        t = earlier.text(lang)
        shown.update({f"step {earlier.number} {part}": getattr(t, part) for part in ("body", "solution", "recap")})
        shown.update({f"step {earlier.number} hint {i}": h for i, h in enumerate(t.hints, start=1)})
        for q in earlier.predict:  # graded in that step's recap: the question, the choice, why it was wrong
            shown[f"step {earlier.number} question {q.id}"] = q.text(lang)
            for c in q.choices:
                shown[f"step {earlier.number} question {q.id} choice {c.id}"] = c.text(lang)
                shown[f"step {earlier.number} question {q.id} why not {c.id}"] = c.why_not(lang)
    return shown


def spoiled(shown: dict[str, str], phrases: list[str]) -> list[str]:
    return [f"{where}: {p!r}" for where, text in shown.items() for p in phrases if _flat(p) in _flat(text)]


def test_there_are_questions_to_guard():
    assert {q["id"] for _, _, q in QUESTIONS} >= {"new-uids", "first-group", "old-leader", "leader-alone",
                                                  "first-bound", "free-gpu"}


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("name,step_id,q", QUESTIONS, ids=lambda v: v["id"] if isinstance(v, dict) else v)
def test_nothing_shown_before_the_pass_answers_the_question(name, step_id, q, lang):
    phrases = (q.get("spoilers") or {}).get(lang) or []
    assert phrases, f"{q['id']}: no spoiler phrases in {lang}"
    assert not spoiled(before_the_pass(name, step_id, lang), phrases)


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("name,step_id,q", QUESTIONS, ids=lambda v: v["id"] if isinstance(v, dict) else v)
def test_the_recap_gives_the_answer(name, step_id, q, lang):
    """The answer is moved, not lost: the recap (shown after the pass) says it."""
    step = next(s for s in load(name).steps if s.id == step_id)
    recap = _flat(step.text(lang).recap)
    assert any(_flat(p) in recap for p in q["spoilers"][lang]), (q["id"], lang)


def test_the_scan_would_catch_one():
    shown = {"instructions": "LWS rebuilds the entire group,\nand only that group."}
    assert spoiled(shown, ["and only that group"]) and not spoiled(shown, ["group 1 first"])


def test_titles_and_earlier_predictions_are_read_before_a_question():
    """The lesson's and every step's title are on screen from the start, and an earlier step's
    graded prediction is in its recap: all of it is scanned."""
    shown = before_the_pass("gang", "make-room", "en")
    assert shown["lesson title"] == load("gang").title("en")
    assert {f"step {n} title" for n in range(1, 8)} <= set(shown)
    assert "step 4 question leader-alone why not kept" in shown and "question first-bound" in shown
    assert "step 6 question first-bound" not in shown  # its own choices name the answer: they are the options


def verdict_texts(name: str, step_id: str) -> dict[str, str]:
    """What the checkers may say before the question's step passes: every string of the checker
    modules of the earlier steps, and of the modules no step owns (shared by all of them), which
    may be shown on any step. The step's own checker is left out: its pass says the answer."""
    import ast

    lesson = load(name)
    step = next(s for s in lesson.steps if s.id == step_id)
    owned = {s.id.replace("-", "_"): s.number for s in lesson.steps}
    out: dict[str, str] = {}
    for path in sorted((lesson_dir(name) / "checks").glob("*.py")):
        number = owned.get(path.stem)
        if path.stem == "__init__" or number == step.number or (number is not None and number > step.number):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}  # docstrings: never shown
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                out[f"checks/{path.name}:{node.lineno}"] = node.value
    return out


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("name,step_id,q", QUESTIONS, ids=lambda v: v["id"] if isinstance(v, dict) else v)
def test_no_verdict_before_the_step_answers_the_question(name, step_id, q, lang):
    """A verdict of an earlier step, or a shared one, is read before the question is asked."""
    assert not spoiled(verdict_texts(name, step_id), q["spoilers"][lang])


def test_the_verdict_scan_reads_earlier_and_shared_checkers_only():
    texts = verdict_texts("gang", "no-fit")
    files = {where.split(":")[0] for where in texts}
    assert {"checks/make_room.py", "checks/members.py", "checks/clear_orphan.py"} <= files
    assert "checks/no_fit.py" not in files
    assert spoiled({"checks/make_room.py:1": "The gang landed whole, in one go."}, ["in one go"])
