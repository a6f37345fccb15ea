"""The app's message queue carries the keys, the refresh pump's turns and its watchdog
(tutor/ui/app.py LoopCall): a handler of the app that awaits something slow holds all of them
for as long. h awaited the hint's markdown parse, and on a loaded machine the screen stood
still; what takes time runs in a worker or a widget's own queue instead."""

from __future__ import annotations

import inspect

from tutor.ui.app import TutorApp
from tutor.ui.screens.lesson import LessonScreen

# Each coroutine handler left on the app, and why its await is short.
AWAITS_BRIEFLY = {
    "on_event": "hands each event on to Textual's own handling",
    "action_copy_or_quit": "awaits Textual's quit, the app's end",
}


def handlers() -> dict[str, object]:
    """The handlers of the app and of the lesson screen, whose queue every lesson key passes."""
    found: dict[str, object] = {}
    for cls in (TutorApp, LessonScreen):
        for name, fn in inspect.getmembers(cls, inspect.isfunction):
            if name.startswith(("action_", "on_", "_on_")) or hasattr(fn, "_textual_on"):
                found.setdefault(name, fn)  # the app's own first: a name both have is the app's
    return found


def test_the_scan_sees_the_apps_handlers():
    found = handlers()
    assert {"action_hint", "action_next", "on_event", "action_toggle_lang", "_drain"} <= set(found)  # @on ones too


def test_no_handler_of_the_app_awaits_long():
    ours = {name for name, fn in handlers().items()
            if inspect.iscoroutinefunction(fn) and fn.__module__.startswith("tutor.")}
    assert ours == set(AWAITS_BRIEFLY), sorted(ours ^ set(AWAITS_BRIEFLY))
