"""`lwstutor demo`: the packaged walkthrough, paced step by step, with no cluster and no files."""

from __future__ import annotations

from tests import waits
from tests.ui.settle import first_frame, notices_said, past_the_end, settled, until
from tutor.cli import build_parser
from tutor.commands.demo import demo_app
from tutor.progress import state_dir
from tutor.ui.screens.finish import FinishScreen
from tutor.demo import END_TITLE
from tutor.i18n.bilingual import say


async def test_the_demo_passes_every_step_in_order_and_follows_along():
    app = demo_app(build_parser().parse_args(["demo", "--speed", "50", "--pause", "0.1", "--lang", "en"]))
    passed: list[int] = []
    steps_shown: list[int] = []
    evaluate = app.session.evaluate

    def watching(*args):  # which steps each re-check passed, and which step was on screen then
        newly = evaluate(*args)
        passed.extend(newly)
        steps_shown.extend(app.session.progress.current for _ in newly)
        return newly

    app.session.evaluate = watching
    ends: list[bool] = []  # whether the demo's end note was up when the finish screen opened
    finish = app.action_finish

    def opening():
        ends.append(any("whole lab" in (n.title or "") for n in app.notices))
        finish()

    app.action_finish = opening
    said = notices_said(app)
    async with app.run_test(size=(80, 40)) as pilot:
        await settled(pilot, waits.DEMO, close_the_end=False)
        # The end shows the finish screen, once, at the demo's end (after the last recap's pause).
        assert ends == [True] and isinstance(app.screen, FinishScreen)
        await past_the_end(pilot)
        assert passed == list(range(1, 9))
        # The view followed the lab: each step passed while it was the one on screen.
        assert steps_shown == list(range(1, 9))
        assert app.session.progress.current == 8
        assert "PASS" in app.query_one("#verdict").text()
        assert "8/8" in str(app.query_one("#status").render())
        assert any("whole lab" in (n.title or "") for n in said)  # (up 8 s: said, perhaps gone by now)
    # The demo never writes the learner's progress.
    assert not state_dir().exists() or not any(state_dir().iterdir())


async def test_a_step_the_learner_chose_holds_while_the_demo_plays_on():
    app = demo_app(build_parser().parse_args(["demo", "--speed", "50", "--pause", "0.1", "--lang", "ko"]))
    said = notices_said(app)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        # The learner's key comes while the demo plays: its first items applied, a step on screen.
        await first_frame(pilot)
        await until(pilot, lambda: app.session.store.version, "the demo's first items applied",
                    seen=lambda: app.session.states.get("replay"))
        await pilot.press("1")
        await settled(pilot, waits.DEMO)
        assert app.session.progress.current == 1  # the demo's own steps did not overrule the key
        assert sorted(app.session.progress.passed) == list(range(1, 9))  # the recording played on
        assert any(n.title == say(app.lang, *END_TITLE) for n in said)


async def test_the_demo_at_speed_0_is_instant_and_still_passes_every_step():
    """`demo --help` says 0 = instant: the cluster's activity comes at once, the pauses stay."""
    app = demo_app(build_parser().parse_args(["demo", "--speed", "0", "--pause", "0.05", "--lang", "en"]))
    async with app.run_test(size=(80, 40)) as pilot:
        await settled(pilot)
        assert sorted(app.session.progress.passed) == list(range(1, 9)) and app.session.progress.current == 8


def test_demo_refuses_a_negative_speed_in_one_line(capsys):
    import pytest

    from tutor.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["demo", "--speed", "-1", "--lang", "en"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "--speed: '-1' cannot be used" in err and len(err.splitlines()) == 2


async def test_the_gang_lessons_demo_plays_its_walkthrough_to_the_end():
    """`lwstutor demo --lesson gang`: the gang lesson's walkthrough, shipped with the package."""
    app = demo_app(build_parser().parse_args(["demo", "--lesson", "gang", "--speed", "0", "--pause", "0.05",
                                              "--lang", "en"]))
    assert app.session.lesson.id == "gang"
    said = notices_said(app)
    async with app.run_test(size=(80, 40)) as pilot:
        await settled(pilot)
        assert sorted(app.session.progress.passed) == list(range(1, 8)) and app.session.progress.current == 7
        assert any("lwstutor --lesson gang" in (n.message or "") for n in said)


def test_demo_of_a_lesson_with_no_walkthrough_is_one_line(capsys):
    from tutor.cli import main

    code = main(["demo", "--lesson", "scale", "--lang", "en"])
    err = capsys.readouterr().err
    assert code == 2 and err.strip() == "lwstutor: --lesson scale: no walkthrough to play (there are: gang, lws)", err
