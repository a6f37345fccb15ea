"""Command palette entries: jump to a step, reveal a hint, show the solution, reset, switch language,
re-check."""

from __future__ import annotations

from functools import partial

from textual.app import SystemCommand
from textual.command import CommandPalette, DiscoveryHit, Hit, Hits, Provider


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
        yield t("Show the solution…"), app.action_solution, t("The whole answer to this step (asks first; progress notes it)")
        yield t("Re-check now"), app.action_recheck, t("Run the checkers again")
        yield t("Show the timeline"), app.action_timeline, t("What happened, in order, per LWS group (key t)")
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


def open_palette(app) -> None:
    """Textual's palette, its prompt in the learner's language."""
    if app.use_command_palette and not CommandPalette.is_open(app):
        app.push_screen(CommandPalette(id="--command-palette", placeholder=app.text("Search for commands…")))


def system_commands(app, textuals):
    """Textual's own palette entries (`textuals`) and ours, in the learner's language."""
    for cmd in textuals:
        yield cmd._replace(title=app.text(cmd.title), help=app.text(cmd.help))
    yield SystemCommand(app.text("Help: keys"), app.text("Show every key"), app.action_help)
