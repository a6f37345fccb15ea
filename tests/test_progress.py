"""Progress: latched passes and hints survive a restart; a bad file is set aside, not fatal."""

from __future__ import annotations

import json

from tutor.progress import Progress


def test_latch_hints_and_reload(tmp_path):
    path = tmp_path / "p.json"
    p = Progress.load(path, 8)
    assert p.latch(1, "ok") and not p.latch(1, "again")
    assert p.reveal_hint(2, available=2) and p.reveal_hint(2, available=2) and not p.reveal_hint(2, available=2)
    p.go(3)
    p.set_lang("en")
    again = Progress.load(path, 8)
    assert set(again.passed) == {1} and again.passed[1]["message"] == "ok"
    assert again.hints == {2: 2} and again.current == 3 and again.lang == "en" and not again.notice


def test_reset_one_and_all(tmp_path):
    p = Progress.load(tmp_path / "p.json", 8)
    p.latch(1, "a"), p.latch(2, "b"), p.reveal_hint(2, 3)
    p.reset(2)
    assert set(p.passed) == {1} and 2 not in p.hints
    p.reset()
    assert p.passed == {} and Progress.load(tmp_path / "p.json", 8).passed == {}


def test_corrupt_file_is_set_aside(tmp_path):
    path = tmp_path / "p.json"
    path.write_text("{ half written")
    p = Progress.load(path, 8)
    assert p.passed == {} and "moved to" in p.notice
    aside = [f for f in tmp_path.iterdir() if f.name.startswith("p.json.corrupt-")]
    assert len(aside) == 1 and aside[0].read_text() == "{ half written"
    p.latch(1, "ok")
    assert json.loads(path.read_text())["passed"]["1"]["message"] == "ok"


def test_wrong_shape_is_set_aside(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"version": 1, "passed": {"x": 1}}))
    assert "moved to" in Progress.load(path, 8).notice


def test_out_of_range_steps_are_dropped(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"version": 1, "current": 42, "passed": {"9": {"at": "", "message": ""}}}))
    p = Progress.load(path, 8)
    assert p.current == 1 and p.passed == {}


def test_save_is_atomic(tmp_path, monkeypatch):
    """A crash between writing and renaming leaves the previous file whole."""
    path = tmp_path / "p.json"
    p = Progress.load(path, 8)
    p.latch(1, "first")
    import os
    real_replace = os.replace
    monkeypatch.setattr(os, "replace", lambda *a: (_ for _ in ()).throw(OSError(28, "No space left")))
    p.latch(2, "second")
    assert p.save_error == "No space left"
    monkeypatch.setattr(os, "replace", real_replace)
    assert set(Progress.load(path, 8).passed) == {1}
