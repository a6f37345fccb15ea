"""Malformed cluster data: objects missing labels, status or containers, or holding values of
the wrong type. The store, the checkers and the pane renderers take them without raising, and
the affected step says what is wrong (fail, or error, with a reason).

The objects come from a real recording (the walkthrough the demo ships) and are
mutated here; the CLI and the app are driven with a recording file written from them.
"""

from __future__ import annotations

import copy
import io
import json
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from tests import waits
from tests.conftest import recording_path
from tests.states import state
from tests.ui.harness import make_app
from tests.ui.settle import settled, step_drawn
from tutor.checks.verdict import Status
from tutor.cluster import objects as o
from tutor.cluster.source_events import ObjectEvent
from tutor.cluster.story import build as story_build
from tutor.ui.panes.events import event_blocks, lesson_events
from tutor.ui.panes.groups import groups_view
from tutor.ui.panes.pods import PodRows
from tutor.ui.screens.timeline_view import story_view

NS = "infer"

# --- the mutations, applied to every version of one object in the recording ------------------


def _set(obj: dict, path: tuple, value) -> None:
    cur = obj
    for key in path[:-1]:
        cur = cur.setdefault(key, {})
    cur[path[-1]] = value


def _drop(obj: dict, path: tuple) -> None:
    cur = obj
    for key in path[:-1]:
        cur = cur.get(key, {})
    cur.pop(path[-1], None)


def _first_container(obj: dict, key: str, value) -> None:
    cs = o.dig(obj, "spec", "containers")
    assert isinstance(cs, list) and cs, "the recorded pod has containers"
    cs[0][key] = value


def _statuses(obj: dict, **fields) -> None:
    for c in o.container_statuses(obj):
        c.update(fields)


def mutate_recording(dest: Path, mutations: list[tuple[str, str, callable]], source: str = "walkthrough") -> Path:
    """Copies a committed recording to dest, applying fn(obj) to every version of each
    (kind, name) object; returns dest."""
    lines = recording_path(source).read_text(encoding="utf-8").splitlines()
    out = [lines[0]]
    hits = {(k, n): 0 for k, n, _ in mutations}
    for raw in lines[1:]:
        rec = json.loads(raw)
        obj = rec.get("object")
        if isinstance(obj, dict):
            for k, n, fn in mutations:
                if o.kind(obj) == k and (o.name(obj) == n or n == "*"):
                    fn(obj)
                    hits[(k, n)] += 1
        out.append(json.dumps(rec, ensure_ascii=False))
    assert all(hits.values()), f"a mutation matched nothing: {hits}"
    dest.write_text("\n".join(out) + "\n", encoding="utf-8")
    return dest


def _recreate_event(ev: dict) -> bool:
    return o.event_reason(ev) in ("RecreateGroup", "RecreateGroupOnPodRestart")


def _strip_recreate_evidence(obj: dict) -> None:
    """Neither LWS's RecreateGroup event nor the kubelet's (a restarted container's Created and
    Started, counted twice) says what it is about any more."""
    if o.kind(obj) == "Event" and (_recreate_event(obj) or o.event_reason(obj) in ("Created", "Started", "BackOff")):
        obj.pop("involvedObject", None)
        obj.pop("regarding", None)


# (case, mutations, step, expected status, words the message or details must hold)
CASES = [
    ("lws replicas is a string",
     [("LeaderWorkerSet", "llm", lambda x: _set(x, ("spec", "replicas"), "two"))],
     1, "fail", ["differs", "spec.replicas is two"]),
    ("lws leaderWorkerTemplate is a list",
     [("LeaderWorkerSet", "llm", lambda x: _set(x, ("spec", "leaderWorkerTemplate"), [1, 2]))],
     1, "fail", ["differs", "workerTemplate is missing"]),
    ("pod labels are a list",
     [("Pod", "llm-0", lambda x: _set(x, ("metadata", "labels"), ["group-index", "0"]))],
     2, "fail", ["llm-0", "no LWS labels"]),
    ("pod has no labels",
     [("Pod", "llm-1-1", lambda x: _drop(x, ("metadata", "labels")))],
     2, "fail", ["llm-1-1", "no LWS labels"]),
    ("group-index label is a superscript digit",
     [("Pod", "llm-0", lambda x: x["metadata"]["labels"].update({o.GROUP_INDEX_LABEL: "\u00b2"}))],
     2, "fail", ["group= of llm-0 does not match its group-index label"]),
    ("containers is null",
     [("Pod", "llm-1-1", lambda x: _set(x, ("spec", "containers"), None))],
     3, "fail", ["llm-1-1 has no LWS_ variables"]),
    ("env is not a list",
     [("Pod", "llm-1-1", lambda x: _first_container(x, "env", {"LWS_GROUP_SIZE": "2"}))],
     3, "fail", ["llm-1-1 has no LWS_ variables"]),
    ("podIP is an int",
     [("Pod", "llm-1", lambda x: _set(x, ("status", "podIP"), 170524674))],
     4, "fail", ["does not contain the current IP of leader pod llm-1"]),
    ("events lose involvedObject and no restart is seen",
     [("Event", "*", _strip_recreate_evidence),
      ("Pod", "llm-0-1", lambda x: _statuses(x, restartCount="many", name=["c"]))],
     5, "fail", ["no sign that LWS recreated group 0"]),
    ("container status name is a list",
     [("Pod", "*", lambda x: _statuses(x, name=["llm"], lastState="gone"))],
     None, None, []),
    ("pod status is missing",
     [("Pod", "wide-0-1", lambda x: _drop(x, ("status",)))],
     7, "waiting", ["wide-0-1: Unknown"]),
    ("pod status is a string",
     [("Pod", "orphan-0", lambda x: _set(x, ("status",), "Running"))],
     8, "waiting", ["orphan-0", "(Unknown)"]),
    ("lws status conditions are junk",
     [("LeaderWorkerSet", "llm", lambda x: _set(x, ("status", "conditions"), [None, "Available", {"type": ["x"]}]))],
     6, "waiting", ["Available=False"]),
    ("node labels are a list",
     [("Node", "gpu-a", lambda x: _set(x, ("metadata", "labels"), ["type=kwok"]))],
     7, "fail", ["gpu-a", "not a KWOK node"]),
]


