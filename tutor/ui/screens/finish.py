"""The end of a lesson: once every step has passed, what the learner did (each step's title and
its verdict, as it passed), what the next module is and where to read on. It opens by itself
when the last step passes (the demo: at its end), once; esc closes it and f (or the palette)
shows it again. The next module and the links are the lesson's words (lesson.yaml `finish`);
the lesson that teaches the next module is named by its command only once it is installed."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tutor.lesson.loader import available
from tutor.i18n.bilingual import say
from tutor.ui.screens.base import ClosesItself, lesson_app
from tutor.ui.bindings.key_words import keyed
from tutor.ui.bindings.keys import HELP_HERE, QUIT_HERE


def finished(session) -> bool:
    return len(session.progress.passed) == len(session.lesson.steps)


def _verdict(session, n: int) -> str:
    """The step's pass, in the learner's language: its verdict now when it still passes (checked
    in this language), else the one it passed with (in the language of that moment)."""
    now = session.verdicts.get(n)
    if now is not None and now.passed:
        return now.message
    return session.progress.passed.get(n, {}).get("message", "")


def finish_rows(session) -> list[tuple[str, Text]]:
    """The screen's lines, each with its class (the stylesheet hides the verdicts on short
    terminals, where the titles and what comes next must fit), in the learner's language."""
    lesson, lang, progress = session.lesson, session.lang, session.progress
    rows = [("finish-title", Text(say(lang, "✓ {title}: every step passed", "✓ {title}: 모든 단계 통과",
                                      title=lesson.title(lang)), style="bold green")),
            ("finish-heading", Text(say(lang, "What you did", "해낸 일"), style="bold"))]
    for step in lesson.steps:
        line = Text.assemble(("✓ ", "green"), f"{step.number}. {step.title(lang)}")
        if progress.after_solution(step.number):
            line.append(say(lang, " (passed after its solution was shown)", " (풀이를 본 뒤 통과)"), style="yellow")
        rows.append(("finish-step", line))
        if message := _verdict(session, step.number):
            rows.append(("finish-verdict", Text(message, style="dim")))
    finish = lesson.finish
    if finish is not None:
        rows += [("finish-heading", Text(say(lang, "Next", "다음 모듈"), style="bold")),
                 ("finish-next", Text(finish.next_module(lang)))]
        if finish.next_lesson and finish.next_lesson in available():
            rows.append(("finish-next", Text.assemble(say(lang, "Start it: ", "시작하기: "),
                                                      (f"lwstutor --lesson {finish.next_lesson}", "bold cyan"))))
        if finish.links:
            rows.append(("finish-heading", Text(say(lang, "Read on", "더 읽을거리"), style="bold")))
            for link in finish.links:
                rows.append(("finish-link", Text.assemble("• ", link.title(lang), "\n  ",
                                                          (link.url, f"cyan link {link.url}"))))
    return rows


class FinishScreen(ClosesItself, ModalScreen[None]):
    BINDINGS = [keyed("escape,f", "dismiss", ("Close", "닫기")),
                keyed("l", "app.toggle_lang", ("ko/en", "ko/en")),  # the app's keys stop at a modal
                HELP_HERE, QUIT_HERE]

    def compose(self) -> ComposeResult:
        yield VerticalScroll(id="finish")

    async def on_mount(self) -> None:
        await self.draw()
        for box in self.query("#finish"):
            box.focus()

    async def draw(self) -> None:
        """(Re)draws it from the session: on opening, and when the language switches under it."""
        session = lesson_app(self).session
        for box in self.query("#finish").results(VerticalScroll):
            box.border_subtitle = say(session.lang, "esc closes · f shows it again · l ko/en",
                                     "esc로 닫기 · f로 다시 보기 · l ko/en")
            await box.remove_children()
            await box.mount_all([Static(text, classes=kind) for kind, text in finish_rows(session)])
