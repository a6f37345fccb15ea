"""One learner's verdicts in `lwstutor class --watch`: enter on the grid opens it, esc goes back.
Each step their tutor reported: its number, its mark and word, the checker's one-line message
whole (wrapped, never cut), the hints revealed, the predictions made and the time on it. The
view redraws it at every read and in the language it switches to (ClassWatch.draw)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from tutor.classroom import grid
from tutor.i18n import classroom
from tutor.i18n.bilingual import pick
from tutor.ui.bindings.key_words import keyed

# A status mark's colour, in the grid (class_watch.py) and here
MARK_STYLE = {"✓": "green", "✗": "red", "…": "yellow", "!": "bold red", "?": "magenta"}


class LearnerVerdicts(Screen[None]):
    CSS = """
    LearnerVerdicts #head { height: auto; background: $primary-background; text-style: bold; }
    LearnerVerdicts #keys { height: 1; background: $primary-background; }
    LearnerVerdicts #steps { height: 1fr; }
    LearnerVerdicts .message { padding-left: 4; margin-bottom: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [keyed("escape", "back", ("back", "돌아가기"), show=False)]

    def __init__(self, key: str, name: str):
        super().__init__()
        self.key, self.learner_name = key, name  # the learner's id, and their name should they leave
        self._drawn: tuple = ()  # what is on screen: drawn again only when it changes (the scroll stays)

    def compose(self) -> ComposeResult:
        yield Static(id="head")
        yield VerticalScroll(id="steps")
        yield Static(id="keys")

    def action_back(self) -> None:
        self.dismiss()

    async def show(self, state: dict, lang: str) -> None:
        """The learner as `state` has them, in `lang`: the lines anew, the scroll kept."""
        learner = grid.learner(state, self.key)
        drawn = (lang, learner and [learner.get(k) for k in ("name", "lesson", "current", "steps")])
        if drawn == self._drawn:
            return
        self._drawn = drawn
        self.query_one("#keys", Static).update(Text(pick(classroom.LEARNER_KEYS, lang), no_wrap=True))
        head = self.query_one("#head", Static)
        steps = self.query_one("#steps", VerticalScroll)
        if learner is None:
            head.update(Text(pick(classroom.LEARNER_GONE, lang, name=self.learner_name)))
            await steps.remove_children()
            return
        verdicts = grid.verdicts(learner)
        head.update(Text(pick(classroom.LEARNER_HEAD, lang, name=learner.get("name", ""),
                              lesson=learner.get("lesson", ""), current=learner.get("current", 1),
                              passed=sum(1 for v in verdicts if v.status == "pass"))))
        lines: list[Static] = []
        for v in verdicts:
            mark = grid.MARKS.get(v.status, "?")
            line = Text(f"{mark} ", style=MARK_STYLE.get(mark, ""))
            line.append(pick(classroom.LEARNER_STEP, lang, step=v.step,
                             status=pick(classroom.STATUS.get(v.status, (v.status, v.status)), lang),
                             time=grid.clock(v.seconds), hints=v.hints, predictions=v.predictions))
            lines += [Static(line, classes="step"), Static(Text(v.message), classes="message")]
        if not verdicts:
            lines.append(Static(Text(pick(classroom.LEARNER_NONE, lang))))
        async with steps.batch():
            await steps.remove_children()
            await steps.mount_all(lines)
