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

    def on_mount(self) -> None:
        self.cursor_type = "row"
        self.zebra_stripes = True
        for col in render.POD_COLUMNS:
            self.add_column(col, key=col)
        self._rows: dict[str, tuple] = {}

    def show(self, store: Store, namespace: str) -> None:
        """Updates only what changed, so a busy namespace does not rebuild the table."""
        rows = {r.key: r.cells for r in render.pod_rows(store, namespace)}
        order = list(rows)
        if list(self._rows) != order:
            self.clear()
            for key, cells in rows.items():
                self.add_row(*cells, key=key)
        else:
            for key, cells in rows.items():
                old = self._rows.get(key)
                for col, new, prev in zip(render.POD_COLUMNS, cells, old or ()):
                    if new != prev:
                        self.update_cell(key, col, new)
        self._rows = rows
