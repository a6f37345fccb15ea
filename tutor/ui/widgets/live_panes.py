"""The live panes: LWS groups, the pod table and the events, rendered from the store."""

from __future__ import annotations

from textual.containers import VerticalScroll
from textual.widgets import DataTable, Static

from tutor.cluster.store import Store
from tutor.ui import render


class GroupsPane(VerticalScroll):
    ALLOW_MAXIMIZE = True
    can_focus = True

    def compose(self):
        yield Static(id="groups-body")

    def show(self, store: Store, namespace: str, t: render.Translate = render._en, unavailable: str = "") -> None:
        key = (unavailable, render.groups_key(store, namespace, t))
        if getattr(self, "_shown", None) != key:  # changes beyond the groups shown change nothing
            self._shown = key
            body = self.query_one("#groups-body", Static)
            body.update(unavailable if unavailable else render.groups_view(store, namespace, t))


class EventsPane(VerticalScroll):
    """Full messages, wrapped: step 8 needs the whole FailedScheduling text."""

    ALLOW_MAXIMIZE = True
    can_focus = True

    def compose(self):
        yield Static(id="events-body")

    def show(self, store: Store, namespace: str, denied: str = "", t: render.Translate = render._en) -> None:
        body = self.query_one("#events-body", Static)
        body.update(denied if denied else render.events_text(store, namespace, t))


class PodsTable(DataTable):
    ALLOW_MAXIMIZE = True
    REBUILD_AT = 50  # rows gone at once above which rebuilding beats removing one by one

    def on_mount(self) -> None:
        self.cursor_type = "row"
        self.zebra_stripes = True
        for col in render.POD_COLUMNS:
            self.add_column(col, key=col)
        self._rows: dict[str, tuple] = {}
        self._source = render.PodRows()

    def show(self, store: Store, namespace: str) -> None:
        """Updates only what changed, so a busy namespace does not rebuild the table: rows of
        pods that went are removed, new ones appended and the order restored by one sort."""
        if not self._source.update(store, namespace) and len(self._rows) == len(self._source.cells):
            return
        rows = dict(self._source.cells)
        gone = [key for key in self._rows if key not in rows]
        if len(gone) > self.REBUILD_AT:
            self.clear()
            self._rows = {}
        else:
            for key in gone:
                self.remove_row(key)
                del self._rows[key]
        for key, cells in rows.items():
            old = self._rows.get(key)
            if old is None:
                self.add_row(*cells, key=key)
            elif old is not cells:  # unchanged pods keep the very same cells (render memo)
                for col, new, prev in zip(render.POD_COLUMNS, cells, old):
                    if new != prev:
                        self.update_cell(key, col, new)
        table_order = [k for k in self._rows if k in rows] + [k for k in rows if k not in self._rows]
        order = list(rows)
        if table_order != order:
            rank = {key: i for i, key in enumerate(order)}
            # the pod column holds the name, then " ↻n" when the pod was recreated
            self.sort("pod", key=lambda label: rank[str(label).split(" ", 1)[0]])
        self._rows = rows
