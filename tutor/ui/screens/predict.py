"""Predict, then see, on screen (key w): the step's questions in a small modal, answered with a
digit (or the arrows and enter), esc skipping; one line in the lesson pane that offers them, or
says what was predicted; and the graded answers in the step's recap once it has passed.

What is asked and how it is graded is the lesson's (tutor/checks/prediction.py); here only the
screen and the tutor's clock, which dates each answer: a replay's instant, or now for a live
cluster. Nothing here blocks a step: a question not answered is never asked again unbidden.
"""

from __future__ import annotations

import time
from typing import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tutor.lesson.loader import Question
from tutor.ui.screens.base import ClosesItself
from tutor.ui.i18n import keyed
from tutor.words import say


class PredictScreen(ClosesItself, ModalScreen[bool]):
    """One question at a time; `answer(question, choice_id)` keeps each as it is given."""

    BINDINGS = [keyed("escape", "skip", ("Skip", "건너뛰기"), show=False),
                *(keyed(str(i), f"choose({i})", show=False) for i in range(1, 10))]

    def __init__(self, title: Callable[[int, int], str], questions: list[Question], lang: str,
                 keys: Callable[[int], str], answer: Callable[[Question, str], None]):
        super().__init__()
        self._title, self._questions, self._lang = title, questions, lang
        self._keys, self._answer = keys, answer  # keys: the line under the choices, for how many there are
        self._at = 0

    def compose(self) -> ComposeResult:
        with Vertical(id="predict"):
            yield Static(id="predict-question")
            yield OptionList(id="predict-choices")
            yield Static(id="predict-keys")

    def on_mount(self) -> None:
        for choices in self.query(OptionList):  # none if dismissed while it mounted
            self._show()
            choices.focus()

    @property
    def question(self) -> Question:
        return self._questions[self._at]

    def _show(self) -> None:
        q = self.question
        self.query_one("#predict").border_title = self._title(self._at + 1, len(self._questions))
        self.query_one("#predict-question", Static).update(Text(q.text(self._lang), style="bold"))
        choices = self.query_one(OptionList)
        choices.clear_options()
        choices.add_options([Option(Text.assemble((f"{i} ", "bold cyan"), c.text(self._lang)), id=c.id)
                             for i, c in enumerate(q.choices, start=1)])
        choices.highlighted = None
        self.query_one("#predict-keys", Static).update(Text(self._keys(len(q.choices)), style="dim"))

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "choose" and parameters[0] > len(self.question.choices):
            return False  # a digit past the last choice does nothing (and is not the app's step key)
        return True

    def action_choose(self, i: int) -> None:
        self._chosen(self.question.choices[i - 1].id)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._chosen(event.option.id)

    def _chosen(self, choice: str) -> None:
        if not self.is_active:  # a choice queued behind the one that closed it
            return
        self._answer(self.question, choice)
        if self._at + 1 < len(self._questions):
            self._at += 1
            self._show()
        else:
            self.dismiss(True)

    def action_skip(self) -> None:
        self.dismiss(False)


def _open(app) -> list[Question]:
    from tutor.checks.prediction import open_questions

    s = app.session
    n = s.progress.current
    try:
        return open_questions(s.lesson.step(n), s.store, s.lesson.namespace, s.progress.predictions.get(n, {}))
    except Exception:  # noqa: BLE001 - an aside: a story that cannot be told offers no question
        return []


def can_predict(app) -> bool:
    """Whether the current step has a question to ask now (before its episode, not answered)."""
    return bool(app.session.lesson.step(app.session.progress.current).predict) and bool(_open(app))


def tutor_now(app) -> float:
    """The tutor's clock (seconds since its source started): a replay's instant, else now."""
    s = app.session
    if app.replay or s.store.started_at is None:
        return s.store.now
    return max(s.store.now, time.time() - s.store.started_at)


