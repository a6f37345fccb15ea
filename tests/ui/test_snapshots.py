"""Snapshots at the key moments of the replayed lab, at three sizes, in both languages."""

from __future__ import annotations

import pytest

from tests.conftest import WALKTHROUGH
from tests.ui.harness import make_app
from tests.ui.moments import moments, show_moment
from tutor.i18n.bilingual import say

MOMENTS = moments()
SIZES = [(80, 24), (100, 40), (160, 48)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("moment", list(MOMENTS))
def test_snapshot(snap_compare, moment, lang, size, tmp_path):
    app = make_app(WALKTHROUGH, lang=lang, upto=MOMENTS[moment],
                   state_file=tmp_path / "p.json")

    assert snap_compare(app, terminal_size=size, run_before=lambda pilot: show_moment(pilot, moment))


async def _zoom_ledger(pilot) -> None:
    """Step 8 at the end of the lab, the node ledger focused and maximised."""
    from tests.ui.settle import settled, step_drawn, until

    await settled(pilot)
    await pilot.press("8")
    await step_drawn(pilot, 8)
    ledger = pilot.app.query_one("#ledger")
    ledger.focus()
    await pilot.press("z")
    await until(pilot, lambda: pilot.app.screen.maximized is ledger, "the ledger zoomed",
                seen=lambda: pilot.app.screen.maximized)
    pilot.app.clear_notifications()
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (100, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_ledger_snapshot(snap_compare, lang, size, tmp_path):
    app = make_app(WALKTHROUGH, lang=lang, upto=MOMENTS["orphan-pending"], state_file=tmp_path / "p.json")
    assert snap_compare(app, terminal_size=size, run_before=_zoom_ledger)


async def _ask_for_the_solution(pilot) -> None:
    """Step 5 of an empty replay, s pressed: the question, in the learner's language."""
    from tests.ui.settle import hint_in_view, on_screen, settled
    from tutor.ui.screens.confirm import ConfirmScreen

    await settled(pilot)
    await pilot.press("5", "h")
    await hint_in_view(pilot, 5, 1)
    await pilot.press("s")
    await on_screen(pilot, ConfirmScreen)
    await pilot.pause()


async def _ask_step_5(pilot) -> None:
    """Step 5 before llm-0-1 fails, its question up (key w)."""
    from tests.ui.settle import on_screen, settled, step_drawn
    from tutor.ui.screens.predict import PredictScreen

    await settled(pilot)
    await pilot.press("5")
    await step_drawn(pilot, 5)
    await pilot.press("w")
    await on_screen(pilot, PredictScreen)
    pilot.app.clear_notifications()
    await pilot.pause()


async def _show_the_solution(pilot) -> None:
    """...and confirmed: the solution under its heading, scrolled to."""
    from tests.ui.settle import heading_in_view

    await _ask_for_the_solution(pilot)
    await pilot.press("y")
    await heading_in_view(pilot, say(pilot.app.lang, "Solution", "풀이"))
    await pilot.pause()


@pytest.mark.parametrize("run_before", [_ask_for_the_solution, _show_the_solution], ids=["asks", "shown"])
def test_solution_snapshot(snap_compare, run_before, tmp_path):
    from tests.ui.harness import empty_recording

    app = make_app(empty_recording(tmp_path), lang="ko", state_file=tmp_path / "p.json")
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_predict_snapshot(snap_compare, tmp_path):
    from tests.states import file_written
    from tests.ui.moments import first_t

    app = make_app(WALKTHROUGH, lang="ko", upto=first_t(file_written("restart.txt")), state_file=tmp_path / "p.json")
    assert snap_compare(app, terminal_size=(80, 24), run_before=_ask_step_5)
