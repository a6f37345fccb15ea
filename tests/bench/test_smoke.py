"""The benchmark runs (tiny sizes). No timing is asserted here: figures live in BENCHMARKS.md."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bench.synth import WALKTHROUGH, Cloner, parse
from tutor.cluster import objects as o
from tutor.lesson.loader import load
from tutor.session import Session

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, tmp_path: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"), "KUBECONFIG": "", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, timeout=300,
                          env=env, cwd=ROOT, stdin=subprocess.DEVNULL)


def test_clones_keep_the_real_shapes():
    c = Cloner()
    s = Session(load(), "/nonexistent", "en")
    for line in c.population(3):
        s.apply(parse(line))
    pods = {o.name(p): p for p in s.store.pods_of("fleet", "infer")}
    assert sorted(pods) == ["fleet-0", "fleet-0-1", "fleet-1", "fleet-1-1", "fleet-2", "fleet-2-1"]
    assert all(o.phase(p) == "Running" for p in pods.values())
    assert o.group_index(pods["fleet-2-1"]) == 2 and o.worker_index(pods["fleet-2-1"]) == 1
    assert len({o.uid(p) for p in pods.values()}) == 6
    for line in c.storm(3, len(c.update) * 3):  # one rolling update of every group
        s.apply(parse(line))
    pods = s.store.pods_of("fleet", "infer")
    assert len(pods) == 6 and {o.revision(p) for p in pods} == {Cloner.revision(1)}
    assert all(o.phase(p) == "Running" and not o.is_terminating(p) for p in pods)


def test_app_run_reports_every_figure(tmp_path):
    res = run("tests.bench.app_run", "--pods", "30", "--rate", "50", "--stream-seconds", "0.5", "--burst", "120",
              "--idle", "0.2", tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr[-3000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out["pods_in_namespace"] == 30
    assert out["reaction_shown"] == out["reaction_events"] == 25
    assert out["burst_final_state_ok"] is True
    for key in ("reaction_p50_ms", "reaction_p99_ms", "burst_settled_s", "burst_stall_ms", "idle_cpu_pct", "rss_peak_mb"):
        assert isinstance(out[key], (int, float)), key


def test_first_frame_run(tmp_path):
    res = run("tests.bench.firstframe", "--replay", str(WALKTHROUGH),
              tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr[-3000:]
    float(res.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("app", ["--bare", "--widgets"])
def test_plain_textual_first_frame_run(tmp_path, app):
    res = run("tests.bench.firstframe", app, tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr[-3000:]
    float(res.stdout.strip().splitlines()[-1])


def test_calibration_reports_both_parts(tmp_path):
    res = run("tests.bench.calibrate", tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr[-3000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out["json_lines"] == sum(1 for line in WALKTHROUGH.read_text().splitlines() if line.strip())
    assert len(out["json_runs_s"]) == len(out["python_runs_s"]) == out["repeats"]
    assert out["json_s"] > 0 and out["python_s"] > 0


def test_replay_reaction_times_every_pod_change_and_splits_each_refresh(tmp_path):
    res = run("tests.bench.replayreact", "--speed", "0", "--size", "100x30", tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr[-3000:]
    out = json.loads(res.stdout)
    assert out["passed"] == list(range(1, 9))
    assert out["store_to_screen"]["n"] > 0 and out["updates_with_layout"]["n"] > 0
    assert set(out["phases"]) == {"wait", "checks", "panes", "to_frame"}
