"""`lwstutor class --watch` at 80x24 for a class of real tutors: two tutors under Pilot replay
different recordings (the walkthrough, and a wrong turn whose checker fails steps) and report to
the class server process; the terminal view then shows each learner with the mark of every step
as their tutor judged it, the passes per step, and the failing message (cut with its mark when
it is longer than the row). The page's twin is tests/classroom/test_page_browser.py."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from tests import waits
from tests.classroom.test_page_browser import a_tutor_reports
from tests.classroom.test_tutor_joins import FAILING
from tests.conftest import WALKTHROUGH
from tests.ui.screen_text import screen_lines
from tests.ui.settle import until
from tutor.classroom.grid import MARKS
from tutor.classroom.state_reader import state_url
from tutor.ui.class_watch import ClassWatch

pytestmark = pytest.mark.ui


@pytest.mark.parametrize("lang", ["en", "ko"])
async def test_the_terminal_view_shows_each_step_as_its_tutor_judged_it(lang, server, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    tutors = {"ana": await a_tutor_reports(server, "ana", WALKTHROUGH, tmp_path),
              "민준": await a_tutor_reports(server, "민준", FAILING, tmp_path)}
    assert any(s == "fail" for s, _ in tutors["민준"].values())
    app = ClassWatch(state_url(server.state_url), lang)
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.query_one("#grid")
        await until(pilot, lambda: table.row_count == 2, "the two learners", waits.PROCESS,
                    seen=lambda: table.row_count)
        steps = len(tutors["ana"])
        for i in range(2):
            cells = [str(c) for c in table.get_row_at(i)]
            name = cells[0].removeprefix("⚠ ").strip()
            judged = tutors[name]
            assert cells[1:1 + steps] == [MARKS[judged[str(n)][0]] for n in range(1, steps + 1)], (name, cells)
        summary = str(app.query_one("#summary").render())
        passes = "  ".join(f"{n}:{sum(t[str(n)][0] == 'pass' for t in tutors.values())}/2"
                           for n in range(1, steps + 1))
        assert passes in summary, summary
        first_fail = min(int(n) for n, (s, _) in tutors["민준"].items() if s == "fail")
        message = tutors["민준"][str(first_fail)][1]
        lines = screen_lines(app)
        assert all(cell_len(line) <= 80 for line in lines)
        head = f"{first_fail}단계: 1명 실패: " if lang == "ko" else f"step {first_fail}: 1 fail with: "
        said = next((line for line in lines if head in line), None)
        assert said is not None, lines
        shown = said[said.index(head) + len(head):].rstrip()
        assert shown == message or (shown.endswith("…") and message.startswith(shown[:-1])), said  # whole, or cut with its mark
        title = str(app.query_one("#title").render())
        assert ("학습자 2명" if lang == "ko" else "2 learners") in title, title
