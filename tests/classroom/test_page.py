"""The instructor's view in a browser, as the server process answers it: the grid as one page
with no script, every learner's word escaped, in English or Korean."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest

from tests import waits
from tutor.classroom.grid import STUCK_S


def get(url: str) -> tuple[int, dict, str]:
    try:
        with urllib.request.urlopen(url, timeout=waits.PROCESS) as resp:
            return resp.status, dict(resp.headers), resp.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read().decode()


def step(n: int, status: str, message: str = "", seconds: float = 1.0) -> dict:
    return {"step": n, "status": status, "message": message, "hints": 0, "predictions": 0, "seconds": seconds}


@pytest.fixture
def classful(server):
    for name, steps in (("<b>ana</b>", [step(1, "pass"), step(2, "fail", "<img src=x> labels swapped", STUCK_S + 1)]),
                        ("bo", [step(1, "pass"), step(2, "fail", "<img src=x> labels swapped")])):
        learner, key = server.join(name)
        assert server.post("report", {"learner": learner, "lesson": "lws", "current": 2, "steps": steps}, key)[0] == 200
    return server


def test_the_page_shows_the_grid_and_runs_nothing(classful):
    code, headers, html = get(classful.instructor_url)
    assert code == 200 and headers["Content-Type"].startswith("text/html")
    assert headers["Content-Security-Policy"] == "default-src 'none'; style-src 'unsafe-inline'"
    assert "<script" not in html and "<img" not in html and "<b>" not in html  # the learners' words are text
    assert "⚠ &lt;b&gt;ana&lt;/b&gt;" in html and 'class="stuck"' in html
    assert "step 2: 2 fail with: &lt;img src=x&gt; labels swapped" in html
    assert "1:2/2 2:0/2" in html and "2 learners" in html


def test_the_page_in_korean(classful):
    code, _, html = get(classful.instructor_url + "/?lang=ko")
    assert code == 200 and '<html lang="ko">' in html and "학습자 2명" in html and "2단계: 2명 실패" in html


def test_the_page_needs_the_instructors_token(classful):
    assert get(classful.join_url.replace("/c/", "/i/"))[0] == 401  # the learners' token is not it
