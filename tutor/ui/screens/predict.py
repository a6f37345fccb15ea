"""Predict, then see, on screen (key w): the step's questions in a small modal, answered with a
digit (or the arrows and enter), esc skipping; one line in the lesson pane that offers them, or
says what was predicted; and the graded answers in the step's recap once it has passed.

What is asked and how it is graded is the lesson's (tutor/checks/prediction.py); here only the
screen and the tutor's clock, which dates each answer: a replay's instant, or now for a live
cluster. Nothing here blocks a step: a question not answered is never asked again unbidden.
"""

from __future__ import annotations

from typing import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tutor.lesson.loader import Question
from tutor.ui.step_page import Page
from tutor.ui.screens.base import ClosesItself
from tutor.ui.bindings.key_words import keyed
from tutor.ui.bindings.keys import HELP_HERE, QUIT_HERE
from tutor.i18n.bilingual import say


class PredictScreen(ClosesItself, ModalScreen[bool]):
    """One question at a time; `answer(question, choice_id)` keeps each as it is given."""

    BINDINGS = [keyed("escape", "skip", ("Skip", "건너뛰기")), HELP_HERE, QUIT_HERE,
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
        choice = event.option.id
        assert choice is not None  # every option is added with its choice's id (_show)
        self._chosen(choice)

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


def asking(page: Page) -> PredictScreen | None:
    """The screen that asks the current step's open questions, each answer kept with the
    tutor's clock; None when there is nothing to ask now."""
    from tutor.checks.prediction import made_at

    questions = page.open_questions()
    if not questions:
        return None
    s = page.session
    n = s.progress.current
    lang = s.lang

    def answer(q: Question, choice: str) -> None:
        at = made_at(s.store, s.lesson.namespace, s.lesson.step(n), page.now())
        s.progress.predict(n, q.id, choice, at)

    return PredictScreen(lambda i, k: say(page.lang, "Predict, then see · step {n} · {i} of {k}",
                                                     "예측하고 확인하기 · {n}단계 · {i}/{k}", n=n, i=i, k=k),
                         questions, lang,
                         lambda k: say(page.lang, "{keys} answers · esc skips, nothing is saved",
                                             "{keys}: 답하기 · esc: 건너뛰기(아무것도 저장하지 않음)", keys=f"1–{k}"),
                         answer)
