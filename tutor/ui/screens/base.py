"""What every screen of ours over the lesson keeps to (ClosesItself)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from textual.await_complete import AwaitComplete
from textual.events import ScreenResume
from textual.geometry import Size
from textual.screen import Screen

if TYPE_CHECKING:
    from tutor.cluster.store import Store
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


class StyledOnce(_MixedIntoScreen):
    """Mixed into every screen of ours: styled once, as it comes.

    Textual sets a screen's breakpoint classes at its first resize, after its first layout. A
    short terminal then first showed a pushed screen laid out for a tall one (the finish screen
    with every verdict's sentences, taken away a frame later, and a snapshot taken in between
    kept that frame's scrollbar), and the classes' change styled every widget again. Born with
    them, a screen is styled for its size from the start.

    Textual also styles every widget of a screen again when the screen is first shown (its
    default screen at the start, a pushed one), and found what their mount had just given them:
    a fifth of the tutor's first frame went on it. Only a later showing by a push restyles it
    (none of ours has one: each is built to be shown once)."""

    _shown_once = False

    def __init__(self, *args, **kwargs) -> None:
        born = [name for name, on in breakpoint_classes(self, self.app.size).items() if on]
        kwargs["classes"] = " ".join([kwargs.get("classes") or "", *born]).strip()
        super().__init__(*args, **kwargs)

    def on_screen_resume(self, event: ScreenResume) -> None:
        if not self._shown_once:
            self._shown_once = True
            event.refresh_styles = False  # read by Textual's own handler, which runs after this one


class FollowsTheStore(_MixedIntoScreen):
    """Mixed into a screen over the lesson that is drawn from the store (the timeline): the app
    draws it again after each refresh, while it is open, on top or under a modal."""

    def show(self, store: Store, namespace: str, lang: str) -> None:
        raise NotImplementedError


class LessonApp(Protocol):
    """What the screens over the lesson read of the app: the TutorApp (tutor/ui/app.py), whose
    module imports theirs."""

    session: Session


def lesson_app(screen: Screen[Any]) -> LessonApp:
    """The app the screen is on, as a LessonApp."""
    return screen.app  # type: ignore[return-value]  # Textual types it as any App; it is the TutorApp


class ClosesItself(StyledOnce):
    """Mixed into every screen pushed over the lesson.

    Textual's dismiss pops the screen on top, whichever it is, and the pop takes effect a turn
    later: a second esc, enter or n queued before it (keys arrive in bursts) dismissed the
    screen beneath, down to the lesson's own, and the app ended. A screen dismisses only
    itself, once; later keys do nothing. Its handlers find their widgets with query() (none
    once it is gone), never query_one(): a screen popped while it mounted still gets its mount
    event, its children already removed."""

    def dismiss(self, result=None) -> AwaitComplete:
        if not self.is_active:  # gone already, or another screen on top of it
            return AwaitComplete()
        return super().dismiss(result)
