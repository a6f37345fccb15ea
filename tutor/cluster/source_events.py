"""What sources hand to the store: small immutable records, the same for live and replay."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from tutor.cluster.failure import Failure
from tutor.cluster.objects import Obj


class Conn(str, Enum):
    """Per-resource connection state shown in the header and on each pane."""

    CONNECTING = "connecting"
    OK = "ok"
    RECONNECTING = "reconnecting"
    FORBIDDEN = "forbidden"
    CRD_MISSING = "crd-missing"
    ENDED = "ended"  # a replay that has played to its end


@dataclass(frozen=True)
class ObjectEvent:
    """One watch event: type is ADDED, MODIFIED or DELETED; obj is the raw API dict."""

    type: str
    obj: Obj
    t: float


@dataclass(frozen=True)
class Relisted:
    """A full list of one resource; everything of that kind not in it is gone."""

    kind: str
    objs: list[Obj]
    t: float


@dataclass(frozen=True)
class FileChanged:
    """An answer file's new text, or None when it was deleted."""

    name: str
    content: str | None
    t: float
    # The file's mtime (wall clock, epoch seconds) when known: a recording made after the file
    # was written keeps when it was written, not only when the recorder first read it.
    written_at: float | None = None


@dataclass(frozen=True)
class SourceState:
    resource: str
    state: Conn
    detail: str = ""
    t: float = 0.0
    failure: Failure | None = None  # why a request failed, in both languages



@dataclass(frozen=True)
class ShowStep:
    """A source asks the UI to show a step, with an optional note to toast. The demo follows the
    lab this way: the item sits in the stream right after the data that passed the step before,
    so the view moves on in order with the data however late the UI runs."""

    step: int
    t: float
    title: tuple[str, str] = ("", "")  # a note to toast, as (English, Korean)
    body: tuple[str, str] = ("", "")  # (English, Korean)
