"""The panes redraw only the lines that changed (pods, events, ledger, groups): what a frame
would show must still equal the screen drawn afresh, line for line, whatever moved where.

Textual keeps each widget's rendered lines and draws again only those marked as changed; a line
a pane forgot to mark stays on the terminal as it was. Here, after every change, the screen as
the next frame shows it (the kept lines, and those marked drawn again) is compared with the
screen drawn from nothing (every kept line dropped first).
"""

from __future__ import annotations

import itertools

from tests.bench.synth import Cloner, parse
from tests.states import started_at
from tests.ui.harness import empty_recording, make_app
from tests.ui.screen_text import screen_lines
from tutor.cluster import objects as o
from tutor.cluster.source_events import ObjectEvent

GROUPS = 40  # 80 pods: the pods pane holds about 15 of them
SIZE = (120, 40)


def _fresh(app) -> list[str]:
    for widget in app.screen.walk_children(with_self=True):
        widget._styles_cache.clear()
    return screen_lines(app)


def _stale_lines(app) -> list[str]:
    shown, fresh = screen_lines(app), _fresh(app)
    return [f"line {y}: shown {a!r}\n        fresh {b!r}" for y, (a, b) in enumerate(zip(shown, fresh)) if a != b]


def _peek(items):
    """The next pod change of `items`, and `items` from where they were."""
    items = iter(items)
    ahead = []
    for ev in items:
        ahead.append(ev)
        if o.kind(ev.obj) == "Pod":
            return ev, itertools.chain(ahead, items)
    raise AssertionError("no pod change left")


def _terminating(ev: ObjectEvent) -> bool:
    return o.kind(ev.obj) == "Pod" and o.is_terminating(ev.obj)


async def test_what_a_frame_shows_equals_the_screen_drawn_afresh_after_every_change(tmp_path):
    cloner = Cloner()
    app = make_app(empty_recording(tmp_path), state_file=tmp_path / "p.json")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        s = app.session
        s.store.started_at = started_at("walkthrough")
        pods = app.query_one("#pods")
        for line in cloner.population(GROUPS):
            s.apply(parse(line))
        app.lesson.redraw_live()
        await pilot.pause()
        assert pods.row_count == 2 * GROUPS and not _stale_lines(app)
        view = pods.scrollable_content_region.height - 1
        assert pods.row_count > 3 * view
        # The view at the top (the rolls go on below it), around the next rolls, and at the
        # bottom with the cursor on the last row (the rolls above shift every row in view, and
        # the range shrinks under the view and the cursor); a Terminating phase widens its
        # column on the way, and narrows it again.
        storm = (parse(line) for line in cloner.storm(GROUPS, 10_000))
        terminating = 0
        for place in ("top", "around the next rolls", "bottom"):
            first, storm = _peek(storm)
            if place == "bottom":
                pods.move_cursor(pods.row_count - 1)
            else:
                top = 0 if place == "top" else max(0, pods.keys().index(o.name(first.obj)) - view // 2)
                pods.scroll_to(y=top, animate=False, immediate=True)
                pods.move_cursor(top + 3)
            await pilot.pause()
            for batch in range(40):
                items = list(itertools.islice(storm, 1 + batch % 5))
                for ev in items:
                    s.apply(ev)
                    terminating += _terminating(ev)
                app.lesson.redraw_live()
                stale = _stale_lines(app)
                assert not stale, f"view at the {place}, after batch {batch}:\n" + "\n".join(stale)
        assert terminating  # the phase column widened and narrowed again
