"""The second lesson (lessons/scale) runs through the engine as the LWS lab does: played from
its recording made on the lab, judged, and drawn, with no engine code of its own."""

from __future__ import annotations

import json
import subprocess
import sys

from tests import waits
from tests.conftest import recording_path
from tutor.checks import run_checker
from tutor.checks.verdict import Status
from tutor.cluster import objects as o
from tutor.cluster.source_events import FileChanged, ObjectEvent
from tutor.cluster.recording import read
from tutor.lesson.loader import available, load
from tutor.session import Session

REC = recording_path("lesson-scale")


def replayed(stop=None, files: dict | None = None, lang: str = "en") -> Session:
    s = Session(load("scale"), "/root/gsb-scale", lang)
    for item in read(REC).items:
        if stop is not None and stop(item):
            break
        s.apply(item)
    for name, content in (files or {}).items():
        s.apply(FileChanged(name, content, s.store.now))
    return s


def verdict(s: Session, n: int):
    return run_checker(s.lesson.step(n), s.context())


def created(pod: str):
    return lambda it: isinstance(it, ObjectEvent) and it.type == "ADDED" and o.kind(it.obj) == "Pod" and o.name(it.obj) == pod


def test_the_lesson_is_installed_beside_the_lws_lab():
    assert {"lws", "scale"} <= set(available())
    lesson = load("scale")
    assert [s.id for s in lesson.steps] == ["create-solo", "scale-up"]
    assert lesson.step(1).ledger and lesson.step(2).story is None
    assert read(REC).header.lesson == "scale"


def test_the_recording_passes_both_steps_at_its_end():
    s = replayed()
    assert [verdict(s, n).status for n in (1, 2)] == [Status.PASS, Status.PASS]
    assert "solo-0 kept its UID" in verdict(s, 2).message


def test_before_the_scale_step_2_waits_and_step_1_passes():
    scaled = lambda it: isinstance(it, ObjectEvent) and o.kind(it.obj) == "LeaderWorkerSet" \
        and o.dig(it.obj, "spec", "replicas") == 2  # noqa: E731
    s = replayed(stop=scaled)
    assert verdict(s, 1).passed
    v = verdict(s, 2)
    assert v.status is Status.WAITING and "asks for 2" in v.message


def test_the_new_groups_pods_are_waited_for():
    s = replayed(stop=created("solo-1-2"))
    v = verdict(s, 2)
    assert v.status is Status.WAITING and any("solo-1-2" in d for d in v.details), v


def test_a_uid_that_is_not_solo_0s_fails_naming_the_written_one_not_the_real_one():
    s = replayed(files={"group0.txt": "solo-0=00000000-0000-0000-0000-000000000000\n"})
    v = verdict(s, 2)
    assert v.status is Status.FAIL and "00000000-0000-0000-0000-000000000000" in v.message
    assert o.uid(s.store.get("Pod", "solo-0", "infer")) not in " ".join((v.message, *v.details))
    assert "metadata.uid" in v.message


def test_a_file_of_the_wrong_size_fails_step_1_in_both_languages():
    bad = "apiVersion: leaderworkerset.x-k8s.io/v1\nkind: LeaderWorkerSet\nmetadata: {name: solo}\n" \
          "spec: {replicas: 1, leaderWorkerTemplate: {size: 2}}\n"
    for lang, word in (("en", "it must be 3"), ("ko", "3(리더 하나와 워커 둘)이어야")):
        v = verdict(replayed(files={"solo.yaml": bad}, lang=lang), 1)
        assert v.status is Status.FAIL and word in v.message, v


def test_check_replay_picks_the_lesson_the_recording_names(tmp_path):
    env = {"XDG_STATE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-m", "tutor", "check", "--replay", str(REC), "--json", "--lang", "en"],
                         capture_output=True, text=True, env=env, timeout=waits.PROCESS)
    report = json.loads(out.stdout)
    assert out.returncode == 0 and report["lesson"] == "scale"
    assert [(st["id"], st["status"]) for st in report["steps"]] == [("create-solo", "pass"), ("scale-up", "pass")]


def test_an_unknown_lesson_is_one_line_naming_those_there_are(tmp_path):
    env = {"XDG_STATE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-m", "tutor", "check", "--lesson", "nope", "--lang", "en"],
                         capture_output=True, text=True, env=env, timeout=waits.PROCESS)
    assert out.returncode == 2 and out.stderr.strip().count("\n") == 0
    assert "--lesson nope" in out.stderr and "lws, scale" in out.stderr and "Traceback" not in out.stderr


def test_a_recording_made_for_another_lesson_is_refused_in_one_line(tmp_path):
    """`check --replay` of the LWS lab's walkthrough with --lesson scale once judged it as the
    scale lesson without a word; a recording that names no lesson was made for the LWS lab."""
    from tests.conftest import WALKTHROUGH

    env = {"XDG_STATE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    for rec, lesson, made_for in ((WALKTHROUGH, "scale", "lws"), (REC, "lws", "scale")):
        for lang, said in (("en", f"was recorded for lesson {made_for}"), ("ko", f"{made_for} 수업을 녹화한 파일입니다")):
            for cmd in (["check"], ["why", "llm-0"], []):
                out = subprocess.run([sys.executable, "-m", "tutor", *cmd, "--replay", str(rec), "--lesson", lesson,
                                      "--lang", lang], capture_output=True, text=True, env=env, timeout=waits.PROCESS,
                                     stdin=subprocess.DEVNULL)
                assert out.returncode == 2 and out.stderr.strip().count("\n") == 0, (cmd, out.stderr)
                assert said in out.stderr and str(rec) in out.stderr and "Traceback" not in out.stderr, out.stderr
    out = subprocess.run([sys.executable, "-m", "tutor", "check", "--replay", str(REC), "--lesson", "scale", "--json"],
                         capture_output=True, text=True, env=env, timeout=waits.PROCESS)
    assert out.returncode == 0, out.stderr


def _terminating(s: Session, pod: str) -> None:
    obj = json.loads(json.dumps(s.store.get("Pod", pod, s.lesson.namespace)))
    obj["metadata"].update(deletionTimestamp="2026-01-01T00:00:00Z", deletionGracePeriodSeconds=30,
                           resourceVersion=obj["metadata"]["resourceVersion"] + "0")
    s.apply(ObjectEvent("MODIFIED", obj, s.store.now))


def test_the_engine_gives_this_lesson_no_advice_about_the_lws_labs_command():
    """A Terminating pod of this lesson gets the engine's facts, not the LWS lab's advice about its
    `sh -c` loop and /tmp/fail (this lesson's command traps SIGTERM already)."""
    for lang in ("en", "ko"):
        s = replayed(stop=created("solo-1"), lang=lang)
        assert verdict(s, 1).passed, verdict(s, 1)
        _terminating(s, "solo-0-1")
        v = verdict(s, 1)
        text = " ".join((v.message, *v.details))
        assert v.status is Status.WAITING and ("grace period (30 s)" in text or "유예 시간(30초)" in text), text
        assert "sh -c" not in text and "trap" not in text and "/tmp/fail" not in text, text
