"""The real lab control plane as a pytest session fixture.

With CI=true these tests never skip: a missing Go toolchain, a failed build or a real node that
cannot run is a failure. Elsewhere, a machine without Go skips them with a one-line reason, and
one that cannot run the real node (not root, no cgroups) runs the KWOK-only lab with a warning
naming why; LAB_NODE=kwok asks for the KWOK-only lab outright.
"""

from __future__ import annotations

import os
import shutil

import warnings

import pytest

from tests.e2e.labcluster.lab import Lab, LabError, node_kind, up
from tests.e2e.learner import Learner


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/e2e/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(autouse=True)
def redrawn_in_turns(monkeypatch):
    """Refreshes at least a quarter of a second apart, and a refresh's panes redrawn one per turn
    of the loop, a quarter of a second apart, as a loaded machine can draw them. A
    test that reads the screen between a change applied and its refresh, or between two panes of
    one refresh (the events pane drawn, the header not yet), fails here in most runs, not once in
    a loaded CI run. No test here times the tutor's drawing; their bounds are tens of seconds."""
    from tutor.ui.refresh import pump

    monkeypatch.setattr(pump, "REFRESH_GAP", 0.25)
    monkeypatch.setattr(pump, "REDRAW_SLICE", 0.0)
    monkeypatch.setattr(pump, "TURN_AFTER", 0.25)


@pytest.fixture(scope="session")
def lab() -> Lab:
    if not shutil.which("go"):
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but Go is not installed: the e2e tests need it to build the lab")
        pytest.skip("Go is not installed: the lab control plane cannot be built here")
    kind = node_kind()
    if kind == "real" and os.environ.get("CI") != "true":
        from tests.e2e.labnode.node import unavailable_reason
        if reason := unavailable_reason():
            warnings.warn(f"the real lab node cannot run here ({reason}): using the KWOK-only lab", stacklevel=2)
            kind = "kwok"
    try:
        the_lab = up(node=kind)
    except LabError as exc:
        pytest.fail(f"lab control plane did not start: {exc}")
    yield the_lab
    the_lab.stop()
    the_lab.remove()


@pytest.fixture
def real_node(lab) -> Lab:
    """The session lab, for tests whose subject is a real container (exec, exit, restart)."""
    if not lab.real_node:
        pytest.skip("the lab's node is KWOK-only here: no container runs")
    return lab


@pytest.fixture(scope="module")
def learner(lab, tmp_path_factory, request) -> Learner:
    """A learner with a fresh workdir, starting and leaving with no LWS in the namespace. Its pods
    stop promptly, unless the module says the grace period is its subject."""
    prompt = not getattr(request.module, "GRACE_PERIOD_IS_THE_SUBJECT", False)
    ln = Learner(lab, tmp_path_factory.mktemp("gsb-lws"), prompt_stop=prompt)
    ln.reset()
    yield ln
    ln.reset()
