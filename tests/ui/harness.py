"""Builds the tutor app the way `lwstutor --replay FILE` does, for Pilot and snapshot tests."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

from tutor.cli import build_parser
from tutor.commands.setup import lesson_for, progress_for, session_for
from tutor.commands.tui import start_replay
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
    rec = args._recording if upto is None else args._recording.until(upto)
    return TutorApp(session, context="replay", replay=True,
                    start_sources=partial(start_replay, rec, speed, use_files=True, poll=False))

