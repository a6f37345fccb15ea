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
    assert p.passed == {} and "moved it to" in p.notice
    aside = [f for f in tmp_path.iterdir() if f.name.startswith("p.json.corrupt-")]
    assert len(aside) == 1 and aside[0].read_text() == "{ half written"
    p.latch(1, "ok")
    assert json.loads(path.read_text())["passed"]["1"]["message"] == "ok"


def test_wrong_shape_is_set_aside(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"version": 1, "passed": {"x": 1}}))
    assert "moved it to" in Progress.load(path, 8).notice


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


def test_a_solution_shown_is_kept_and_marks_the_pass_after_it(tmp_path):
    path = tmp_path / "p.json"
    p = Progress.load(path, 8)
    p.latch(1, "before")
    assert p.show_solution(1) and p.show_solution(2) and not p.show_solution(2)  # the first time counts
    p.latch(2, "after")
    again = Progress.load(path, 8)
    assert set(again.solutions) == {1, 2} and again.solutions[2] == p.solutions[2]
    assert not again.after_solution(1) and again.after_solution(2) and not again.after_solution(3)
    assert json.loads(path.read_text())["passed"]["2"]["after_solution"] is True


def test_a_reset_forgets_passes_and_hints_not_a_solution_seen(tmp_path):
    p = Progress.load(tmp_path / "p.json", 8)
    p.reveal_hint(3, 2), p.show_solution(3), p.latch(3, "x")
    p.reset(3)
    assert 3 not in p.passed and 3 not in p.hints and 3 in p.solutions
    p.latch(3, "again")
    p.reset()
    assert p.passed == {} and 3 in Progress.load(tmp_path / "p.json", 8).solutions
    p.latch(3, "once more")
    assert p.after_solution(3)


def test_a_file_from_before_solutions_loads_as_it_was(tmp_path):
    """The previous version wrote no "solutions" and no "after_solution": same version, same steps."""
    path = tmp_path / "p.json"
    old = {"version": 1, "current": 4, "lang": "ko", "passed": {"1": {"at": "2025-01-01T00:00:00+0000", "message": "ok"}},
           "hints": {"4": 2}}
    path.write_text(json.dumps(old, indent=1))
    p = Progress.load(path, 8)
    assert not p.notice and p.current == 4 and p.hints == {4: 2} and set(p.passed) == {1}
    assert p.solutions == {} and not p.after_solution(1)
    p.show_solution(4)
    saved = json.loads(path.read_text())
    assert saved["version"] == 1 and saved["passed"] == old["passed"] and saved["hints"] == old["hints"]
    assert list(saved["solutions"]) == ["4"]


def test_peek_reads_only(tmp_path):
    path = tmp_path / "p.json"
    Progress.load(path, 8).show_solution(2)
    before = path.read_text()
    p = Progress.peek(path, 8)
    assert set(p.solutions) == {2} and p.path is None
    p.show_solution(3)  # kept in memory only
    assert path.read_text() == before
    path.write_text("{ half written")
    assert Progress.peek(path, 8).solutions == {} and path.read_text() == "{ half written"  # left where it is
    assert Progress.peek(tmp_path / "missing.json", 8).solutions == {}
