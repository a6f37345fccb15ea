"""The command palette: its entries (jump to a step, reveal a hint, show the solution, reset,
switch language, re-check, Textual's own), and the palette itself in the learner's language."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from rich.align import Align
from rich.text import Text
from textual.app import SystemCommand
from textual.command import CommandPalette, DiscoveryHit, Hit, Hits, Matcher, Provider
from textual.system_commands import SystemCommandsProvider
from textual.theme import ThemeProvider

from tutor.ui.screens.base import ClosesItself
from tutor.ui.textual_compat import SurePalette
from tutor.i18n.bilingual import Words, pick, say

if TYPE_CHECKING:
    from tutor.session import Session
    from tutor.ui.screens.lesson import LessonScreen


@runtime_checkable
class PaletteHost(Protocol):
    """What the palette's entries ask of the app (tutor/ui/app.py)."""

    session: Session
    lesson: LessonScreen

    @property
    def lang(self) -> str: ...

    def action_recheck(self) -> None: ...

    def action_timeline(self) -> None: ...

    def action_finish(self) -> None: ...

    def action_predict(self) -> None: ...

    def action_toggle_ledger(self) -> None: ...

    def action_toggle_lang(self) -> None: ...


class TutorCommands(Provider):
    @property
    def host(self) -> PaletteHost:
        app = self.app
        assert isinstance(app, PaletteHost), "the tutor's commands are offered by the tutor's app only"
        return app

    def _commands(self) -> Iterator[tuple[Words, Callable[[], object], str]]:
        """Each entry: its name in both languages (English, Korean), what it runs, its help in the
        learner's language."""
        app = self.host
        lang = app.lang
        for step in app.session.lesson.steps:
            yield (both_ways("Go to step {n}: {title}", "{n}단계로 가기: {title}", n=step.number,
                             title=(step.title("en"), step.title("ko"))),
                   partial(app.lesson.action_goto, step.number), say(lang, "Jump to this step", "이 단계로 이동"))
        compare = app.session.progress.current in app.session.progress.passed
        entries: list[tuple[tuple[str, str], Callable[[], object], tuple[str, str]]] = [
            (("Reveal the next hint", "다음 힌트 보기"), app.lesson.action_hint,
             ("Show one more hint for this step", "이 단계의 힌트를 하나 더 보여 줍니다")),
            (("Show the solution…", "풀이 보기…"), app.lesson.action_solution,
             ("The whole answer, to compare with yours (the step passed: it does not ask)",
              "답 전체를 내 답과 비교합니다(통과한 단계라 묻지 않습니다)") if compare
             else ("The whole answer to this step (asks first; progress notes it)",
                   "이 단계의 답 전체(먼저 묻고, 본 것은 기록에 남습니다)")),
            (("Re-check now", "지금 다시 확인"), app.action_recheck, ("Run the checkers again", "검사를 다시 돌립니다")),
            (("Show the timeline", "타임라인 보기"), app.action_timeline,
             ("What happened, in order, per LWS group (key t)", "LWS 그룹마다 일어난 일을 순서대로(t 키)")),
            (("Show the end of the lesson", "실습 마무리 보기"), app.action_finish,
             ("What you did and what comes next (key f)", "해낸 일과 다음 모듈(f 키)")),
            (("Predict, then see…", "예측하고 확인하기…"), app.action_predict,
             ("Answer the step's question before your cluster acts (key w)",
              "클러스터가 움직이기 전에 단계의 질문에 답합니다(w 키)")),
            (("Show the node ledger / the groups", "노드 장부 / 그룹 보기"), app.action_toggle_ledger,
             ("GPUs, taints and Ready per node, in the groups pane's place", "노드마다 GPU, 테인트, Ready를 그룹 창 자리에")),
            (("Switch language (ko/en)", "언어 바꾸기 (ko/en)"), app.action_toggle_lang,
             ("Lesson and messages in the other language", "설명과 메시지를 다른 언어로")),
            (("Reset this step…", "이 단계 초기화…"), app.lesson.action_reset_step,
             ("Forget this step's pass, hints and predictions (asks first)",
              "이 단계의 통과 기록과 힌트, 예측을 지웁니다(먼저 묻습니다)")),
            (("Reset all progress…", "전체 진행 초기화…"), app.lesson.action_reset_all,
             ("Forget every pass, hint and prediction (asks first)", "모든 통과 기록과 힌트, 예측을 지웁니다(먼저 묻습니다)")),
        ]
        for title, action, help_words in entries:
            yield title, action, say(lang, *help_words)

    async def discover(self) -> Hits:
        lang = self.host.lang
        for names, fn, help_text in self._commands():
            yield DiscoveryHit(pick(names, lang), fn, help=help_text)

    async def search(self, query: str) -> Hits:
        lang = self.host.lang
        matcher = self.matcher(query)
        for names, fn, help_text in self._commands():
            if hit := found(matcher, names, lang, fn, help_text):
                yield hit


