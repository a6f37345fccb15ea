"""No key is pressed in vain without a word: every key of the key table that cannot act in a
state (Textual's check_action says it is dimmed or left out) says why, in one line, in the
learner's language, and changes nothing. The keys come from the table, the states from the
lessons: the first step, the last, a step with no hint left or its solution shown, and a late
start whose step cannot be confirmed (no end to show, through no fault of the learner)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from rich.cells import cell_len

from tests.conftest import RECORDINGS
from tests.lang_scan import scan
from tests.ui.harness import empty_recording, make_app
from tests.ui.screen_text import notices_read
from tests.ui.settle import notices_said, settled, step_drawn, until
from tutor.ui.bindings.keys import KEYS
from tutor.ui.widgets.notice_bar import notice_text

# The sizes the tutor is made for: a notice must be whole on one line at the narrowest too.
SIZES = [(80, 24), (60, 20)]


async def first_step(pilot) -> None:
    """Step 1, nothing zoomed, no lab check panel, no notice up."""


async def last_step(pilot) -> None:
    last = len(pilot.app.session.lesson.steps)
    await pilot.press(str(last))
    await step_drawn(pilot, last)


async def no_hint_left(pilot) -> None:
    s = pilot.app.session
    while s.progress.reveal_hint(1, len(s.lesson.step(1).text(s.lang).hints)):
        pass
    pilot.app.lesson.redraw_lesson()


async def solution_shown(pilot) -> None:
    pilot.app.session.progress.show_solution(1)
    pilot.app.lesson.redraw_lesson()


# Each state, its recording (None: an empty one), how to reach it, and the key it was chosen for.
STATES: list[tuple[str | None, Callable[..., Awaitable[None]], str]] = [
    (None, first_step, "prev"),
    (None, last_step, "next"),
    (None, no_hint_left, "hint"),
    (None, solution_shown, "solution"),
    ("late-after-step8.jsonl", first_step, "finish"),  # header 7/8, step 4 "?": unconfirmed
]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("recording,reach,chosen_for", STATES, ids=[s[2] for s in STATES])
async def test_a_key_that_cannot_act_says_why_in_one_line(recording, reach, chosen_for, lang, size, tmp_path):
    rec = RECORDINGS / recording if recording else empty_recording(tmp_path)
    app = make_app(rec, lang=lang, state_file=tmp_path / "p.json")
    async with app.run_test(size=size, notifications=True) as pilot:
        await settled(pilot)
        await reach(pilot)
        unable, cut = [], []
        for binding in KEYS:
            app.notices.clear()
            await pilot.pause()
            if app.key_state(binding) is True:
                continue
            unable.append(binding.action.split("(")[0])
            said = notices_said(app)
            before = (app.session.progress.current, dict(app.session.progress.hints), app.screen)
            key = binding.key.split(",")[0]
            await pilot.press(key)
            await until(pilot, lambda: said, f"a word for {key} ({binding.action})")
            assert len(said) == 1, [n.message for n in said]
            text = notice_text(said[0])
            assert "\n" not in said[0].message, text
            if cell_len(text) > size[0] - 2:  # one line, whole: else cut with "…"; every such key named
                cut.append(f"{key}: {text!r} ({cell_len(text)} cells)")
            else:
                await until(pilot, lambda: notices_read(app) == text, f"{text!r} on the notices' line",
                            seen=lambda: notices_read(app))
            assert not scan(text, lang), scan(text, lang)
            if lang == "ko":
                assert any("가" <= c <= "힣" for c in text), text
            assert (app.session.progress.current, dict(app.session.progress.hints), app.screen) == before, key
            app.notices.add = type(app.notices).add.__get__(app.notices)  # stop keeping what is said
        assert chosen_for in unable, unable
        assert not cut, "\n".join(cut)
