"""What every screen of ours over the lesson keeps to (ClosesItself)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from textual.await_complete import AwaitComplete
from textual.geometry import Size
from textual.screen import Screen

if TYPE_CHECKING:
    from tutor.session import Session

    _MixedIntoScreen = Screen[Any]  # the type checker reads the mixin as the screen it is mixed into
else:
    _MixedIntoScreen = object


def breakpoint_classes(screen: Screen, size: Size) -> dict[str, bool]:
    """The breakpoint classes of a screen of `size` (its own breakpoints, else the app's): on
    each axis, the one with the largest threshold the size reaches, as Textual sets them at the
    screen's first resize."""
    classes: dict[str, bool] = {}
    for extent, own, apps in ((size.width, screen.HORIZONTAL_BREAKPOINTS, screen.app.HORIZONTAL_BREAKPOINTS),
                              (size.height, screen.VERTICAL_BREAKPOINTS, screen.app.VERTICAL_BREAKPOINTS)):
        points = (apps if own is None else own) or []
        reached = next((name for threshold, name in sorted(points, reverse=True) if extent >= threshold), None)
        classes.update({name: name == reached for _, name in points})
    return classes


class LessonApp(Protocol):
    """What the screens over the lesson read of the app: the TutorApp (tutor/ui/app.py), whose
    module imports theirs."""

    session: Session


def lesson_app(screen: Screen[Any]) -> LessonApp:
    """The app the screen is on, as a LessonApp."""
    return screen.app  # type: ignore[return-value]  # Textual types it as any App; it is the TutorApp


class ClosesItself(_MixedIntoScreen):
    """Mixed into every screen pushed over the lesson.

    It starts with the breakpoint classes of the app's size. Textual sets them on a pushed
    screen at its first resize, after its first layout, so a short terminal first showed it
    laid out for a tall one: the finish screen with every verdict's sentences, taken away a
    frame later (and a snapshot taken in between kept that frame's scrollbar).

    Textual's dismiss pops the screen on top, whichever it is, and the pop takes effect a turn
    later: a second esc, enter or n queued before it (keys arrive in bursts) dismissed the
    screen beneath, down to the lesson's own, and the app ended. A screen dismisses only
    itself, once; later keys do nothing. Its handlers find their widgets with query() (none
    once it is gone), never query_one(): a screen popped while it mounted still gets its mount
    event, its children already removed."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.update_classes(breakpoint_classes(self, self.app.size), animate=False)

    def dismiss(self, result=None) -> AwaitComplete:
        if not self.is_active:  # gone already, or another screen on top of it
            return AwaitComplete()
        return super().dismiss(result)
