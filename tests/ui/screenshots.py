"""Makes the README's screenshots from the walkthrough recording.

    python -m tests.ui.screenshots            # writes screenshots/*.svg

tests/ui/test_screenshots.py fails when the committed ones are stale.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from tests.conftest import WALKTHROUGH, recording_path
from tests.ui.harness import make_app
from tests.ui.moments import moments, show_moment
from tests.ui.settle import on_screen, settled, step_drawn, until

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "screenshots"
GANG_END = "gang-lesson-done"  # not a moment of the walkthrough: the gang lesson's recording, whole
SHOTS = [  # name, moment, language, terminal size, keys pressed then
    ("rollout-en", "rollout-underway", "en", (100, 40), ()),
    ("orphan-en", "orphan-pending", "en", (100, 40), ()),
    ("group0-ko", "group0-recreated", "ko", (100, 40), ()),
    # the hint is taller than this pane and opens zoomed: esc puts the panes back beside it
    ("split-80x40-en", "wide-placed", "en", (80, 40), ("escape",)),
    ("timeline-en", "wide-placed", "en", (100, 40), ("t",)),
    ("finish-en", "orphan-pending", "en", (100, 40), ("f",)),
    # the gang lesson's walkthrough to its end, its step 6 (the whole gang lands at once)
    ("gang-ko", GANG_END, "ko", (100, 40), ("6",)),
]


async def shown(pilot, key: str) -> None:
    """Waits until what the key shows is drawn: a step's text (parsed in a thread), the timeline
    scrolled to its newest line, the finish screen."""
    from tutor.ui.screens.finish import FinishScreen
    from tutor.ui.screens.timeline_view import TimelineScreen, TimelineView

    if key.isdigit():
        await step_drawn(pilot, int(key))
    elif key == "t":
        view = (await on_screen(pilot, TimelineScreen)).query_one(TimelineView)
        await until(pilot, lambda: view.virtual_size.height and view.scroll_y == view.max_scroll_y,
                    "the timeline laid out and scrolled to its end")
    elif key == "f":
        await on_screen(pilot, FinishScreen)
    elif key == "escape":
        await until(pilot, lambda: pilot.app.screen.maximized is None, "the zoomed pane put back")
    await pilot.pause()


async def shoot(moment: str, lang: str, size: tuple[int, int], keys: tuple[str, ...] = ()) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        gang = moment == GANG_END
        app = make_app(recording_path("lesson-gang") if gang else WALKTHROUGH, lang=lang,
                       upto=None if gang else moments()[moment], state_file=Path(tmp) / "p.json")
        async with app.run_test(size=size) as pilot:
            if gang:
                await settled(pilot)
            else:
                await show_moment(pilot, moment)
            if keys:
                await pilot.press(*keys)
                await shown(pilot, keys[-1])
            return app.export_screenshot(title=f"lwstutor — {moment}")


def render_all() -> dict[str, str]:
    return {name: asyncio.run(shoot(m, lang, size, keys)) for name, m, lang, size, keys in SHOTS}


def main() -> int:
    OUT.mkdir(exist_ok=True)
    for name, svg in render_all().items():
        (OUT / f"{name}.svg").write_text(svg)
        print(f"screenshots/{name}.svg", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
