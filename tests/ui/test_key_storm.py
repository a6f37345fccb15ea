"""A burst of keys never ends the tutor. Keys came faster than screens were pushed and popped
(?, esc, ctrl+p, then a word typed before the palette was up: its t pushed the timeline and
the next key popped it while it mounted), and the app ended with a traceback. Here a few
hundred of the app's keys and palette words are sent with no wait between them, over a replay
and over the demo, at 80x24 and 60x20, in both languages."""

from __future__ import annotations

import asyncio

import pytest

from tests.conftest import WALKTHROUGH
from tests.ui.harness import make_app
from tests.ui.settle import first_frame, handled
from tests.ui.storm import quits_counted, send_now, storm
from tutor.cli import build_parser
from tutor.commands.demo import demo_app

KEYS = 300
BURST = 25  # keys a burst: a terminal delivers a paste or key repeat in chunks


def _app(kind: str, lang: str, tmp_path):
    if kind == "demo":
        return demo_app(build_parser().parse_args(["demo", "--speed", "60", "--pause", "0.2", "--lang", lang]))
    return make_app(WALKTHROUGH, lang=lang, speed=60, state_file=tmp_path / "p.json")


@pytest.mark.parametrize("kind", ["replay", "demo"])
@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("seed", [1])
async def test_a_key_storm_never_ends_the_app(kind, size, lang, seed, tmp_path):
    app = _app(kind, lang, tmp_path)
    quits = quits_counted(app)
    keys = storm(seed * 1000 + sum(size) + len(lang + kind), KEYS)
    async with app.run_test(size=size, notifications=True) as pilot:
        await first_frame(pilot)  # the storm comes over the lesson, as a learner's keys do
        for i in range(0, len(keys), BURST):
            send_now(app, keys[i:i + BURST])
            await asyncio.sleep(0.02)  # the next burst comes while this one is being handled
        await handled(pilot, "every key of the storm handled")
        await pilot.pause()  # every screen mounted or gone
        assert app.is_running and app._exception is None, (app._exception, f"quit asked from {quits}")
        send_now(app, ["escape"] * 4)  # the way back to the lesson still works
        await handled(pilot, "the four escapes handled")
        await pilot.pause()
        assert app.is_running and app._exception is None, (app._exception, f"quit asked from {quits}")


async def test_a_palette_closed_before_its_search_starts_leaves_the_app_running(tmp_path):
    """The palette's search runs in a worker that starts a turn after the mount or keystroke that
    asked for it. A key that closed the palette in that turn removed its list first (children
    go before their screen), and the search's lookup of the list ended the app: seeded storms
    at 100x30, a key a turn, found it in 2 of 40. Here that turn, made on purpose."""
    from textual.command import CommandList, CommandPalette

    from tests.ui.settle import until

    app = make_app(WALKTHROUGH, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 30)) as pilot:
        await first_frame(pilot)
        await pilot.press("ctrl+p")
        await until(pilot, lambda: CommandPalette.is_open(app) and bool(app.screen.query(CommandList)),
                    "the palette up with its list")
        palette = app.screen
        await palette.query(CommandList).remove()  # the list gone, as the closing removes it first
        palette._gather_commands("")  # the search the mount asked for, starting now
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.is_running and app._exception is None, app._exception
