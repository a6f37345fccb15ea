"""The real lab control plane as a pytest session fixture.

With CI=true these tests never skip: a missing Go toolchain or a failed build is a failure.
Elsewhere, a machine without Go skips them with a one-line reason.
"""

from __future__ import annotations

import os
import shutil

import pytest

from tests.e2e.labcluster.lab import Lab, LabError, up
from tests.e2e.learner import Learner


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/e2e/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def lab() -> Lab:
    if not shutil.which("go"):
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but Go is not installed: the e2e tests need it to build the lab")
        pytest.skip("Go is not installed: the lab control plane cannot be built here")
    try:
        the_lab = up()
    except LabError as exc:
        pytest.fail(f"lab control plane did not start: {exc}")
    yield the_lab
    the_lab.stop()
    the_lab.remove()


@pytest.fixture(scope="module")
def learner(lab, tmp_path_factory) -> Learner:
    """A learner with a fresh workdir, starting and leaving with no LWS in the namespace."""
    ln = Learner(lab, tmp_path_factory.mktemp("gsb-lws"))
    ln.reset()
    yield ln
    ln.reset()
