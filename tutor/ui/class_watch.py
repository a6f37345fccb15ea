"""`lwstutor class --watch URL`: the instructor's view of a class in the terminal. A grid of
learners by steps (a mark per status), the step each is on and for how long; a stuck learner
(STUCK_S on a step without passing) stands out in red with ⚠, one whose tutor stopped reporting
is dimmed; under the grid, how many passed each step and, for the steps learners fail, the
message most of them see. Read every POLL_S from the instructor's address; fits 80x24 (the grid
scrolls past a screenful of learners). enter on a learner opens their verdicts (class_learner.py);
o cycles the order (name, progress, time on the step), f who is shown (everyone, the stuck or
failing, the away); l switches English and Korean, q quits."""

from __future__ import annotations

import time
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import BindingType
from textual.widgets import DataTable, Static

from tutor.classroom import grid
from tutor.classroom.state_reader import StateReader, Unreadable
from tutor.ui.class_learner import MARK_STYLE, LearnerVerdicts
from tutor.ui.bindings.key_words import keyed
from tutor.i18n import classroom
from tutor.i18n.bilingual import pick

POLL_S = 2.0
FAILING_LINES = 4  # the steps most failed, under the grid: the grid keeps most of 24 rows
SUMMARY_ROWS = 7  # #summary's max-height
NAME_COLUMNS = 14


class ClassWatch(App):
    CSS = """
    #title { height: 1; background: $primary-background; }
    #grid { height: 1fr; }
    #summary { height: auto; max-height: %d; }
    """ % SUMMARY_ROWS
    # Their words are the title's (no footer: the grid keeps the rows)
    BINDINGS: ClassVar[list[BindingType]] = [keyed("q", "quit", ("quit", "끝내기"), show=False),
                                             keyed("l", "toggle_lang", ("ko/en", "ko/en"), show=False),
                                             keyed("o", "order", ("order", "정렬"), show=False),
                                             keyed("f", "only", ("show", "보기"), show=False)]

    def __init__(self, url: str, lang: str):
        super().__init__()
        self.reader = StateReader(url)
        self.url, self.lang = url, lang
        self.state: dict = {}
        self.problem = ""  # why the last read failed ("" when it worked)
        self.order, self.which = grid.ORDERS[0], grid.FILTERS[0]
        self._columns: tuple = ()

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield DataTable(id="grid", cursor_type="row", zebra_stripes=True)
        yield Static(id="summary")

    def on_mount(self) -> None:
        self.draw()
        self.poll()
        self.set_interval(POLL_S, self.poll)

    async def on_unmount(self) -> None:
        await self.reader.close()

    def poll(self) -> None:
        self.run_worker(self._read(), group="read", exclusive=True, exit_on_error=False)

    async def _read(self) -> None:
        try:
            self.state, self.problem = await self.reader.read(), ""
        except Unreadable as exc:
            self.problem = str(exc)
        self.draw()

    def action_toggle_lang(self) -> None:
        self.lang = "en" if self.lang == "ko" else "ko"
        self._columns = ()
        self.draw()

    def action_order(self) -> None:
        self.order = grid.next_of(grid.ORDERS, self.order)
        self.draw()

    def action_only(self) -> None:
        self.which = grid.next_of(grid.FILTERS, self.which)
        self.draw()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        key = str(event.row_key.value)
        found = grid.learner(self.state, key)
        screen = LearnerVerdicts(key, str(found.get("name", "")) if found else key)
        self.push_screen(screen)
        self.call_after_refresh(self.draw)  # its lines from the state read

    # --- drawing -----------------------------------------------------------------------------
    def draw(self) -> None:
        rows = grid.rows(self.state)
        steps = grid.last_step(self.state)
        at = time.strftime("%H:%M:%S", time.localtime(self.state["now"])) if "now" in self.state else "-"
        title = pick(classroom.WATCH_TITLE, self.lang, n=len(rows), at=at,
                     order=pick(classroom.ORDER[self.order], self.lang), only=pick(classroom.ONLY[self.which], self.lang))
        self.query_one("#title", Static).update(Text(title, style="bold", no_wrap=True, overflow="ellipsis"))
        self._draw_grid(grid.ordered(grid.only(rows, self.which), self.order), steps)
        self.query_one("#summary", Static).update(self._summary(rows))
        if isinstance(self.screen, LearnerVerdicts):
            self.run_worker(self.screen.show(self.state, self.lang), group="learner", exclusive=True)

    def _draw_grid(self, rows: list[grid.Row], steps: int) -> None:
        table = self.query_one("#grid", DataTable)
        chosen = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value if table.row_count else None
        columns = (self.lang, steps)
        if columns != self._columns:  # a new step seen, or the language switched: the header anew
            table.clear(columns=True)
            table.add_column(pick(classroom.WATCH_NAME, self.lang), width=NAME_COLUMNS)
            for n in range(1, steps + 1):
                table.add_column(str(n), width=len(str(n)))
            table.add_column(pick(classroom.WATCH_ON, self.lang), width=4)
            table.add_column(pick(classroom.WATCH_TIME, self.lang), width=5)
            self._columns = columns
        table.clear()
        for row in rows:
            table.add_row(*self._cells(row), key=row.id)
        at = next((i for i, row in enumerate(rows) if row.id == chosen), 0)  # the cursor stays on its learner
        table.move_cursor(row=at)

    @staticmethod
    def _cells(row: grid.Row) -> list[Text]:
        style = "bold red" if row.stuck else "dim" if row.away else ""
        name = Text(("⚠ " if row.stuck else "") + row.name, style=style, no_wrap=True, overflow="ellipsis")
        marks = [Text(m, style=MARK_STYLE.get(m, "")) for m in row.marks]
        return [name, *marks, Text(str(row.current), style=style), Text(grid.clock(row.on_step), style=style)]

    def _summary(self, rows: list[grid.Row]) -> Text:
        """One screen line each, cut with … at the width; the failing steps past FAILING_LINES
        are counted on the last of their lines (nothing is cut without a mark)."""
        lang, width, lines = self.lang, max(20, self.size.width), []
        away = Text(pick(classroom.WATCH_AWAY, lang, url=self.url, why=self.problem), style="bold yellow")
        # said whole (folded): the failing steps give up the rows it takes
        away_rows = -(-away.cell_len // width) if self.problem else 0
        room = min(FAILING_LINES, SUMMARY_ROWS - 2 - away_rows)  # the passes and the legend kept
        if not rows:
            lines.append(Text(pick(classroom.WATCH_EMPTY, lang)))
        else:
            summaries = grid.summaries(self.state)
            passed = Text()
            passed.append(pick(classroom.WATCH_PASSED, lang) + " ", style="bold")
            passed.append("  ".join(f"{s.step}:{s.passed}/{s.learners}" for s in summaries))
            lines.append(passed)
            failing = sorted((s for s in summaries if s.failing), key=lambda s: (-s.failing, s.step))
            shown = failing if len(failing) <= room else failing[:max(0, room - 1)]
            for s in shown:
                lines.append(Text(pick(classroom.WATCH_FAILING, lang, step=s.step, count=s.common_count,
                                       message=s.common), style="red"))
            if len(shown) < len(failing):
                lines.append(Text(pick(classroom.WATCH_MORE_FAILING, lang, n=len(failing) - len(shown)), style="red"))
            lines.append(Text(pick(classroom.WATCH_LEGEND, lang), style="dim"))
        for line in lines:
            line.truncate(width, overflow="ellipsis")
        return Text("\n").join([away, *lines] if self.problem else lines)
