"""Predict, then see, under Pilot on the walkthrough recording: w asks the step's questions before
its episode, a digit answers, esc skips; the step's recap grades the answer once the cluster has
acted, right or wrong, in both languages; w does nothing where there is nothing to ask; an answer
given once the episode had begun is shown, not graded."""

from __future__ import annotations

import json

import pytest

from tests.conftest import WALKTHROUGH
from tests.states import file_written, recording
from tests.ui.harness import make_app
from tests.ui.moments import first_t, moments
from tests.ui.settle import notices_said, settled, step_drawn, still, until
from tutor.ui.bindings.keys import KEYS
from tutor.ui.screens.predict import PredictScreen

BEFORE_FAILURE = first_t(file_written("restart.txt"))  # step 5's file written, llm-0-1 not failed yet
BEFORE_ROLLOUT = moments()["group0-recreated"]  # step 5 done, VERSION=v2 not applied yet

RIGHT = {"en": "✓ Right", "ko": "✓ 맞았습니다"}
WRONG = {"en": "✗ The cluster did otherwise", "ko": "✗ 클러스터는 다르게 움직였습니다"}
INVITE = {"en": "Predict, then see.", "ko": "예측하고 확인하기."}


def lesson_source(app) -> str:
    return app.query_one("#lesson").query_one("Markdown").source


async def lesson_reads(pilot, text: str) -> None:
    """Waits until the lesson's text holds `text`: an answer redraws it, parsed in a thread, a few
    frames after the key."""
    await until(pilot, lambda: text in lesson_source(pilot.app), f"the lesson to read {text!r}",
                seen=lambda: lesson_source(pilot.app)[-300:])


async def predict(tmp_path, lang: str, upto: float, step: int, keys: list[str]) -> dict:
    """Answers the step's questions with `keys` before its episode; returns the progress saved."""
    state = tmp_path / "p.json"
    app = make_app(WALKTHROUGH, lang=lang, upto=upto, state_file=state)
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        await pilot.press(str(step))
        await step_drawn(pilot, step)
        assert INVITE[lang] in lesson_source(app)
        assert app.check_action("predict", ()) is True
        await pilot.press("w")
        assert isinstance(app.screen, PredictScreen)
        for key in keys:
            await pilot.press(key)
        await lesson_reads(pilot, "Your prediction" if lang == "en" else "내 예측")
        assert not isinstance(app.screen, PredictScreen)
        assert app.check_action("predict", ()) is None  # answered: nothing left to ask
        assert INVITE[lang] not in lesson_source(app)
        assert ("Your prediction" if lang == "en" else "내 예측") in lesson_source(app)
    return json.loads(state.read_text())


