"""The LWS groups pane and the node ledger, rendered from the store (pods: pod_list.py, events:
event_list.py)."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from tutor.cluster.store import Store
from tutor.ui import render
from tutor.ui.incremental import GroupsKey, Ledger
from tutor.ui.widgets.redraw import RedrawsOnChange


class GroupsPane(RedrawsOnChange, VerticalScroll):
    ALLOW_MAXIMIZE = True
    can_focus = True

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._key = GroupsKey()  # render.groups_key, followed through the store's changes

    def compose(self):
        yield Static(id="groups-body")

    def show(self, store: Store, namespace: str, t: render.Translate = render._en, unavailable: str = "") -> None:
        # changes beyond the groups shown change nothing
        if self._is_new((unavailable, self._key.update(store, namespace, t))):
            body = self.query_one("#groups-body", Static)
            body.update(unavailable if unavailable else render.groups_view(store, namespace, t))


class NodeLedger(RedrawsOnChange, VerticalScroll):
    """Per node: Ready, GPUs held of the capacity and by which LWS groups, taints, type label.
    Shown in the groups pane's place on the placement steps (render.PLACEMENT_STEPS) and by g."""

    ALLOW_MAXIMIZE = True
    can_focus = True

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._ledger = Ledger()  # render.ledger_view and its key, followed through the store's changes
        self._shape: tuple | None = None  # what the ledger's height depends on, as last drawn

    def compose(self):
        yield Static(id="ledger-body")

    def show(self, store: Store, namespace: str, gpu: str, t: render.Translate = render._en,
             unavailable: str = "") -> None:
        # redrawn only when a node or a pod's placement changes (render.ledger_key)
        if self._is_new((unavailable, self._ledger.update(store, namespace, gpu), t("Not placed:"))):
            body = self.query_one("#ledger-body", Static)
            view = unavailable if unavailable else self._ledger.view(store, namespace, gpu, t)
            # A layout of the whole screen costs more than drawing the ledger: only when its height can move.
            shape, self._shape = self._shape, _height_shape(view)
            body.update(view, layout=shape is None or shape != self._shape)


def _height_shape(view) -> tuple | None:
    """What the height of a Group of Texts depends on at a given width: a line that does not wrap
    is one line whatever it says; one that wraps, its words. None: not known (always lay out)."""
    if not isinstance(view, Group) or not all(isinstance(part, Text) for part in view.renderables):
        return None
    return tuple(part.plain.count("\n") if part.no_wrap else (part.plain, part.justify, part.overflow)
                 for part in view.renderables)
