"""The tutor as `lwstutor serve` runs it in each tab, with the bench's timing hooks
(screen_timing.py): every pod change applied and every frame that shows one, on the wall clock,
one JSON line each into $LWSTUTOR_SERVED_TIMING. servedreact.py starts it through the server.

    python -m tests.bench.served_tutor <the tutor's options>

The hooks render each frame once more than the app does (they are made for headless Textual,
which skips it): the store -> frame time here is a little longer than the app's own. What the
websocket adds is timed from after the app's own write, so it is not.
"""

from __future__ import annotations

import json
import os
import sys
import time

from tests.bench.screen_timing import ScreenTiming
from tutor.cli import build_parser
from tutor.commands.tui import tui_app
from tutor.ui.refresh.quiet_gc import held_until_first_frame


def main() -> int:
    args = build_parser().parse_args(sys.argv[1:])
    out = open(os.environ["LWSTUTOR_SERVED_TIMING"], "a", encoding="utf-8")
    applied: dict[int, float] = {}

    def on_item(i: int, item) -> None:
        applied[i] = time.time()

    def on_frame(upto: int) -> None:
        now = time.time()
        shown = [applied.pop(i) for i in sorted(applied) if i <= upto]
        out.write(json.dumps({"frame": now, "applied": shown}) + "\n")
        out.flush()

    with held_until_first_frame():
        app = tui_app(args)
        ScreenTiming(app, on_item, on_frame)
        app.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
