"""Where the palette's Screenshot saves its SVG, and how that is said.

Textual saves it in the Downloads folder and, where there is none (a lab VM, a container),
fails with an English notice and writes nothing. Here: Downloads when it exists, else the
tutor's own state directory (where its progress lives), made if needed. Never the working
directory: it is the learner's, with their answer files."""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_downloads_path

from tutor.progress import state_dir


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


def shown_path(path: Path) -> str:
    """The path with the home directory as ~, as a learner would type it."""
    home = Path.home()
    try:
        return "~/" + str(path.relative_to(home))
    except ValueError:
        return str(path)


def brief_error(exc: BaseException) -> str:
    """An OSError as its reason and file (no errno), anything else as its message."""
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.strerror}: {exc.filename}" if exc.filename else exc.strerror
    return str(exc) or type(exc).__name__
