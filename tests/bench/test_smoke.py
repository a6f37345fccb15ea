"""The benchmark runs (tiny sizes). No timing is asserted here: figures live in BENCHMARKS.md."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
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
    # Every event is shown by a frame: each refresh is timed by one, even when nothing in view changed.
    assert out["reaction_shown"] == out["reaction_events"] == 25
    assert out["burst_final_state_ok"] is True
    for key in ("reaction_p50_ms", "reaction_p99_ms", "burst_settled_s", "burst_stall_ms", "idle_cpu_pct", "rss_peak_mb"):
        assert isinstance(out[key], (int, float)), key


def test_first_frame_run(tmp_path):
    res = run("tests.bench.firstframe", "--replay", str(WALKTHROUGH),
              tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr[-3000:]
    *_, cpu, wall = res.stdout.strip().splitlines()
    float(wall)
    assert cpu.startswith("cpu ") and float(cpu.split()[1]) > 0


@pytest.mark.parametrize("app", ["--bare", "--widgets"])
def test_plain_textual_first_frame_run(tmp_path, app):
    res = run("tests.bench.firstframe", app, tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr[-3000:]
    *_, cpu, wall = res.stdout.strip().splitlines()
    float(wall)
    assert cpu.startswith("cpu ") and float(cpu.split()[1]) > 0


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


def test_replays_compare_every_pane_with_the_store_and_find_no_mismatch(tmp_path):
    """One run of the walkthrough replayed with the oracle on: it checked, and every pane equalled
    its rebuild from the store (the dumped mismatches are shown when one did not)."""
    res = run("tests.bench.replays", "1", tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr[-3000:]
    out = json.loads(res.stdout)
    summary, first = out["summary"], out["runs"][0]
    assert summary["settled"] == 1, first.get("not_settled")
    assert summary["oracle_checks"] > 0 and first["last_check_mismatches"] is not None
    dumped = Path(first["oracle_dump"]).read_text() if "oracle_dump" in first else ""
    assert summary["oracle_mismatches"] == 0, dumped
    assert first["passed"] == list(range(1, first["steps"] + 1))


def test_served_lab_times_each_change_on_every_screen():
    from tests.bench.servedlab import figures

    printed = {("llm-0", "10"): 100.0, ("llm-0", "11"): 100.5}
    terminal = [{"event": "item", "i": 1, "kind": "Pod", "name": "llm-0", "rv": "10", "t": 100.01},
                {"event": "frame", "t": 100.1, "upto": 1},
                {"event": "item", "i": 2, "kind": "Pod", "name": "llm-0", "rv": "11", "t": 100.51},
                {"event": "frame", "t": 100.6, "upto": 2}]
    served = [{**r, "t": r["t"] + 0.05} for r in terminal]
    arrivals = [[100_152.0, 100_160.0], [100_652.0, 100_660.0]]
    out = figures([("apply -f lws.yaml", 99.9), ("scale leaderworkerset llm", 100.4)], printed, terminal, served,
                  arrivals)
    assert [a["pod"] for a in out["actions"]] == ["llm-0@10", "llm-0@11"]
    first = out["actions"][0]
    assert round(first["kubectl_s"], 3) == 0.1 and round(first["terminal_s"], 3) == 0.2
    assert round(first["served_frame_s"], 3) == 0.25 and round(first["browser_frame_s"], 3) == 0.26
    assert out["pod_changes_on_both_screens"] == 2 and out["command_to_browser_animation_frame"]["n"] == 2
    assert out["served_frame_to_websocket_message"]["n"] == 2


def test_served_lab_serves_the_servers_own_tab_command_with_its_hooks():
    from tests.bench.servedlab import bench_command
    from tutor.cli import build_parser
    from tutor.commands.serve import tutor_command

    args = build_parser().parse_args(["serve", "--kubeconfig", "/nonexistent/kubeconfig"])
    cmd = bench_command(tutor_command(args, "en", "/nonexistent/failed.json"))
    assert " -P -m tests.bench.servedlab_tutor --failure-file " in cmd


def test_served_lab_hooks_run_under_the_real_server_in_chromium(tmp_path):
    """The served tutor with its hooks under `lwstutor serve`, a replay in place of the lab, one
    Chromium tab: frames reported, messages timed, every process stopped."""
    pytest.importorskip("playwright")
    from playwright.sync_api import sync_playwright

    from tests.bench import servedlab as sl
    from tests.serve.browser import CHROMIUM
    from tutor.demo import walkthrough

    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no {CHROMIUM}")
    reports = tmp_path / "served.jsonl"
    server = sl.Server(["--replay", str(walkthrough()), "--speed", "0", "--state-file", str(tmp_path / "p.json"),
                        "--lang", "en", "--host", "127.0.0.1", "--port", "0"], reports)
    started: set = set()
    try:
        before = sl.descendants(os.getpid())
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--disable-dev-shm-usage"])
            try:
                page = sl.open_tab(browser, server.url(), (1000, 700))
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline and not any(r["event"] == "frame" for r in sl.reports(reports)):
                    time.sleep(0.5)
                time.sleep(2)
                arrivals = page.evaluate("window.__arrivals")
                started |= {d for d in sl.descendants(os.getpid()) - before if sl.browser_process(d[0])}
                started |= sl.descendants(server.proc.pid)
            finally:
                browser.close()
    finally:
        sl.stop(server.proc)
        sl.kill_left(started)
    served = sl.reports(reports)
    printed = {(r["name"], r["rv"]): r["t"] for r in served if r["event"] == "item" and r["kind"] == "Pod"}
    out = sl.figures([], printed, served, served, arrivals)
    assert out["pod_changes_on_both_screens"] > 0 and out["served_frame_to_websocket_message"]["n"] > 0


def test_class_load_reports_every_figure(tmp_path):
    res = run("tests.bench.class_load", "--quick", tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr[-3000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out["learners"] == 12 and out["bursts"] >= 1 and out["refused"] == 0
    # Every change accepted was seen by the instructor's poller (a superseded one is not waited for).
    assert out["reports"] >= out["learners"] and out["seen"] > 0 and out["unseen"] == 0
    assert out["heartbeats"] > 0 and out["server_n"] > 0
    for key in ("seen_p50_ms", "seen_p99_ms", "server_p50_ms", "server_p99_ms", "server_cpu_pct", "rss_peak_mb"):
        assert isinstance(out[key], (int, float)), key
    assert out["db_bytes"] > 0
