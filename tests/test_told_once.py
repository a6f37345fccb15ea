"""No fact is told twice: along every recording, `lwstutor check --replay` says each line of a
step's verdict once (in both languages).

An Event the cluster counted twice (an events.k8s.io series: its first and its last time) was told
at both times, and when both fell in the same tenth of a second the verdict's timeline read
"07:09:37.4 all groups ready" twice, at the moment a group was being recreated."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.cli import main

ROOT = Path(__file__).resolve().parent.parent
RECORDINGS = sorted([*ROOT.glob("tests/data/recordings/*.jsonl"), *ROOT.glob("tests/data/lessons/*.jsonl"),
                     *ROOT.glob("tutor/demo/*.jsonl")])
MARKS = ("✓", "✗", "?", "…", "!")


def blocks(text: str) -> list[list[str]]:
    """The output cut into one block per step: its verdict line and the lines under it."""
    out: list[list[str]] = []
    for line in text.splitlines():
        if line[:1] in MARKS or not out:
            out.append([])
        if line.strip():
            out[-1].append(line.strip())
    return out


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("path", RECORDINGS, ids=lambda p: p.name)
def test_each_line_of_a_verdict_is_said_once(path: Path, lang: str, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.chdir(tmp_path)
    main(["check", "--replay", str(path), "--lang", lang])
    out = capsys.readouterr()
    said = blocks(out.out)
    assert len(said) >= 2, f"no verdicts were printed: {out.err.strip()}"
    twice = [line for block in said for i, line in enumerate(block) if line in block[:i]]
    assert not twice, f"told twice: {twice[0]!r}"
