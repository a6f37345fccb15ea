"""The step's page, without a screen: what the lesson pane, the verdict and the footer show for
a step follows from the session alone (tutor/ui/step_page.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tutor.lesson.loader import load
from tutor.progress import Progress
from tutor.session import Session
from tutor.ui.step_page import Page, step_ranges


@pytest.fixture
def page(tmp_path) -> Page:
    session = Session(load(), str(tmp_path), "en", Progress.load(tmp_path / "progress.json", 8))
    return Page(session, replay=True)


def hints_of(page: Page, n: int) -> list[str]:
    return page.session.lesson.step(n).text(page.lang).hints


def test_the_page_model_imports_no_textual():
    out = subprocess.run([sys.executable, "-c", "import sys, tutor.ui.step_page; "
                          "print(sorted(m for m in sys.modules if m.split('.')[0] == 'textual'))"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_hint_shows_under_its_heading_only_once_revealed(page):
    n = page.current
    first = hints_of(page, n)[0]
    assert page.hint_heading(n, 1) not in page.markdown(n)
    page.session.progress.reveal_hint(n, len(hints_of(page, n)))
    text = page.markdown(n)
    assert f"### {page.hint_heading(n, 1)}" in text and first.split("\n")[0] in text


def test_the_footer_offers_h_while_hints_are_left_then_s_in_its_place(page):
    n = page.current
    assert page.footer_wanted(doctor_shown=False) | {"hint": True, "solution": False} == \
        page.footer_wanted(doctor_shown=False)
    for _ in hints_of(page, n):
        page.session.progress.reveal_hint(n, len(hints_of(page, n)))
    wanted = page.footer_wanted(doctor_shown=True)
    assert wanted["solution"] and not wanted["hint"] and wanted["dismiss_doctor"]


def test_the_solution_is_offered_until_shown_and_then_in_the_markdown(page):
    n = page.current
    assert page.solution_offered() is True and page.solution_markdown(n) == ""
    page.session.progress.show_solution(n)
    assert page.solution_offered() is None  # dimmed: shown already
    assert page.solution_markdown(n).startswith("### Solution") and "### Solution" in page.markdown(n)


def test_the_solution_question_counts_the_hints_not_shown(page):
    n = page.current
    total = len(hints_of(page, n))
    assert f"None of its {total} hints" in page.solution_question(n)
    page.session.progress.reveal_hint(n, total)
    assert f"{total - 1} of its {total} hints are not shown" in page.solution_question(n)


def test_a_pass_notice_names_its_steps_and_offers_s_for_the_current_one(page):
    page.session.progress.latch(page.current, "ok")
    assert page.passed_said([page.current]).in_lang("en").endswith("s compares solutions")
    assert page.passed_said([3]).in_lang("en") == "✓ Step 3 passed: recap in the step"
    assert page.passed_said([1, 2, 3, 5]).in_lang("en") == "✓ Steps 1–3, 5 passed"


def test_marks_follow_the_progress(page):
    assert page.step_mark(1) == "not-started"
    page.session.progress.latch(1, "ok")
    assert page.step_mark(1) == "passed" and page.marks()[0] == (1, page.session.lesson.step(1).title("en"), "passed")


def test_the_verdict_says_why_it_has_not_checked_when_the_cluster_does_not_answer(page):
    assert page.verdict_words(unreachable=False)["checking"] == "checking…"
    assert "does not answer" in page.verdict_words(unreachable=True)["checking"]
    page.session.lang = "ko"
    assert page.verdict_words(unreachable=False)["PASS"] == "통과"


def test_a_reset_says_a_solution_seen_stays_shown(page):
    assert "stays shown" not in page.reset_step_question()
    page.session.progress.show_solution(page.current)
    assert "stays shown" in page.reset_step_question() and "stay shown" in page.reset_all_question()


def test_step_ranges():
    assert step_ranges([1]) == "1"
    assert step_ranges([2, 1]) == "1, 2"
    assert step_ranges([1, 2, 3, 5, 7, 8]) == "1–3, 5, 7, 8"
