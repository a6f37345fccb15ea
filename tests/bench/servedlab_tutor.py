"""A served tab's tutor with the live-lab bench's timing hooks (run by tests.bench.servedlab, through
`lwstutor serve`): the server's own tab command (tutor.served_tab, the plain tutor) with this
module in its place, which puts the hooks of screen_timing.py on the app `lwstutor` builds.

    python -P -m tests.bench.servedlab_tutor <tutor.served_tab's arguments>

One JSON line each into $LWSTUTOR_SERVEDLAB_REPORTS, wall-clock times, as labreact_tutor.py prints
them: {"event": "ready"} once every watch is OK; {"event": "item", "i", "kind", "name", "rv", "t"}
per pod change or answer file applied; {"event": "frame", "t", "upto"} per frame that shows one.

The hooks render each frame once more for headless Textual, which makes no terminal bytes. This
tutor is not headless (it writes its frames to the server), so that extra render is skipped here:
each frame is rendered once, by the app, and timed after the app wrote it.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time

ENV = "LWSTUTOR_SERVEDLAB_REPORTS"


class _Drawn:
    """A frame handed through the hooks without `render_segments`, so they do not render it again."""

    __slots__ = ("inner",)

    def __init__(self, inner):
        self.inner = inner


def install(out) -> None:
    """Wraps the app `lwstutor` builds (tutor.commands.tui.tui_app) with the hooks. Textual is
    imported only when the app is built: tutor.served_tab picks its driver before that."""
    import tutor.commands.tui as tui

    lock = threading.Lock()

    def say(**rep) -> None:
        with lock:
            out.write(json.dumps(rep) + "\n")
            out.flush()

    built = tui.tui_app

    def timed_app(args):
        from tests.bench.screen_timing import ScreenTiming
        from tutor.cluster import objects as o
        from tutor.cluster.source_events import Conn, ObjectEvent
        from tutor.cluster.live import RESOURCES

        app = built(args)

        def item(i: int, it) -> None:
            if isinstance(it, ObjectEvent):
                say(event="item", i=i, kind="Pod", name=o.name(it.obj), rv=o.resource_version(it.obj), t=time.time())
            else:
                say(event="item", i=i, kind="file", name=it.name, rv="", t=time.time())

        timing = ScreenTiming(app, item, lambda upto: say(event="frame", t=time.time(), upto=upto))
        shown = timing._display  # the app's own _display, which renders the frame and writes it
        timing._display = lambda screen, r: shown(screen, r.inner if isinstance(r, _Drawn) else r)
        app._display = lambda screen, r: timing._timed_display(screen, r if r is None else _Drawn(r))

        def ready() -> None:
            states = app.session.states
            while not all((s := states.get(r.name)) is not None and s.state is Conn.OK for r in RESOURCES):
                time.sleep(0.05)
            say(event="ready", t=time.time())

        threading.Thread(target=ready, daemon=True).start()
        return app

    tui.tui_app = timed_app


def main() -> int:
    install(open(os.environ[ENV], "a", encoding="utf-8"))
    from tutor.served_tab import main as child

    return child(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