def _verdict_text(v: dict) -> str:
    return " ".join([v["message"], *v["details"]])


def test_each_case_through_check_replay(tmp_path):
    """`lwstutor check --replay` on a mutated recording: no traceback, a clear verdict."""
    for name, muts, step, status, words in CASES:
        rec = mutate_recording(tmp_path / "rec.jsonl", muts)
        res = subprocess.run([sys.executable, "-m", "tutor", "check", "--json", "--lang", "en", "--replay", str(rec)],
                             capture_output=True, text=True, timeout=waits.PROCESS, stdin=subprocess.DEVNULL)
        assert res.returncode in (0, 1, 3), (name, res.stderr)
        assert "Traceback" not in res.stderr, (name, res.stderr)
        steps = {s["step"]: s for s in json.loads(res.stdout)["steps"]}
        assert all(s["status"] in ("pass", "fail", "waiting", "error", "unconfirmed") and s["message"] for s in steps.values())
        assert not any(s["status"] == "error" for s in steps.values()), (name, steps)
        if step is None:
            continue
        got = steps[step]
        assert "live" not in got, (name, "the step passed earlier in the recording", got)
        assert got["status"] == status, (name, got)
        text = _verdict_text(got)
        assert all(w in text for w in words), (name, text)


async def test_malformed_recording_in_the_app(tmp_path):
    """The running app takes the same mutated objects: no exception, the panes draw, and the
    verdict box of the affected step shows the reason."""
    overlapping = ("env is not a list", "group-index label is a superscript digit")  # one change per pod
    muts = [m for name, ms, *_ in CASES if name not in overlapping for m in ms]
    rec = mutate_recording(tmp_path / "rec.jsonl", muts)
    app = make_app(rec, state_file=tmp_path / "p.json")
    async with app.run_test(size=(120, 45)) as pilot:
        await settled(pilot)
        for step, words in ((2, ["no LWS labels"]), (3, ["has no LWS_ variables"]), (5, ["no sign that LWS"])):
            await pilot.press(str(step))
            await step_drawn(pilot, step)
            box = app.query_one("#verdict").text()
            assert "FAIL" in box and all(w in box for w in words), (step, box)
        assert app.query_one("#pods").row_count == 10
        assert app.return_code is None and app.is_running


# --- arbitrary damage: any value at any path of any object ------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10**12) | st.floats(allow_nan=True) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
_BASE = None


def _base():
    global _BASE
    if _BASE is None:
        _BASE = state("walkthrough")
    return _BASE


def _damage(draw, obj: dict) -> dict:
    obj = copy.deepcopy(obj)
    parent, key, cur = None, None, obj
    depth = draw(st.integers(1, 6))
    for _ in range(depth):
        if isinstance(cur, dict) and cur:
            k = draw(st.sampled_from(sorted(cur)))
        elif isinstance(cur, list) and cur:
            k = draw(st.integers(0, len(cur) - 1))
        else:
            break
        parent, key, cur = cur, k, cur[k]
    if parent is None:
        return obj
    if isinstance(parent, dict) and draw(st.booleans()):
        del parent[key]
    else:
        parent[key] = draw(JSON)
    return obj


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_damage_never_raises(data):
    s = copy.deepcopy(_base())
    objs = [obj for kind in ("Pod", "LeaderWorkerSet", "Event", "StatefulSet", "Node")
            for obj in s.store.all(kind)]
    for _ in range(data.draw(st.integers(1, 3))):
        obj = data.draw(st.sampled_from(objs))
        bad = _damage(data.draw, obj)
        md = bad.get("metadata")
        if isinstance(md, dict):
            md["resourceVersion"] = "damaged"
        s.apply(ObjectEvent(data.draw(st.sampled_from(["MODIFIED", "ADDED", "DELETED"])), bad, s.store.now + 1))
    s.evaluate()
    for n, v in s.verdicts.items():
        assert v.status in Status and v.message
        # Tolerant readers: damage is judged, it never makes a checker raise.
        assert v.status is not Status.ERROR, (n, v)
    con = Console(file=io.StringIO(), width=80)
    con.print(groups_view(s.store, NS))
    for block in event_blocks(s.store, NS):
        con.print(block)
    rows = PodRows()
    rows.update(s.store, NS)
    for cells in rows.cells.values():
        con.print(*cells)
    # the timeline too: the story is built and drawn without raising (a verdict would hide it)
    con.print(story_view(story_build(s.store, NS), "en", NS))
    assert not any("could not be told" in d for v in s.verdicts.values() for d in v.details)


def test_event_without_involved_object_is_kept_out_of_the_panes():
    """An event that names no object is kept (the store holds what the API sent) but belongs
    to no pane and to no step's evidence."""
    s = state("walkthrough")
    ev = copy.deepcopy(next(e for e in s.store.all("Event") if _recreate_event(e)))
    ev.pop("involvedObject", None)
    ev["metadata"].update(uid="no-involved-object", name="no-involved-object", resourceVersion="1")
    assert s.apply(ObjectEvent("ADDED", ev, s.store.now + 1))
    assert ev in s.store.events_for(NS)
    assert ev not in lesson_events(s.store, NS)
    assert all(o.event_regarding(e) for e in lesson_events(s.store, NS))
