"""Builds the tutor app the way `lwstutor --replay FILE` does, for Pilot and snapshot tests."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

from textual.geometry import Region

from tutor.cli import build_parser
from tutor.commands.setup import lesson_for, progress_for, session_for
from tutor.commands.tui import start_replay, tui_app
from tutor.ui.app import TutorApp

EMPTY_HEADER = {"format": "lwstutor-recording", "version": 1, "namespace": "infer", "workdir": "/root/gsb-lws",
                "started_at": "2026-01-01T00:00:00+00:00", "versions": {}}


def empty_recording(tmp: Path) -> Path:
    p = tmp / "empty.jsonl"
    p.write_text(json.dumps(EMPTY_HEADER) + "\n")
    return p


def make_app(recording: Path, lang: str = "en", speed: float = 0, upto: float | None = None,
             state_file: Path | None = None) -> TutorApp:
    argv = ["--replay", str(recording), "--speed", str(speed), "--lang", lang]
    if state_file:
        argv += ["--state-file", str(state_file)]
    args = build_parser().parse_args(argv)
    lesson = lesson_for(args)
    session = session_for(args, progress_for(args, lesson, replay=True))
    rec = args._recording
    if upto is not None:
        rec.items = [i for i in rec.items if i.t <= upto]
    return TutorApp(session, context="replay", replay=True,
                    start_sources=partial(start_replay, rec, speed, use_files=True, poll=False))


def make_live_app(kubeconfig: Path, workdir: Path, state_file: Path, lang: str = "en") -> TutorApp:
    """The app exactly as `lwstutor --kubeconfig … --workdir …` builds it, on a live cluster."""
    return tui_app(build_parser().parse_args(["--kubeconfig", str(kubeconfig), "--workdir", str(workdir),
                                              "--state-file", str(state_file), "--lang", lang]))


def pane_text(app: TutorApp, selector: str) -> str:
    """What a pane shows, as plain text (all of its content, not only the visible part)."""
    w = app.query_one(selector)
    return "\n".join(line.text.rstrip() for line in w.render_lines(Region(0, 0, w.size.width, w.size.height)))


def pod_cells(app: TutorApp, pod: str) -> dict[str, str]:
    """One row of the pods table, by column name."""
    from tutor.ui.render import POD_COLUMNS

    return dict(zip(POD_COLUMNS, (str(c) for c in app.query_one("#pods").get_row(pod))))