def both_ways(en: str, ko: str, **fields) -> Words:
    """A name in both languages, each filled (a field given as a pair is said in each)."""
    return say("en", en, ko, **fields), say("ko", en, ko, **fields)


def found(matcher: Matcher, names: Words, lang: str, command: Callable[[], object], help_text: str) -> Hit | None:
    """A palette entry that the query finds by its name in either language, shown in `lang`:
    typed in the other language (a habit, a keyboard left in the other layout), it still finds
    the entry. Highlighted where it matched in the name shown; found by the other name, the
    shown one is plain."""
    shown, other = pick(names, lang), pick(names, "en" if lang == "ko" else "ko")
    score, other_score = matcher.match(shown), matcher.match(other)
    if score <= 0 and other_score <= 0:
        return None
    if score >= other_score:
        return Hit(score, matcher.highlight(shown), command, text=shown, help=help_text)
    return Hit(other_score, shown, command, text=shown, help=help_text)


class BothLanguagesSystemCommands(SystemCommandsProvider):
    """Textual's own entries (the theme, quitting, the screenshot...), found by their name in
    either language, as ours are; shown in the learner's."""

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        lang = getattr(self.app, "lang", "en")
        for names, help_words, callback in system_entries(self.app, self.screen):
            if hit := found(matcher, names, lang, callback, pick(help_words, lang)):
                yield hit


class Palette(ClosesItself, SurePalette):
    """Textual's palette with its own words in the learner's language (the prompt, and the line
    it shows when nothing matches), and sure of its parts: its search runs in a worker that
    could finish after a key closed the palette, when its list is gone."""

    def __init__(self, prompt: str, nothing: str, providers=None):
        # No id: a palette closed a moment ago is still being removed when ctrl+p opens the next.
        super().__init__(providers, placeholder=prompt)
        self._nothing = nothing

    def nothing_found_line(self) -> Align:
        return Align.center(Text(self._nothing, style="not bold"))

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        """Its list's keys wait for its list: a key can come while the palette is still being
        composed, or after a key closed it."""
        if action in ("cursor_down", "command_list") and not self.has_list():
            return False
        return super().check_action(action, parameters)


def open_palette(app) -> None:
    """The palette (ctrl+p), in the learner's language."""
    if app.use_command_palette and not CommandPalette.is_open(app):
        app.push_screen(Palette(say(app.lang, "Search for commands…", "명령 찾기…"), say(app.lang, "No matches found",
                                                                                "맞는 명령이 없습니다")))


def open_themes(app) -> None:
    """The palette's Theme: Textual's list of themes (their names are names), asked for in the
    learner's language."""
    app.push_screen(Palette(say(app.lang, "Search for themes…", "테마 찾기…"),
                            say(app.lang, "No matches found", "맞는 테마가 없습니다"), providers=[ThemeProvider]))


def show_keys(app) -> None:
    """The palette's "Keys": Textual's panel, its keys said in the learner's language. Imported
    here: the panel's Markdown brings markdown-it, which the first frame does without."""
    from tutor.ui.widgets.keys_panel import show_keys_panel

    show_keys_panel(app.screen)


def system_entries(app, screen) -> Iterator[tuple[Words, Words, Callable[[], object]]]:
    """Textual's own palette entries (the same App.get_system_commands gives, in the same order),
    and ours, each: its name and its help in both languages, what it runs."""
    yield ("Theme", "테마"), ("Change the current theme", "화면 테마 바꾸기"), partial(open_themes, app)
    yield ("Quit", "종료"), ("Quit the application as soon as possible", "바로 종료하기"), app.action_quit
    if screen.query("HelpPanel"):
        yield ("Keys", "키"), ("Hide the keys and widget help panel", "키와 위젯 도움말 창 숨기기"), app.action_hide_help_panel
    else:
        yield (("Keys", "키"), ("Show help for the focused widget and a summary of available keys",
                                "선택한 창의 도움말과 쓸 수 있는 키 보기"), app.action_show_help_panel)
    if screen.maximized is not None:
        yield (("Minimize", "되돌리기"), ("Minimize the widget and restore to normal size", "확대한 창을 원래 크기로"),
               screen.action_minimize)
    elif screen.focused is not None and screen.focused.allow_maximize:
        yield ("Maximize", "확대"), ("Maximize the focused widget", "선택한 창을 크게 보기"), screen.action_maximize
    yield (("Screenshot", "스크린샷"), ("Save an SVG 'screenshot' of the current screen", "지금 화면을 SVG로 저장"),
           lambda: app.set_timer(0.1, app.deliver_screenshot))
    yield ("Help: keys", "도움말: 키"), ("Show every key", "모든 키 보기"), app.action_help


def system_commands(app, screen) -> Iterator[SystemCommand]:
    """The system entries, said in the learner's language (App.get_system_commands)."""
    for name, help_words, callback in system_entries(app, screen):
        yield SystemCommand(pick(name, app.lang), pick(help_words, app.lang), callback)

