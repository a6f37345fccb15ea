"""`lwstutor serve` from a non-editable install, as the README's `pip install .` leaves it: run
from the clone's root, whose source folder `tutor/` must not shadow the installed package (it has
no `tutor/lessons`), and from an empty directory. Each serves a tab in Chromium that shows the
tutor. The venv is built in a temp dir from a copy of the sources; it needs PyPI, which CI has."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_install import SOURCES, pypi_reachable

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def installed(chromium, tmp_path_factory) -> Path:
    if os.environ.get("CI") != "true" and not pypi_reachable():
        pytest.skip("PyPI is not reachable: the venv cannot be built here")
    tmp = tmp_path_factory.mktemp("installed")
    src, venv = tmp / "src", tmp / "venv"
    src.mkdir()
    for name in SOURCES:  # a copy, so pip's build leaves nothing in the repo
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(ROOT / name, src / name)
    for argv in ([sys.executable, "-m", "venv", str(venv)], [str(venv / "bin" / "pip"), "install", "-q", str(src)]):
        res = subprocess.run(argv, capture_output=True, text=True, timeout=900, stdin=subprocess.DEVNULL)
        assert res.returncode == 0, f"{argv}\n{res.stdout[-2000:]}\n{res.stderr[-2000:]}"
    return venv / "bin" / "lwstutor"


@pytest.mark.parametrize("where", ["clone", "empty"])
def test_an_installed_serve_starts_tutors_from_any_directory(installed, serve, tabs, tmp_path, where):
    cwd = ROOT if where == "clone" else tmp_path / "empty"
    cwd.mkdir(exist_ok=True)
    served = serve(lwstutor=[str(installed)], cwd=cwd)
    tab = tabs()
    tab.open(f"{served.url}/?token={served.token}")
    tab.wait_started()
    screen = tab.wait_for("LeaderWorkerSet")
    assert "1." in screen
    out = served.stop()
    assert "Traceback" not in out and "ModuleNotFoundError" not in out, out[-2000:]
