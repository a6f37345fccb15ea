"""The solution, apart from the hints: s asks in the learner's language, n or esc leaves nothing
recorded, yes shows it under its own heading, scrolled to, notes it in the progress and dims s.
At 80x24, in both languages."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from tests.ui.harness import empty_recording, make_app
from tests.ui.screen_text import region_text, screen_lines
from tests.ui.settle import footer_reads, heading_in_view, off_screen, on_screen, palette_choice, still, until
from tutor.ui.screens.confirm import ConfirmScreen
from tutor.ui.screens.timeline_view import TimelineScreen

ASKS = {"en": ("Show the solution to step 1?", "None of its 3 hints is shown yet (h)."),
        "ko": ("1단계의 풀이를 볼까요?", "힌트 3개를 아직 하나도 보지 않았습니다(h).")}
HEADING = {"en": "Solution", "ko": "풀이"}


@pytest.fixture(params=["en", "ko"])
def lang(request):
    return request.param


@pytest.fixture
def state(tmp_path):
    return tmp_path / "progress.json"


@pytest.fixture
def app(tmp_path, lang, state):
    return make_app(empty_recording(tmp_path), lang=lang, state_file=state)


def saved(state) -> dict:
    return json.loads(state.read_text()) if state.exists() else {}


def lesson_source(app) -> str:
    return app.query_one("#lesson").query_one("Markdown").source


def footer(app) -> str:
    return screen_lines(app)[-1]


async def test_s_asks_first_and_n_or_esc_records_nothing(app, lang, state):
    async with app.run_test(size=(80, 24)) as pilot:
        for cancel in ("n", "escape"):
            await pilot.press("s")
            question = (await on_screen(pilot, ConfirmScreen)).query_one("#confirm Label")
            first, last = ASKS[lang]

            def shown() -> str:
                return " ".join(region_text(app, question.region).split())  # as the lines read on

            # the whole question, wrapped
            await until(pilot, lambda: shown().startswith(first) and shown().endswith(last), "the whole question",
                        seen=shown)
            assert question.region.right <= 80
            await pilot.press(cancel)
            await off_screen(pilot, ConfirmScreen)
            assert app.session.progress.solutions == {} and not saved(state).get("solutions")
            assert f"### {HEADING[lang]}" not in lesson_source(app)
            assert app.lesson.check_action("solution", ()) is True


async def test_yes_shows_it_scrolled_to_records_it_and_dims_s(app, lang, state):
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await on_screen(pilot, ConfirmScreen)
        await pilot.press("y")
        await heading_in_view(pilot, HEADING[lang])
        assert app.query_one("#lesson").scroll_y > 0
        source = lesson_source(app)
        solution = app.session.lesson.step(1).text(lang).solution
        assert f"### {HEADING[lang]}" in source and solution.splitlines()[0] in source
        assert "### " + app.page.hint_heading(1, 1) not in source  # the hints stay as they were: none shown
        assert set(app.session.progress.solutions) == {1} and list(saved(state)["solutions"]) == ["1"]
        assert app.lesson.check_action("solution", ()) is None  # shown: dimmed
        await pilot.press("s")
        await still(pilot, lambda: not isinstance(app.screen, ConfirmScreen), "no question for a shown solution")
        app.session.progress.latch(1, "done")  # a pass from here is one after the solution
        assert saved(state)["passed"]["1"]["after_solution"] is True
        await pilot.press("n")
        assert app.lesson.check_action("solution", ()) is True  # the next step's is its own


async def test_the_footer_offers_s_in_the_place_of_h_once_the_hints_are_out(app, lang):
    words = {"en": ("h Hint", "s Solution", "q Quit"), "ko": ("h 힌트", "s 풀이", "q 종료")}[lang]
    hint, solution, quit_ = words
    async with app.run_test(size=(80, 24)) as pilot:
        await footer_reads(pilot, (hint, quit_), (solution,))
        for _ in app.session.lesson.step(1).text(lang).hints:
            await pilot.press("h")
        await footer_reads(pilot, (solution, quit_), (hint,))  # it fits 80 columns
        app.lesson.action_hint()  # the palette's "next hint", with none left, points to s
        assert any(" s " in n.message for n in app.notices), [n.message for n in app.notices]
        await pilot.press("s")
        await on_screen(pilot, ConfirmScreen)
        await pilot.press("y")
        await off_screen(pilot, ConfirmScreen)
        await until(pilot, lambda: app.lesson.check_action("solution", ()) is None, "s dimmed, the solution shown")
        await footer_reads(pilot, (solution,))  # still there, dimmed
        await pilot.press("n")
        await footer_reads(pilot, (hint,))


async def test_a_step_without_a_solution_dims_s_and_says_so(app, lang, monkeypatch):
    step = app.session.lesson.step(2)
    monkeypatch.setitem(step.texts, lang, replace(step.text(lang), solution=""))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("2")
        assert app.lesson.check_action("solution", ()) is None
        for _ in step.text(lang).hints:
            await pilot.press("h")
        h = "h Hint" if lang == "en" else "h 힌트"
        await still(pilot, lambda: h in footer(app), "h in the footer, dimmed")  # h stays: no s in its place
        app.lesson.action_solution()
        await still(pilot, lambda: not isinstance(app.screen, ConfirmScreen), "no question for no solution")
        assert app.session.progress.solutions == {}


async def test_the_palette_asks_too_and_brings_a_shown_solution_back_into_view(tmp_path):
    app = make_app(empty_recording(tmp_path), state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("5", "ctrl+p")
        await pilot.press(*"show the solution")
        await until(pilot, lambda: "solution" in palette_choice(app).lower(), "the palette to find the solution",
                    seen=lambda: palette_choice(app))
        await pilot.press("enter")
        await on_screen(pilot, ConfirmScreen)
        await pilot.press("y")
        await heading_in_view(pilot, "Solution")
        assert set(app.session.progress.solutions) == {5}
        app.query_one("#lesson").scroll_home(animate=False)
        app.lesson.action_solution()  # shown already: no question, back to it
        await heading_in_view(pilot, "Solution")
        assert not isinstance(app.screen, ConfirmScreen)


async def test_the_timeline_hides_s(tmp_path):
    app = make_app(empty_recording(tmp_path), state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t")
        await on_screen(pilot, TimelineScreen)
        assert "solution" not in {b.binding.action for b in app.screen.active_bindings.values()}
        await pilot.press("s")
        await still(pilot, lambda: isinstance(app.screen, TimelineScreen), "the timeline on top, no question over it")
        assert app.session.progress.solutions == {}


def first_pass_t(step: int) -> float:
    """The instant of the walkthrough at which the step first passes."""
    from tests.states import recording
    from tutor.lesson.loader import load
    from tutor.session import Session

    session = Session(load("lws"), "", "en")
    for item in recording("walkthrough").items:
        if session.apply(item) and step in session.evaluate(None, set()):
            return item.t
    raise AssertionError(f"step {step} never passes in the walkthrough")


COMPARE = {"en": "✓ Step 1 passed: recap in the step · s compares solutions",
           "ko": "✓ 1단계 통과: 정리는 설명 끝에 · s로 풀이와 비교"}
FOOTER_S = {"en": "s Solution", "ko": "s 풀이"}


async def test_after_a_pass_the_notice_offers_it_and_s_shows_it_without_asking(lang, tmp_path, state):
    from tests.conftest import WALKTHROUGH
    from tests.ui.settle import notices_said, settled

    app = make_app(WALKTHROUGH, lang=lang, upto=first_pass_t(1), state_file=state)
    said = notices_said(app)  # the pass notice is up 5 s: said, perhaps gone by the read
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settled(pilot)
        assert app.session.progress.current == 1 and set(app.session.progress.passed) == {1}
        assert [n.message for n in said if n.message.startswith("✓")] == [COMPARE[lang]]
        # s in h's place, now that it compares (the footer recomposes its keys a few frames later)
        await footer_reads(pilot, (FOOTER_S[lang],))
        await pilot.press("s")
        await heading_in_view(pilot, HEADING[lang])
        assert not isinstance(app.screen, ConfirmScreen)  # nothing left to give away: no question
        assert f"### {HEADING[lang]}" in lesson_source(app)
        assert set(app.session.progress.solutions) == {1} and list(saved(state)["solutions"]) == ["1"]
        assert not app.session.progress.after_solution(1)  # the pass came first, and stays a plain pass
        assert app.lesson.check_action("solution", ()) is None


async def test_before_a_pass_it_still_asks_on_a_step_that_passed_elsewhere(lang, tmp_path, state):
    """Step 1 passed; step 2 did not: s on step 2 asks as before."""
    from tests.conftest import WALKTHROUGH
    from tests.ui.settle import settled

    app = make_app(WALKTHROUGH, lang=lang, upto=first_pass_t(1), state_file=state)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await pilot.press("2", "s")
        await on_screen(pilot, ConfirmScreen)
        await pilot.press("n")
        await off_screen(pilot, ConfirmScreen)
        assert 2 not in app.session.progress.solutions
