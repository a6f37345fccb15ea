"""A step that cannot be confirmed is neither passed nor failed on screen: its verdict box says
UNCONFIRMED (확인 불가) in its own colour, and its mark in the step list is "?", in both languages."""

from __future__ import annotations

import pytest

from tests.conftest import RECORDINGS
from tests.ui.harness import make_app
from tests.ui.screen_text import region_text
from tests.ui.settle import settled, step_drawn, until


@pytest.mark.parametrize("lang,words,label,not_label", [("en", "cannot be confirmed", "UNCONFIRMED", "FAIL"),
                                                       ("ko", "확인할 수 없습니다", "확인 불가", "실패")])
async def test_a_lookup_from_before_a_late_start_is_unconfirmed_not_failed(lang, words, label, not_label, tmp_path):
    app = make_app(RECORDINGS / "late-after-step6.jsonl", lang=lang, state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await pilot.press("4")
        await step_drawn(pilot, 4)
        verdict = app.query_one("#verdict")
        assert verdict.has_class("-unconfirmed") and not verdict.has_class("-fail")
        await until(pilot, lambda: label in region_text(app, verdict.region), "the verdict box drawn",
                    seen=lambda: region_text(app, verdict.region))
        shown = region_text(app, verdict.region)  # its first lines, as drawn
        assert not_label not in shown, shown
        assert words in " ".join(verdict.text().split())
        steps = app.query_one("#steps")
        row = str(steps.get_option_at_index(3).prompt)
        assert row.startswith("? 4."), row
        assert str(steps.get_option_at_index(2).prompt).startswith("✓ 3.")