async def recap_after(tmp_path, lang: str, step: int) -> str:
    """The whole recording, with the progress the prediction left: the step's lesson text."""
    app = make_app(WALKTHROUGH, lang=lang, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        await pilot.press(str(step))
        assert step in app.session.progress.passed
        assert app.check_action("predict", ()) is None  # the episode has happened
        return lesson_source(app)


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("key, right", [("2", True), ("1", False), ("3", False)])
async def test_step_5_prediction_graded_by_the_recreation(tmp_path, lang, key, right):
    saved = await predict(tmp_path, lang, BEFORE_FAILURE, 5, [key])
    choice = {"1": "worker", "2": "group", "3": "all"}[key]
    assert list(saved["predictions"]) == ["5"] and saved["predictions"]["5"]["new-uids"]["choice"] == choice
    md = await recap_after(tmp_path, lang, 5)
    assert (RIGHT if right else WRONG)[lang] in md and (WRONG if right else RIGHT)[lang] not in md
    assert "llm-0-1 " + ("new UID" if lang == "en" else "새 UID") in md.split("###")[-1]  # the lines that show it
    if not right:  # why it is not what happened, from the lesson
        why = {"1": ("cannot rejoin", "끼어들 수 없기"), "3": ("never stopped serving", "한 번도 멈추지")}[key]
        assert why[lang == "ko"] in md


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("keys, right", [(["2", "2"], (True, True)), (["1", "1"], (False, False)),
                                         (["3", "2"], (False, True))])
async def test_step_6_predictions_graded_by_the_rollout(tmp_path, lang, keys, right):
    saved = await predict(tmp_path, lang, BEFORE_ROLLOUT, 6, keys)
    assert set(saved["predictions"]["6"]) == {"first-group", "old-leader"}
    graded = (await recap_after(tmp_path, lang, 6)).split("###")[-1]
    said = [p for p in graded.split("\n\n") if p.startswith(("You predicted", "예측:"))]
    assert [RIGHT[lang] in p for p in said] == list(right), graded
    assert [WRONG[lang] in p for p in said] == [not r for r in right], graded
    assert ("The other way round did happen" if lang == "en" else "반대 방향은 실제로 있었습니다") in graded


async def test_esc_skips_and_nothing_changes(tmp_path):
    state = tmp_path / "p.json"
    app = make_app(WALKTHROUGH, upto=BEFORE_FAILURE, state_file=state)
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        await pilot.press("5")
        await step_drawn(pilot, 5)
        before = lesson_source(app)
        saved = state.read_text()
        await pilot.press("w")
        assert isinstance(app.screen, PredictScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, PredictScreen)
        assert app.session.progress.predictions == {} and state.read_text() == saved
        assert lesson_source(app) == before and app.check_action("predict", ()) is True  # still on offer


async def test_w_is_dimmed_where_there_is_nothing_to_predict(tmp_path):
    app = make_app(WALKTHROUGH, upto=BEFORE_FAILURE, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        for step in (1, 4, 7):  # steps that ask nothing
            await pilot.press(str(step))
            await step_drawn(pilot, step)  # the text read below is the step's own
            assert app.check_action("predict", ()) is None
            await pilot.press("w")
            assert not isinstance(app.screen, PredictScreen)
            assert INVITE["en"] not in lesson_source(app)
        await pilot.press("6")  # the rollout's questions are open until it begins, whatever the step before
        assert app.check_action("predict", ()) is True
    after = make_app(WALKTHROUGH, upto=BEFORE_ROLLOUT, state_file=tmp_path / "q.json")
    async with after.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        await pilot.press("5")  # group 0 was rebuilt already: too late to predict it
        await step_drawn(pilot, 5)
        assert after.check_action("predict", ()) is None
        await pilot.press("w")
        assert not isinstance(after.screen, PredictScreen)
        assert INVITE["en"] not in lesson_source(after)


async def test_an_answer_given_after_the_cluster_acted_is_not_graded(tmp_path):
    """The question opened in time, answered only after the cluster failed and rebuilt group 0
    (the rest of the recording applied while the question is up)."""
    app = make_app(WALKTHROUGH, upto=BEFORE_FAILURE, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        await pilot.press("5", "w")
        assert isinstance(app.screen, PredictScreen)
        for item in recording("walkthrough").items:
            if item.t > BEFORE_FAILURE:
                app.session.apply(item)
        app.driver.recheck()
        await pilot.press("2")
        await pilot.pause()
        assert 5 in app.session.progress.passed
        # the recap with the answer is parsed in a thread, drawn a few frames later
        await until(pilot, lambda: "not graded as a prediction" in lesson_source(app), "the recap with the answer",
                    seen=lambda: lesson_source(app)[-300:])
        md = lesson_source(app)
        assert "not graded as a prediction" in md and RIGHT["en"] not in md and WRONG["en"] not in md


async def test_the_palette_and_help_offer_it(tmp_path):
    app = make_app(WALKTHROUGH, upto=BEFORE_FAILURE, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        await pilot.press("1")
        said = notices_said(app)
        app.action_predict()  # from the palette on a step with nothing to ask: says why, opens nothing
        await still(pilot, lambda: not isinstance(app.screen, PredictScreen), "no question opened")
        assert any(n.message == "Step 1 asks for no prediction." for n in said), [n.message for n in said]
        assert any(b.action == "predict" and b.key == "w" for b in KEYS)


async def test_step_6_asks_its_two_questions_in_turn(tmp_path):
    app = make_app(WALKTHROUGH, upto=BEFORE_ROLLOUT, state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await pilot.press("6", "w")
        screen = app.screen
        assert "1 of 2" in str(screen.query_one("#predict").border_title)
        assert "1–3" in str(screen.query_one("#predict-keys").render())
        await pilot.press("2")
        assert "2 of 2" in str(screen.query_one("#predict").border_title)
        assert "1–2" in str(screen.query_one("#predict-keys").render())
        await pilot.press("3")  # past the last choice: nothing, and not the app's step key either
        assert app.screen is screen and app.session.progress.current == 6
        await pilot.press("escape")  # the second skipped, the first kept
        await lesson_reads(pilot, "Press `w` for the next question.")
        assert list(app.session.progress.predictions[6]) == ["first-group"]
        assert "Press `w` for the next question." in lesson_source(app)
        assert app.check_action("predict", ()) is True
        await pilot.press("w")
        assert "1 of 1" in str(app.screen.query_one("#predict").border_title)
        await pilot.press("down", "enter")  # the arrows and enter answer too
        await pilot.pause()
        assert app.session.progress.predictions[6]["old-leader"]["choice"] == "yes"
