"""Regenerates the committed recordings from the real lab control plane.

    python -m tests.e2e.record_lab                 # every scenario, in place
    python -m tests.e2e.record_lab walkthrough     # just one

The wrong turns go to tests/data/recordings/; the walkthrough goes to tutor/demo/, because it
ships with the package as `lwstutor demo`. The late starts (`late-*`) do part of the lab before
the recorder starts, as a learner who starts the tutor, or runs `check`, only then.

Each scenario gets a fresh lab (about 10 s to start), a scripted learner and `lwstutor record`
running beside it, exactly as a learner would run the tutor beside their shell. A recording
ends once it has caught up with the cluster: every object the cluster holds appears in it at
its current resourceVersion.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from tests import waits
from tests.conftest import recording_path
from tests.e2e.labcluster.lab import Lab, up
from tests.e2e.learner import GANG_SCENARIOS, LATE_STARTS, NS, OTHER_LESSONS, WRONG_TURNS, Learner, nothing, walkthrough
from tutor.lesson.loader import load

ROOT = Path(__file__).resolve().parents[2]
KINDS = ("pods", "leaderworkersets", "events", "statefulsets")
# What each lesson watches besides (lesson.yaml `kinds`), by the watch's name.
LESSON_KINDS = {"gang": ("podgroups",)}


# name -> (what the learner does before the recorder starts, what while it records)
SCENARIOS = {"walkthrough": (nothing, walkthrough), **{k: (nothing, f) for k, f in WRONG_TURNS.items()},
             **LATE_STARTS, **{k: (nothing, f) for k, (_, f) in OTHER_LESSONS.items()}, **GANG_SCENARIOS}


def last_versions(path: Path) -> dict[tuple[str, str, str], str]:
    """(kind, name, uid) -> the last resourceVersion recorded ("" once deleted). By UID: an
    object made again under its old name (a StatefulSet of a group made again) can be added
    before the old one's deletion is seen."""
    seen: dict[tuple[str, str, str], str] = {}
    for line in path.read_text().splitlines()[1:]:
        rec = json.loads(line)
        if "object" in rec:
            meta = rec["object"].get("metadata", {})
            key = (rec["object"].get("kind", ""), meta.get("name", ""), meta.get("uid", ""))
            seen[key] = "" if rec["type"] == "DELETED" else meta.get("resourceVersion", "")
    return seen


def lagging(lab: Lab, path: Path, lesson: str = "lws") -> list[str]:
    """The objects the cluster holds at a resourceVersion the recording has not reached."""
    seen = last_versions(path)
    out = []
    for kind in (*KINDS, *LESSON_KINDS.get(lesson, ())):
        items = json.loads(lab.kubectl("get", kind, "-n", NS, "-o", "json").stdout)["items"]
        for obj in items:
            key = (obj["kind"], obj["metadata"]["name"], obj["metadata"]["uid"])
            if seen.get(key) != obj["metadata"]["resourceVersion"]:
                out.append(f"{key[0]}/{key[1]} {seen.get(key)} != {obj['metadata']['resourceVersion']}")
    return out


def caught_up(lab: Lab, path: Path, lesson: str = "lws") -> bool:
    return not lagging(lab, path, lesson)


# Recorded on the KWOK-only lab: LWS emitting RecreateGroup for group 1 during a rollout is a race
# seen in about 1 of 8 rollouts there; on the real node, whose old pods wait out their grace
# period, 7 rollouts in a row (26 minutes) never showed it.
KWOK_ONLY = {"late-after-rollout-recreated-group1"}


def record(name: str, out_dir: Path | None) -> Path:
    lab = up(node="kwok") if name in KWOK_ONLY else up()
    out = out_dir / f"{name}.jsonl" if out_dir else recording_path(name)
    try:
        with tempfile.TemporaryDirectory(prefix="gsb-lws-") as tmp:
            workdir = Path(tmp) / "gsb-lws"
            workdir.mkdir()
            # A new file, read as it grows (caught_up): a recording written over an old one would
            # go to a temp file until the end. It replaces the committed one only once complete.
            fresh = Path(tmp) / out.name
            env = {**os.environ, "XDG_STATE_HOME": tmp}
            before, during = SCENARIOS[name]
            lesson = OTHER_LESSONS[name][0] if name in OTHER_LESSONS else "lws"
            before(Learner(lab, workdir))  # a late start, or the lesson before: the tutor sees only what is left
            rec = subprocess.Popen(
                [sys.executable, "-m", "tutor", "record", str(fresh), "--kubeconfig", str(lab.kubeconfig),
                 "--workdir", str(workdir), "--lesson", lesson, "--lws-version", lab.versions["LWS_VERSION"]],
                env=env, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            ready, log = threading.Event(), []
            watched = {"pods", "leaderworkersets", "events", "statefulsets", "nodes", *LESSON_KINDS.get(lesson, ())}
            threading.Thread(target=_follow, args=(rec.stderr, log, ready, watched), daemon=True).start()
            try:
                ln = Learner(lab, workdir)
                ln.wait("recorder listed every resource", ready.is_set, timeout=waits.LAB)
                during(ln)
                ln.wait("recording caught up", lambda: caught_up(lab, fresh, lesson), timeout=waits.LAB,
                        seen=lambda: ", ".join(lagging(lab, fresh, lesson)[:5]))
            except AssertionError:
                print(f"the recorder said:\n{''.join(log)}", file=sys.stderr)  # a watch that stopped says so
                raise
            finally:
                rec.send_signal(signal.SIGTERM)
                rec.wait(timeout=30)
            if rec.returncode not in (0, 130):
                raise RuntimeError(f"lwstutor record failed ({rec.returncode}): {''.join(log)}")
            _relocate_workdir(fresh, str(workdir), load(lesson).workdir)
            shutil.move(fresh, out)
    finally:
        lab.stop()
    lab.remove()
    return out


def _follow(stream, log: list, ready: threading.Event, watched: set[str]) -> None:
    """Reads the recorder's status lines; ready once every watched resource has listed."""
    ok = set()
    for line in stream:
        log.append(line)
        parts = line.split()
        if len(parts) >= 3 and parts[0] == "lwstutor:" and parts[2] == "ok":
            ok.add(parts[1].rstrip(":"))
            if ok >= watched:
                ready.set()


def _relocate_workdir(path: Path, workdir: str, lab_workdir: str) -> None:
    """Recordings say the lesson's workdir, not the temp dir the scenario used."""
    lines = path.read_text().splitlines()
    head = json.loads(lines[0])
    head["workdir"] = lab_workdir
    lines[0] = json.dumps(head, separators=(",", ":"))
    path.write_text("\n".join(lines) + "\n")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.e2e.record_lab")
    p.add_argument("scenarios", nargs="*", default=[], metavar="SCENARIO",
                   help=f"any of: {', '.join(SCENARIOS)} (default: all)")
    p.add_argument("--out", type=Path, help="write every recording into this directory instead")
    args = p.parse_args(argv)
    unknown = [s for s in args.scenarios if s not in SCENARIOS]
    if unknown:
        p.error(f"unknown scenario {unknown[0]!r}; choose from {', '.join(SCENARIOS)}")
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    for name in args.scenarios or SCENARIOS:
        start = time.monotonic()
        path = record(name, args.out)
        print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: "
              f"{len(path.read_text().splitlines())} lines, {time.monotonic() - start:.0f}s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