def open_predict(app) -> None:
    from tutor.checks.prediction import made_at

    questions = _open(app)
    s = app.session
    n = s.progress.current
    if not questions:
        app.notice(say(app.lang, "Nothing to predict on this step now.", "이 단계에서 지금 예측할 것이 없습니다."), timeout=3)
        return

    def answer(q: Question, choice: str) -> None:
        at = made_at(s.store, s.lesson.namespace, s.lesson.step(n), tutor_now(app))
        s.progress.predict(n, q.id, choice, at)

    def closed(_answered: bool | None) -> None:
        app.redraw_lesson()

    app.push_screen(PredictScreen(lambda i, k: say(app.lang, "Predict, then see · step {n} · {i} of {k}",
                                                             "예측하고 확인하기 · {n}단계 · {i}/{k}", n=n, i=i, k=k),
                                  questions, s.lang,
                                  lambda k: say(app.lang, "{keys} answers · esc skips, nothing is saved",
                                                          "{keys}: 답하기 · esc: 건너뛰기(아무것도 저장하지 않음)",
                                                          keys=f"1–{k}"),
                                  answer), closed)


def invite(app, n: int) -> list[str]:
    """The lesson pane's line about the step's questions, under its title: an offer while there
    are some to answer, what was predicted until the recap grades it; nothing otherwise."""
    s = app.session
    step = s.lesson.step(n)
    if not step.predict or n in s.progress.passed:
        return []
    answers = s.progress.predictions.get(n, {})
    lines = []
    for q in step.predict:
        choice = q.choice(str(answers.get(q.id, {}).get("choice"))) if q.id in answers else None
        if choice is not None:
            lines.append(say(app.lang, "**Your prediction:** *{c}*. Once the step passes, its recap grades it "
                                       "against the timeline.",
                                       "**내 예측:** *{c}*. 단계를 통과하면 정리에서 타임라인과 맞춰 채점합니다.",
                                       c=choice.text(s.lang)))
    still = len(_open(app)) if n == s.progress.current else 0
    if still and not lines:
        lines.append(say(app.lang, "**Predict, then see.** Before you start, press `w`: one question on what your cluster "
                                   "will do, graded against what it then does. Optional: esc skips.",
                                   "**예측하고 확인하기.** 시작하기 전에 `w` 키를 누르면 클러스터가 무엇을 할지 묻는 질문이 "
                                   "하나 나옵니다. 클러스터가 실제로 한 일과 맞춰 채점합니다. 하지 않아도 되고, esc로 "
                                   "건너뜁니다.") if still == 1 else
                     say(app.lang, "**Predict, then see.** Before you start, press `w`: {n} questions on what your cluster "
                                   "will do, graded against what it then does. Optional: esc skips.",
                                   "**예측하고 확인하기.** 시작하기 전에 `w` 키를 누르면 클러스터가 무엇을 할지 묻는 질문이 "
                                   "{n}개 나옵니다. 클러스터가 실제로 한 일과 맞춰 채점합니다. 하지 않아도 되고, esc로 "
                                   "건너뜁니다.",
                                   n=still))
    elif still:
        lines.append(say(app.lang, "Press `w` for the next question.", "다음 질문은 `w` 키."))
    return ["\n>\n".join("> " + line for line in lines)] if lines else []


def recap(app, n: int) -> str:
    """The step's graded answers, for its recap ("" when there are none)."""
    from tutor.checks.prediction import graded, markdown

    s = app.session
    answers = s.progress.predictions.get(n, {})
    if not answers:
        return ""
    try:
        told = markdown(graded(s.lesson.step(n), s.store, s.lesson.namespace, answers), s.lang)
    except Exception as exc:  # noqa: BLE001 - an aside: it must never take the recap down
        told = say(app.lang, "(the prediction could not be graded: {e})",
                             "(예측을 채점하지 못했습니다: {e})", e=f"{type(exc).__name__}: {exc}")
    return "\n\n" + told if told else ""
