"""Where the palette's Screenshot saves its SVG, and how that is said.

Textual saves it in the Downloads folder and, where there is none (a lab VM, a container),
fails with an English notice and writes nothing. Here: Downloads when it exists, else the
tutor's own state directory (where its progress lives), made if needed. Never the working
directory: it is the learner's, with their answer files."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from platformdirs import user_downloads_path
from rich.cells import cell_len

from tutor.i18n.bilingual import Said, saying
from tutor.progress import state_dir

SHOT_TIME = "%Y-%m-%dT%H_%M_%S"  # the file's name, lwstutor_2026-12-04T08_53_16.svg


def free_name(folder: Path, when: datetime | None = None) -> str:
    """The screenshot's file name, to the second; with -2, -3 … when one of the same second is
    there already: a second screenshot never writes over the first."""
    stem = f"lwstutor_{(when or datetime.now()).strftime(SHOT_TIME)}"
    name, n = f"{stem}.svg", 1
    while (folder / name).exists():
        n += 1
        name = f"{stem}-{n}.svg"
    return name


def screenshot_dir() -> Path:
    downloads = user_downloads_path()
    if downloads.is_dir():
        return downloads
    own = state_dir()
    try:
        own.mkdir(parents=True, exist_ok=True)
    except OSError:
        pass  # the save fails and says why
    return own


def shown_path(path: Path, room: int | None = None) -> str:
    """The path with the home directory as ~, as a learner would type it. In `room` cells, the
    file's name stays whole and the folders before it give way to "…" (the notices' line would
    cut the end, the name, which is the one part a learner cannot guess)."""
    home = Path.home()
    try:
        whole = "~/" + str(path.relative_to(home))
    except ValueError:
        whole = str(path)
    if room is None or cell_len(whole) <= room:
        return whole
    parts = whole.split("/")
    for kept in range(len(parts) - 2, 0, -1):  # the most folders next to the name that fit
        shorter = "/".join([parts[0], "…", *parts[-kept:]])
        if cell_len(shorter) <= room:
            return shorter
    return "…/" + parts[-1]


def brief_error(exc: BaseException) -> str:
    """An OSError as its reason and file (no errno), anything else as its message."""
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.strerror}: {exc.filename}" if exc.filename else exc.strerror
    return str(exc) or type(exc).__name__


def delivery_words(event, width: int) -> Said:
    """What the learner is told of a screenshot (Textual's DeliveryComplete or DeliveryFailed): where
    it went, the file's name whole in a notices' line `width` cells wide, or why it was not saved."""
    error = getattr(event, "exception", None)
    if error is not None:
        return saying("Screenshot not saved: {err}", "스크린샷을 저장하지 못했습니다: {err}", err=brief_error(error))
    words = ("Screenshot saved: {path}", "스크린샷 저장: {path}")
    # the line, less its padding and the longer of the words: the notice is said again after l
    room = width - 2 - max(cell_len(w.format(path="")) for w in words)
    return saying(*words, path=shown_path(event.path, room) if event.path else "")
