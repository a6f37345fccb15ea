"""The node ledger, rendered from the store."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text

from tutor.cluster.store import Store
from tutor.ui import render
from tutor.ui.incremental import Ledger
from tutor.ui.widgets.redraw import RedrawsOnChange
from tutor.ui.widgets.text_blocks import TextBlocks


class NodeLedger(RedrawsOnChange, TextBlocks):
    """Per node: Ready, GPUs held of the capacity and by which LWS groups, taints, type label.
    Shown in the groups pane's place on the steps about where pods land (lesson.yaml's `ledger`) and by g.
    Its lines are Text blocks (text_blocks.TextBlocks): a pod moving redraws the lines of its
    node only, and a frame renders only the lines in view."""

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._ledger = Ledger()  # render.ledger_view and its key, followed through the store's changes

    def show(self, store: Store, namespace: str, gpu: str, t: render.Translate = render._en,
             unavailable: str = "") -> None:
        # redrawn only when a node or a pod's placement changes (render.ledger_key)
        if self._is_new((unavailable, self._ledger.update(store, namespace, gpu), t("Not placed:"))):
            view = Text(unavailable) if unavailable else self._ledger.view(store, namespace, gpu, t)
            self.set_blocks(view.renderables if isinstance(view, Group) else (view,))
