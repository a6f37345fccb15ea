"""The footer always shows q and ? whole: on every step, from 60 to 160 columns, in both
languages, with the lab check panel up (its x key joins the footer) or not. Other keys give way
by priority when the width runs out; the help (?) lists them all."""

from __future__ import annotations

import pytest

from tests.ui.harness import empty_recording, make_app
from tests.ui.settle import footer_reads, until
from tutor.preflight import Finding
from tutor.ui.messages import DoctorDone
from tutor.ui.bindings.key_words import localised
from tutor.ui.bindings.keys import KEYS

PROBLEM = Finding("crd", False, "LWS CRD missing", "no leaderworkersets.leaderworkerset.x-k8s.io",
                  ["kubectl apply --server-side -f manifests.yaml"])



def words(app, action: str) -> str:
    """A key's words in the footer, in the app's language, as declared with the key."""
    return localised(next(b for b in KEYS if b.action == action), app.lang).description

@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("width", [60, 80, 100, 160])
@pytest.mark.parametrize("panel", [False, True])
async def test_the_footer_shows_q_and_help_whole(lang, width, panel, tmp_path):
    app = make_app(empty_recording(tmp_path), lang=lang, state_file=tmp_path / "p.json")
    quit_key, help_key = f"q {words(app, 'quit')}", f"? {words(app, 'help')}"
    async with app.run_test(size=(width, 20 if width == 60 else 24)) as pilot:
        if panel:
            app.post_message(DoctorDone([PROBLEM]))
            await until(pilot, lambda: app.query_one("#doctor").display, "the lab check panel up")
        for step in range(1, len(app.session.lesson.steps) + 1):
            await pilot.press(str(step))
            await until(pilot, lambda step=step: app.session.progress.current == step, f"step {step}")
            x_key = (f"x {words(app, 'dismiss_doctor')}",) if panel and width >= 80 else ()
            await footer_reads(pilot, (quit_key, help_key, *x_key))
        if width >= 100:  # room for every key
            await footer_reads(pilot, (words(app, "next"), words(app, "maximize_pane")))
