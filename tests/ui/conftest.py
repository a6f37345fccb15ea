"""The snapshots' fixture: every snapshot is of a steady frame."""

from __future__ import annotations

import inspect

import pytest

from tests.ui.settle import quiet, until


async def steady(pilot) -> None:
    """Waits until the lesson's markdown is drawn and the pump has nothing to apply or redraw
    (quiet), then until two frames taken a moment apart are the same. A layout or a repaint still
    under way (a class a resize set, a scrollbar sized a frame after its content) lands a few
    turns of the loop later, more on a loaded machine, and a snapshot taken before it showed a
    frame the learner sees only in passing. The markdown parses in a thread with frames going on,
    so two frames can agree while it parses: hence quiet first."""
    app = pilot.app
    await quiet(pilot)
    last = [app.export_screenshot()]

    def same() -> bool:
        frame = app.export_screenshot()
        if frame == last[0]:
            return True
        last[0] = frame
        return False

    await until(pilot, same, "two frames in a row to be the same")


@pytest.fixture
def snap_compare(snap_compare):
    """pytest-textual-snapshot's, taken once the frame after run_before is steady."""

    def compare(app, *args, run_before=None, **kwargs):
        async def then_steady(pilot) -> None:
            if run_before is not None:
                result = run_before(pilot)
                if inspect.isawaitable(result):
                    await result
            await steady(pilot)

        return snap_compare(app, *args, run_before=then_steady, **kwargs)

    return compare
