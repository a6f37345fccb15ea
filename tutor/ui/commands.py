"""The command palette: its entries (jump to a step, reveal a hint, show the solution, reset,
switch language, re-check, Textual's own), and the palette itself in the learner's language."""

from __future__ import annotations

from functools import partial

from rich.align import Align
from rich.text import Text
from textual.app import SystemCommand
from textual.command import CommandList, CommandPalette, DiscoveryHit, Hit, Hits, Provider
from textual.widgets.option_list import Option

from tutor.ui.screens import ClosesItself


class TutorCommands(Provider):
    def _commands(self):
        app = self.app
        lesson = app.session.lesson
        lang = app.session.lang
        t = app.text
        for step in lesson.steps:
            yield (t("Go to step {n}: {title}", n=step.number, title=step.title(lang)),
                   partial(app.action_goto, step.number), t("Jump to this step"))
        yield t("Reveal the next hint"), app.action_hint, t("Show one more hint for this step")
        compare = app.session.progress.current in app.session.progress.passed
        yield (t("Show the solution…"), app.action_solution,
               t("The whole answer, to compare with yours (the step passed: it does not ask)") if compare
               else t("The whole answer to this step (asks first; progress notes it)"))
        yield t("Re-check now"), app.action_recheck, t("Run the checkers again")
        yield t("Show the timeline"), app.action_timeline, t("What happened, in order, per LWS group (key t)")
        yield t("Show the end of the lesson"), app.action_finish, t("What you did and what comes next (key f)")
        yield t("Predict, then see…"), app.action_predict, t("Answer the step's question before your cluster acts (key w)")
        yield (t("Show the node ledger / the groups"), app.action_toggle_ledger,
               t("GPUs, taints and Ready per node, in the groups pane's place"))
        yield t("Switch language (ko/en)"), app.action_toggle_lang, t("Lesson and messages in the other language")
        yield t("Reset this step…"), app.action_reset_step, t("Forget this step's pass, hints and predictions (asks first)")
        yield t("Reset all progress…"), app.action_reset_all, t("Forget every pass, hint and prediction (asks first)")

    async def discover(self) -> Hits:
        for name, fn, help_text in self._commands():
            yield DiscoveryHit(name, fn, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, fn, help_text in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), fn, help=help_text)


class Palette(ClosesItself, CommandPalette):
    """Textual's palette with its own words in the learner's language (the prompt, and the line
    it shows when nothing matches), and sure of its parts: its search runs in a worker that
    could finish after a key closed the palette, when its list is gone."""

    def __init__(self, prompt: str, nothing: str):
        # No id: a palette closed a moment ago is still being removed when ctrl+p opens the next.
        super().__init__(placeholder=prompt)
        self._nothing = nothing

    def _on_mount(self, event) -> None:
        if self.is_active:  # not closed by a key while it mounted (it reads the screen below it)
            super()._on_mount(event)

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        """Its list's keys wait for its list: a key can come while the palette is still being
        composed, or after a key closed it."""
        if action in ("cursor_down", "command_list") and not self.query(CommandList):
            return False
        return super().check_action(action, parameters)

    def _start_no_matches_countdown(self, search_value: str) -> None:
        """Textual's line for an empty search result is in English: ours, after the same wait."""
        self._stop_no_matches_countdown()

        def nothing_found() -> None:
            for commands in self.query(CommandList):
                if search_value:
                    commands.add_option(Option(Align.center(Text(self._nothing, style="not bold")), disabled=True,
                                               id=self._NO_MATCHES))
                self._list_visible = bool(search_value)

        self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN, nothing_found)

    def _watch__list_visible(self) -> None:
        if self.query(CommandList):  # gone once the palette is closed
            super()._watch__list_visible()

    async def _watch__show_busy(self) -> None:
        if self.query(CommandList):
            await super()._watch__show_busy()

    def _action_command_list(self, action: str) -> None:
        # The list pages by the lines it has laid out: none while it is hidden (Textual 8.2
        # raises KeyError there, on pgup/pgdn typed before anything matched).
        if action.startswith("page_") and not any(c.scrollable_content_region for c in self.query(CommandList)):
            return
        super()._action_command_list(action)


def open_palette(app) -> None:
    """The palette (ctrl+p), in the learner's language."""
    if app.use_command_palette and not CommandPalette.is_open(app):
        app.push_screen(Palette(app.text("Search for commands…"), app.text("No matches found")))


def system_commands(app, textuals):
    """Textual's own palette entries (`textuals`) and ours, in the learner's language."""
    for cmd in textuals:
        yield cmd._replace(title=app.text(cmd.title), help=app.text(cmd.help))
    yield SystemCommand(app.text("Help: keys"), app.text("Show every key"), app.action_help)
