"""The timeline screen (key t, or the palette): per LWS, what happened in order, newest at the
bottom, each line with its offset in its episode and, where the data shows it, its cause.

A screen of its own rather than a fourth live pane: a story line with its cause needs the whole
width of a split terminal (80-100 columns), where a pane gets half of it; and it is read now and
then, when something just happened, not watched all the time like the pods.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from tutor.cluster.store import Store
from tutor.cluster.story import Episode, Line, Story, story
from tutor.cluster.timeline import clock
from tutor.narration import because, title, what
from tutor.ui.bindings.key_words import localise_bindings
from tutor.ui.screens.base import ClosesItself, FollowsTheStore, lesson_app
from tutor.ui.widgets.key_footer import KeyFooter
from tutor.ui.widgets.redraw import RedrawsOnChange
from tutor.ui.bindings.key_words import keyed
from tutor.i18n.bilingual import say


def offset_text(seconds: float, precise: bool) -> str:
    num = f"{seconds:.2f}" if seconds < 10 else f"{seconds:.1f}" if seconds < 100 else f"{seconds:.0f}"
    return ("+" if precise else "≈+") + num + "s"


class WithCause:
    """What happened, then its cause: on the same line when both fit, else the cause on a line of
    its own (an arrow wrapped away from its cause reads as noise)."""

    def __init__(self, what: Text, cause: Text | None):
        self.what, self.cause = what, cause

    def __rich_console__(self, console, options):
        if self.cause is None:
            yield self.what
        elif self.what.cell_len + 2 + self.cause.cell_len <= options.max_width:
            yield Text.assemble(self.what, "  ", self.cause)
        else:
            yield self.what
            yield self.cause

    def __rich_measure__(self, console, options):
        widest = self.what.cell_len + (2 + self.cause.cell_len if self.cause else 0)
        return Measurement(min(widest, 10), widest)


def _line_rows(table: Table, episode: Episode, line: Line, lang: str) -> None:
    group = f"g{line.group}" if line.group is not None else ""
    # A word longer than the column (a revision hash, "(CreatingRevision") breaks onto the next
    # line whole: the table's own "…" would cut it and then wrap the rest anyway.
    said = Text(what(line, lang), style="yellow" if line.odd else "", overflow="fold")
    cause = Text("← " + because(line, lang), style="dim italic", overflow="fold") if line.cause else None
    table.add_row(Text(offset_text(episode.offset(line), line.precise), style="dim"), Text(group, style="cyan"),
                  WithCause(said, cause))


def _episode(episode: Episode, lang: str) -> list[RenderableType]:
    head = Text(" ")
    head.append(title(episode, lang), style="bold")
    head.append(f" · {clock(episode.start, episode.lines[0].precise)} UTC", style="dim")
    table = Table.grid(padding=(0, 1))
    table.add_column(no_wrap=True, justify="right", min_width=7)
    table.add_column(no_wrap=True, width=3)
    table.add_column(ratio=1)
    for line in episode.lines:
        _line_rows(table, episode, line, lang)
    return [head, table]


def story_view(st: Story, lang: str, namespace: str) -> RenderableType:
    """The whole story as one renderable: per LWS, its episodes in order."""
    if not st.episodes:
        return Text(say(lang, "Nothing has happened in {ns} yet: the story starts when an LWS is created.",
                              "{ns}에서 아직 일어난 일이 없습니다. LWS를 만들면 기록이 시작됩니다.", ns=namespace),
                    style="dim")
    parts: list[RenderableType] = []
    for lws in st.lws_names():
        if parts:
            parts.append(Text(""))
        parts.append(Text(f"LWS {lws}", style="bold cyan"))
        for episode in st.of(lws):
            parts += _episode(episode, lang)
    return Group(*parts)


class TimelineView(RedrawsOnChange, VerticalScroll):
    can_focus = True

    def compose(self) -> ComposeResult:
        yield Static(id="timeline-body")

    def show(self, store: Store, namespace: str, lang: str) -> None:
        if not self._is_new((store.version, namespace, lang)):
            return
        at_end = self.scroll_y >= self.max_scroll_y  # reading the newest: keep following it
        try:
            view = story_view(story(store, namespace), lang, namespace)
        except Exception as exc:  # noqa: BLE001 - an odd object must not take the tutor down
            view = Text(say(lang, "The timeline could not be told: {e}",
                                  "타임라인을 만들지 못했습니다: {e}", e=f"{type(exc).__name__}: {exc}"), style="red")
        for body in self.query("#timeline-body").results(Static):
            body.update(view)
        if at_end:
            self.call_after_refresh(self.scroll_end, animate=False)


class TimelineScreen(FollowsTheStore, ClosesItself, Screen[None]):
    BINDINGS = [keyed("escape,t", "close", ("Close", "닫기"), ("Back to the lesson", "수업으로 돌아가기"))]

    _composed = False

    def __init__(self) -> None:
        super().__init__()
        self._english_keys: dict = {}  # its bindings as declared, so a switch back is exact

    def localise(self, lang: str) -> None:
        """Its own key words in the learner's language (the app calls it on a switch, too)."""
        localise_bindings(self, lang, self._english_keys)
        self.refresh_bindings()

    def compose(self) -> ComposeResult:
        yield Static(id="timeline-title")
        yield TimelineView(id="timeline")
        yield KeyFooter(lang=lambda: lesson_app(self).session.lang)

    def on_mount(self) -> None:
        self._composed = True
        s = lesson_app(self).session
        self.localise(s.lang)
        for view in self.query(TimelineView):  # none if t closed it while it mounted
            view.focus()
        self.show(s.store, s.lesson.namespace, s.lang)

    def action_close(self) -> None:
        self.dismiss()

    def show(self, store: Store, namespace: str, lang: str) -> None:
        if not self._composed:  # pushed, its widgets not mounted yet: on_mount draws it
            return
        for head in self.query("#timeline-title").results(Static):
            head.update(Text.assemble(
                (" " + say(lang, "Timeline", "타임라인") + " ", "bold reverse"), " ",
                (say(lang, "newest at the bottom · ← cause, from the cluster's data only · ⚠ LWS oddity · "
                           "≈ to the second · esc closes",
                           "최신이 맨 아래 · ← 원인(클러스터 데이터로만) · ⚠ LWS의 특이한 동작 · ≈ 초 단위 · "
                           "esc로 닫기"), "dim")))
        for view in self.query(TimelineView):
            view.show(store, namespace, lang)
