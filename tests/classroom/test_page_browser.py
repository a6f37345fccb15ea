"""The instructor's page in a real Chromium (Debian's, through Playwright as tests/serve does), for
a class of real tutors: two tutors under Pilot replay different recordings (the walkthrough, and a
wrong turn whose checker fails a step) and report to the class server process; the page then shows
each learner with the marks their tutors judged, the per-step passes and the failing message, in
English and in Korean (with a font for Hangul), and a click on a learner's name shows their
verdicts. The page is read as DOM text and photographed:
`LWSTUTOR_SCREENSHOTS=1 .venv/bin/python -m pytest tests/classroom/test_page_browser.py` writes
the README's screenshots/class-chromium-*.png, as the serve tests write theirs."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from tests import waits
from tests.classroom.test_tutor_joins import FAILING, expected
from tests.conftest import WALKTHROUGH
from tests.serve.browser import launched, need_chromium
from tests.ui.settle import settled
from tutor.classroom.grid import MARKS
from tutor.cli import build_parser
from tutor.commands.tui import tui_app
from tutor.i18n import classroom

pytestmark = [pytest.mark.ui, pytest.mark.browser]

SHOTS = Path(__file__).resolve().parents[2] / "screenshots"
# A text has a font when it is not drawn as the box of a code point no font has (U+0378).
HAS_FONT = """(text) => {
  const c = document.createElement("canvas"); c.width = 64; c.height = 64;
  const g = c.getContext("2d", {willReadFrequently: true});
  g.font = "40px " + getComputedStyle(document.body).fontFamily;
  const ink = (s) => { g.clearRect(0, 0, 64, 64); g.fillText(s, 4, 48);
                       return Array.from(g.getImageData(0, 0, 64, 64).data).join(","); };
  return ink(text) !== ink("\\u0378");
}"""
ROWS = "() => Array.from(document.querySelectorAll('tr')).map(r => Array.from(r.cells).map(c => c.textContent))"


async def a_tutor_reports(server, name: str, recording: Path, tmp_path: Path) -> dict[str, tuple[str, str]]:
    """The tutor's own verdicts per step, once the class holds them all."""
    args = build_parser().parse_args(["--replay", str(recording), "--speed", "0", "--lang", "en", "--state-file",
                                      str(tmp_path / f"{recording.stem}.json"), "--join", server.join_url,
                                      "--name", name])
    app = tui_app(args)
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        want = expected(app)
        got: dict = {}
        for _ in range(int(waits.REPLAY / waits.STEP)):
            learners = await asyncio.to_thread(server.learners)
            got = {n: (s["status"], s["message"]) for n, s in learners.get(name, {}).get("steps", {}).items()}
            if got == want:
                break
            await pilot.pause(waits.STEP * 4)
        assert got == want
    return want


def read_page(url: str, shot: Path) -> dict:
    """The page as Chromium shows it: its rows' cells, its text, whether Hangul has a font."""
    with launched() as browser:
        page = browser.new_context(viewport={"width": 1000, "height": 700}).new_page()
        page.goto(url, timeout=waits.PROCESS * 1000)
        page.evaluate("document.fonts.ready")
        got = {"rows": page.evaluate(ROWS), "text": page.inner_text("body"),
               "hangul": page.evaluate(HAS_FONT, "한"), "none": page.evaluate(HAS_FONT, "\u0378")}
        page.screenshot(path=str(shot), full_page=True)
        return got


def click_learner(url: str, name: str) -> tuple[str, str]:
    """Where the learner's name on the page leads, and that page's text."""
    with launched() as browser:
        page = browser.new_page()
        page.goto(url, timeout=waits.PROCESS * 1000)
        page.get_by_role("link", name=name, exact=True).click()
        page.wait_for_url("**learner=**", timeout=waits.PROCESS * 1000)
        return page.url, page.inner_text("body")


@pytest.fixture
def chromium_here():
    need_chromium()


async def test_the_page_shows_the_class_its_tutors_reported(chromium_here, server, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    tutors = {"ana": await a_tutor_reports(server, "ana", WALKTHROUGH, tmp_path),
              "민준": await a_tutor_reports(server, "민준", FAILING, tmp_path)}
    assert any(s == "fail" for s, _ in tutors["민준"].values())  # the wrong turn fails a step
    failing = {(int(n), m) for n, (s, m) in tutors["민준"].items() if s == "fail"}
    photos = SHOTS if os.environ.get("LWSTUTOR_SCREENSHOTS") else tmp_path
    for lang, passed, failed in (("en", "passed", "step {}: 1 fail with: "), ("ko", "통과", "{}단계: 1명 실패: ")):
        url = server.instructor_url + ("?lang=ko" if lang == "ko" else "")
        shot = photos / f"class-chromium-{lang}.png"
        page = await asyncio.to_thread(read_page, url, shot)
        assert shot.stat().st_size > 0
        assert page["none"] is False and page["hangul"] is True, "no font for Hangul: install fonts-nanum-coding"
        rows = {cells[0]: cells[1:] for cells in page["rows"][1:]}
        assert set(rows) == set(tutors)
        for name, verdicts in tutors.items():
            for n, (status, _) in verdicts.items():
                assert rows[name][int(n) - 1] == MARKS[status], (name, n, status, rows[name])
        text = page["text"]
        assert passed in text
        for step in sorted({int(n) for v in tutors.values() for n in v}):
            both = sum(1 for v in tutors.values() if v.get(str(step), ("",))[0] == "pass")
            assert f"{step}:{both}/2" in text, (step, text)
        for step, message in failing:
            assert failed.format(step) + message in text, (step, message, text)
    address, verdicts = await asyncio.to_thread(click_learner, server.instructor_url, "민준")
    assert address.startswith(server.instructor_url + "?learner=")  # the same address, the learner asked for
    for n, (status, message) in tutors["민준"].items():
        assert message in verdicts and f"{MARKS[status]} {classroom.STATUS[status][0]}" in verdicts, (n, verdicts)
