"""The screen audit: the tutor read the way the learner reads it, at every size it is run at
(60x20, 80x24, 100x30, 160x48), in Korean and English, at every step of the walkthrough and of
every recording, and over every overlay a learner can open. Each frame is held to the checks of
tests/ui/audit.py and tests/lang_scan.py; a run reports all its findings in one message, grouped
by rule, so one run shows every defect, not the first. Marker: audit (`pytest -m audit`)."""

from __future__ import annotations

import asyncio
import random
import re
import shutil

import pytest
import yaml
from textual.command import CommandPalette

from tests.conftest import LESSON_RECORDINGS, RECORDINGS, WALKTHROUGH, recording_path
from tests.ui.audit import Audit
from tests.ui.harness import make_app
from tests.ui.storm import quits_counted
from tests.ui.settle import (first_frame, handled, heading_in_view, hint_in_view, notices_said, off_screen, on_screen,
                             palette_choice, settled, until)
from tutor.ui.screens.predict import PredictScreen
from tutor.ui.screens.confirm import ConfirmScreen
from tutor.ui.screens.help import HelpScreen
from tutor.ui.screens.timeline_view import TimelineScreen
from tutor.demo import lessons_with_walkthrough
from tutor.i18n.bilingual import say

pytestmark = pytest.mark.audit

SIZES = [(60, 20), (80, 24), (100, 30), (160, 48)]
LANGS = ["ko", "en"]
# Each lesson's walk through its steps, every hint and solution read: the LWS lab's walkthrough,
# and those of the other lessons (gang's demo, scale's recording).
WALKS = {"walkthrough", "lesson-gang", "lesson-scale"}
RECS = sorted(p.stem for p in RECORDINGS.glob("*.jsonl")) + sorted(
    p.stem for p in LESSON_RECORDINGS.glob("*.jsonl") if p.stem not in WALKS)
# Every walk and every recording of every lesson, at every size, in both languages: the
# walkthrough with every overlay, the other walks with every hint and solution, the recordings
# with their own verdicts and timelines (a recording's screens differ by size and language as the
# walkthrough's do: a verdict that fits 100 columns in English may not fit 60 in Korean).
CASES = [(name, w, h, lang) for name in ["walkthrough", *sorted(WALKS - {"walkthrough"}), *RECS]
         for w, h in SIZES for lang in LANGS]
# Every size in both languages (a question or a notice in Korean wraps where its English does not).
SIZES_LANGS = [(w, h, lang) for w, h in SIZES for lang in LANGS]
DEAD = "https://127.0.0.1:1"  # nothing listens on port 1: refused at once


def _ids(cases):
    return [f"{c[0]}-{c[1]}x{c[2]}-{c[3]}" for c in cases]


def _done(audit: Audit, name: str) -> None:
    audit.dump(name)
    if audit.findings:
        pytest.fail(audit.report(), pytrace=False)


async def _step(pilot, n: int) -> None:
    """Goes to step n by its key and waits until its title is drawn at the lesson's top (a wait
    that runs out ends the drive: a finding, did-not-settle)."""
    app = pilot.app
    await pilot.press(str(n))
    title = app.session.lesson.step(n).text(app.session.lang).title
    await heading_in_view(pilot, f"{n}. {title}")
    await _painted(pilot)


async def _shown(pilot, cond, what: str, seen=None) -> None:
    """Waits until cond() holds (a screen pushed, a pane zoomed: a few frames after the key) and
    the screen could be painted: the frame looked at is the one the key leads to."""
    await until(pilot, cond, what, seen=seen)
    await _painted(pilot)


async def _look_verdict_zoomed(pilot, audit: Audit, moment: str) -> None:
    app = pilot.app
    verdict = app.query_one("#verdict")
    verdict.focus()
    await pilot.press("z")
    await _shown(pilot, lambda: app.screen.maximized is verdict, "the verdict zoomed", seen=lambda: app.screen.maximized)
    audit.look(app, f"{moment}, verdict zoomed (z)")
    await pilot.press("escape")
    await _shown(pilot, lambda: app.screen.maximized is None, "the verdict back in its place",
                 seen=lambda: app.screen.maximized)
    app.query_one("#lesson").focus()


async def _look_hints_and_solution(pilot, audit: Audit, n: int) -> None:
    app = pilot.app
    hints = len(app.session.lesson.step(n).text(app.session.lang).hints)
    for i in range(1, hints + 1):
        await pilot.press("h")
        await hint_in_view(pilot, n, i)
        await _painted(pilot)
        audit.look(app, f"step {n}, hint {i} of {hints} (h)")
        audit.revealed(app, app.page.hint_heading(n, i), f"step {n}, hint {i} of {hints} (h)")
        await _restored(pilot)
    await pilot.press("h")  # dimmed: nothing to wait for
    await _painted(pilot)
    audit.look(app, f"step {n}, h with no hint left")
    await pilot.press("s")  # on a step that passed it shows without asking
    await until(pilot, lambda: isinstance(app.screen, ConfirmScreen) or n in app.session.progress.solutions,
                "the solution's question, or the solution", seen=lambda: app.screen)
    if isinstance(app.screen, ConfirmScreen):
        await _painted(pilot)
        audit.look(app, f"step {n}, the solution's confirm (s)")
        await pilot.press("y")
        await off_screen(pilot, ConfirmScreen)
    await heading_in_view(pilot, say(app.lang, "Solution", "풀이"))
    await _painted(pilot)
    audit.look(app, f"step {n}, the solution (y)")
    audit.revealed(app, say(app.lang, "Solution", "풀이"), f"step {n}, the solution (y)")
    await _restored(pilot)


async def _restored(pilot) -> None:
    """esc, when the key zoomed the lesson pane to show what it revealed: the pane back."""
    app = pilot.app
    if app.screen.maximized is not None:
        await pilot.press("escape")
        await _shown(pilot, lambda: app.screen.maximized is None, "the lesson pane back in its place",
                     seen=lambda: app.screen.maximized)


async def _look_overlays(pilot, audit: Audit) -> None:
    app = pilot.app
    await _look_timeline(pilot, audit)
    await pilot.press("question_mark")
    await on_screen(pilot, HelpScreen)
    await _painted(pilot)
    audit.look(app, "help (?)")
    await pilot.press("escape")
    await off_screen(pilot, HelpScreen)
    await pilot.press("ctrl+p")
    await on_screen(pilot, CommandPalette)
    await _shown(pilot, lambda: palette_choice(app), "the palette's first entries")
    audit.look(app, "the palette (ctrl+p)")
    word = "힌트" if app.session.lang == "ko" else "hint"
    for ch in word:
        await pilot.press(ch)
    await _shown(pilot, lambda: word in palette_choice(app).lower(), f"the palette's entries for {word!r}",
                 seen=lambda: palette_choice(app))
    audit.look(app, "the palette, searched")
    await pilot.press("escape")
    await off_screen(pilot, CommandPalette)


async def _look_timeline(pilot, audit: Audit) -> None:
    await pilot.press("t")
    await on_screen(pilot, TimelineScreen)
    await _painted(pilot)
    audit.look(pilot.app, "the timeline (t)")
    await pilot.press("t")
    await off_screen(pilot, TimelineScreen)


async def _look_resized(pilot, audit: Audit, home: tuple[int, int]) -> None:
    """The screen the walk ended on, resized to every other size of the audit (narrower and
    wider, in turn) and back: each frame after a resize reads as well as a fresh one."""
    app = pilot.app
    for w, h in [*(s for s in SIZES if s != home), home]:
        await pilot.resize_terminal(w, h)
        await until(pilot, lambda w=w, h=h: (app.size.width, app.size.height) == (w, h), f"the app at {w}x{h}",
                    seen=lambda: app.size)
        await _footer_caught_up(pilot, f"the footer fitted to {w}x{h}")
        audit.look(app, f"the end of the walk, resized to {w}x{h}")


async def _footer_caught_up(pilot, what: str) -> None:
    """Until the screen could be painted and its footer is what a fresh draw would show (the
    footer rule finds nothing), for at most FITS_S: the footer follows a resize, a screen pushed
    or a step passed a few turns after it, and one that never does is the look's finding."""
    from tests.ui.screen_text import screen_lines

    app = pilot.app

    def caught_up() -> bool:
        probe = Audit("probe")
        probe.footer(app, "")
        return not app._batch_count and not probe.findings

    try:
        await until(pilot, caught_up, what, timeout=FITS_S, seen=lambda: screen_lines(app)[-1])
    except AssertionError:
        await _painted(pilot)


def _dead_kubeconfig(tmp_path):
    path = tmp_path / "dead.kubeconfig"
    path.write_text(yaml.safe_dump({
        "apiVersion": "v1", "kind": "Config", "current-context": "dead",
        "clusters": [{"name": "dead", "cluster": {"server": DEAD}}],
        "users": [{"name": "u", "user": {"token": "t"}}],
        "contexts": [{"name": "dead", "context": {"cluster": "dead", "user": "u"}}]}))
    return path


async def _look_doctor_panel(pilot, audit: Audit, tmp_path) -> None:
    """The lab check on a cluster that refuses: the real preflight, its panel beside the lesson."""
    from tutor.cluster.connect import connect

    app = pilot.app
    app.run_doctor(connect(str(_dead_kubeconfig(tmp_path))).api_client)
    try:
        await until(pilot, lambda: app.query_one("#doctor").display, "the lab check panel")
    except AssertionError as exc:
        audit.add("app-ended", f"the lab check panel never showed on a refusing cluster: {exc}", "doctor")
        return
    for n in (1, 5, 8):
        await _step(pilot, n)
        audit.look(app, f"step {n}, the lab check panel up (refusing cluster)")
    # l: the panel's findings are asked again, in the other language (a mixed panel is a finding)
    await pilot.press("l")
    body = app.query_one("#doctor-body")

    def in_its_language() -> bool:
        return bool(re.search("[가-힣]", str(body.content))) == (app.session.lang == "ko")

    try:
        await until(pilot, in_its_language, "the lab check panel's findings in the language l chose",
                    seen=lambda: str(body.content))
    except AssertionError as exc:
        audit.add("did-not-settle", f"the lab check panel's findings stayed in the other language after l: {exc}",
                  "doctor")
    audit.look(app, "the lab check panel after l")
    await pilot.press("l")
    await until(pilot, in_its_language, "the lab check panel's findings back in the first language",
                seen=lambda: str(body.content))
    doctor = app.query_one("#doctor")
    doctor.focus()
    await pilot.press("z")
    await _shown(pilot, lambda: app.screen.maximized is doctor, "the lab check panel zoomed",
                 seen=lambda: app.screen.maximized)
    audit.look(app, "the lab check panel zoomed")
    await pilot.press("escape", "x")
    await _shown(pilot, lambda: app.screen.maximized is None and not doctor.display, "the lab check panel hidden",
                 seen=lambda: (app.screen.maximized, doctor.display))
    audit.look(app, "the lab check panel dismissed (x)")


@pytest.mark.parametrize("name,w,h,lang", CASES, ids=_ids(CASES))
async def test_every_screen_reads_well(name, w, h, lang, tmp_path):
    audit = Audit(f"{name} {w}x{h} {lang}")
    app = make_app(recording_path(name), lang=lang, state_file=tmp_path / "p.json")
    try:
        async with app.run_test(size=(w, h), notifications=True) as pilot:
            await settled(pilot)
            audit.look(app, "settled")
            walkthrough = name == "walkthrough"
            for n in range(1, len(app.session.lesson.steps) + 1):
                await _step(pilot, n)
                audit.look(app, f"step {n}")  # the verdict's whole text is read here too
                if name in WALKS:
                    await _look_verdict_zoomed(pilot, audit, f"step {n}")
                    await _look_hints_and_solution(pilot, audit, n)
            if walkthrough:
                await _look_overlays(pilot, audit)
            else:  # the timeline is the recording's own; the other overlays are the walkthrough's
                await _look_timeline(pilot, audit)
            if walkthrough:
                await _look_doctor_panel(pilot, audit, tmp_path)
            audit.look(app, "the end of the walk")
            await _look_resized(pilot, audit, (w, h))
    except Exception as exc:  # noqa: BLE001 - the app raising is a finding like the others
        audit.fell(app, exc, "while driven")
    _done(audit, f"screens-{name}-{w}x{h}-{lang}")


PREDICT_CASES = SIZES_LANGS


@pytest.mark.parametrize("w,h,lang", PREDICT_CASES, ids=[f"{w}x{h}-{lang}" for w, h, lang in PREDICT_CASES])
async def test_predictions_read_well(w, h, lang, tmp_path):
    """w on steps 5 and 6, before the cluster acts: each question, then the answer in the lesson."""
    from tests.ui.moments import moments

    audit = Audit(f"walkthrough at its start {w}x{h} {lang}")
    app = make_app(WALKTHROUGH, lang=lang, state_file=tmp_path / "p.json", upto=moments()["start"])
    try:
        async with app.run_test(size=(w, h), notifications=True) as pilot:
            await settled(pilot)
            for n in (5, 6):
                await _step(pilot, n)
                audit.look(app, f"step {n}, offered a prediction")
                await pilot.press("w")
                asking = await on_screen(pilot, PredictScreen)
                for q in range(1, len(asking._questions) + 1):
                    await _painted(pilot)
                    audit.look(app, f"step {n}, prediction question {q} (w)")
                    await pilot.press("1")
                    await until(pilot, lambda q=q: app.screen is not asking or asking._at == q,
                                f"question {q + 1} or the lesson", seen=lambda: (app.screen, asking._at))
                await off_screen(pilot, PredictScreen)
                await _painted(pilot)
                audit.look(app, f"step {n}, predicted")
    except Exception as exc:  # noqa: BLE001
        audit.fell(app, exc, "while driven")
    _done(audit, f"predict-{w}x{h}-{lang}")


PROBLEMS = ["directory", "corrupt", "saving-fails"]
PROGRESS_CASES = [(p, w, h, lang) for p in PROBLEMS for w, h, lang in SIZES_LANGS]


@pytest.mark.parametrize("problem,w,h,lang", PROGRESS_CASES, ids=[f"{p}-{w}x{h}-{lang}" for p, w, h, lang in PROGRESS_CASES])
async def test_progress_file_problems_read_well(problem, w, h, lang, tmp_path):
    """The progress file where it goes is a directory, holds broken JSON, or stops saving mid-run:
    the notice the learner gets, over the walkthrough."""
    from tutor.progress import state_dir

    audit = Audit(f"progress {problem} {w}x{h} {lang}")
    where = state_dir() / f"replay-{WALKTHROUGH.stem}.json"
    where.parent.mkdir(parents=True, exist_ok=True)
    if problem == "directory":
        where.mkdir()
    elif problem == "corrupt":
        where.write_text('{"current": 3, "passed": [1, 2')
    app = make_app(WALKTHROUGH, lang=lang)
    try:
        async with app.run_test(size=(w, h), notifications=True) as pilot:
            await first_frame(pilot)
            # the replay runs on: a step passing (h gives way to s) or the end's screen coming is
            # in the footer a turn or two later; a footer that never catches up is a finding
            await _footer_caught_up(pilot, "the footer to catch up with the replay's first frames")
            audit.look(app, "first frame")
            await settled(pilot)
            audit.look(app, "settled")
            if problem == "saving-fails":
                shutil.rmtree(where.parent)
                where.parent.write_text("not a directory")
                # What is said, not how many are up: a pass notice (up 5 s) may go as this one comes.
                said = notices_said(app)
                await pilot.press("h")
                await _shown(pilot, lambda: any(n.severity == "warning" for n in said), "the notice that a save failed",
                             seen=lambda: [m.message for m in said])
                audit.look(app, "a save failed (h)")
                await _step(pilot, 8)
                audit.look(app, "a save failed, step 8")
    except Exception as exc:  # noqa: BLE001
        audit.fell(app, exc, "while driven")
    _done(audit, f"progress-{problem}-{w}x{h}-{lang}")


# The demo plays each lesson's walkthrough to its end: every lesson, size and language.
DEMO_CASES = [(lesson, w, h, lang) for lesson in lessons_with_walkthrough() for w, h in SIZES for lang in LANGS]


@pytest.mark.parametrize("lesson,w,h,lang", DEMO_CASES, ids=[f"{le}-{w}x{h}-{lang}" for le, w, h, lang in DEMO_CASES])
async def test_the_end_of_the_demo_reads_well(lesson, w, h, lang):
    from tutor.cli import build_parser
    from tutor.commands.demo import demo_app

    audit = Audit(f"demo {lesson} {w}x{h} {lang}")
    app = demo_app(build_parser().parse_args(["demo", "--lesson", lesson, "--speed", "1000", "--pause", "0",
                                              "--lang", lang]))
    said = notices_said(app)  # the closing notice is up 8 s, which a loaded machine may outlast
    try:
        async with app.run_test(size=(w, h), notifications=True) as pilot:
            await settled(pilot)
            await until(pilot, lambda: any(n.title for n in said), "the demo's closing notice",
                        seen=lambda: [n.message for n in said])
            await _painted(pilot)
            audit.look(app, "the end of the demo")
    except Exception as exc:  # noqa: BLE001
        audit.fell(app, exc, "while driven")
    _done(audit, f"demo-end-{lesson}-{w}x{h}-{lang}")


# --- the key storm ---------------------------------------------------------------------------
def _type(app, key: str) -> None:
    """A key as the terminal's driver sends it, without waiting for the app to handle it."""
    import unicodedata

    from textual import events
    from textual.keys import _character_to_key, _get_unicode_name_from_key

    if len(key) == 1 and not key.isalnum():
        key = _character_to_key(key)
    try:
        char = unicodedata.lookup(_get_unicode_name_from_key(key))
    except KeyError:
        char = key if len(key) == 1 else None
    event = events.Key(key, char)
    event.set_sender(app)
    app._driver.send_message(event)


KEYS = [*"nphsrltwzxgy", *"123456789", "tab", "shift+tab", "escape", "question_mark", "ctrl+p", "up", "down",
        "pageup", "pagedown", "home", "end", "left", "right", "enter"]
PALETTE_KEYS = [*"hintsepolau", "힌", "트", "단", "계", "backspace", "up", "down", "escape"]
STORM_KEYS = 200


async def _painted(pilot) -> None:
    """Until the screen could be painted: inside a batch update (a step's text and its verdict
    changing together) Textual paints nothing, so the widgets' half-changed state there is no
    frame the learner sees."""
    await pilot.pause()
    await until(pilot, lambda: not pilot.app._batch_count, "the screen out of its batch update (a frame to paint)",
                seen=lambda: f"{pilot.app._batch_count} batch updates open")
LOOK_EVERY = 20


@pytest.mark.parametrize("w,h", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_a_key_storm_never_ends_the_app_and_every_frame_reads_well(w, h, tmp_path):
    """Seeded random keys and palette text, pressed with no waits between them (q and ctrl+c left
    out, and enter inside the palette, which may pick Textual's own Quit)."""
    from textual.command import CommandPalette

    rng = random.Random(f"storm-{w}x{h}")
    lang = rng.choice(LANGS)
    audit = Audit(f"key storm {w}x{h} from {lang}")
    app = make_app(WALKTHROUGH, lang=lang, state_file=tmp_path / "p.json")
    quits_counted(app)
    pressed: list[str] = []
    try:
        async with app.run_test(size=(w, h), notifications=True) as pilot:
            await settled(pilot)
            for i in range(STORM_KEYS):
                key = rng.choice(PALETTE_KEYS if CommandPalette.is_open(app) else KEYS)
                pressed.append(key)
                _type(app, key)
                await asyncio.sleep(0)  # one turn of the loop: the keys come faster than frames
                if not app.is_running:
                    break
                if i % LOOK_EVERY == LOOK_EVERY - 1:
                    await _painted(pilot)
                    audit.look(app, f"after keys {' '.join(pressed[-8:])} (#{i + 1})")
            await handled(pilot, "every key of the storm handled")
            await _painted(pilot)
            audit.look(app, "after the storm")
    except Exception as exc:  # noqa: BLE001
        audit.fell(app, exc, f"storm, after {' '.join(pressed[-10:])}")
    _done(audit, f"storm-{w}x{h}")


async def test_the_step_rule_finds_a_verdict_drawn_for_another_step(tmp_path):
    """The rule can fail: a verdict box drawn for step 2 beside step 1's text is a finding, and
    the same box back on step 1 is none."""
    app = make_app(WALKTHROUGH, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        await pilot.press("1")
        await until(pilot, lambda: app.query_one("#verdict").step == 1 and app.query_one("#lesson").step == 1,
                    "step 1 drawn")
        await handled(pilot)
        box = app.query_one("#verdict")
        right, wrong = Audit("step rule, right"), Audit("step rule, wrong")
        right.look(app, "step 1")
        box.step = 2  # as a box drawn for step 2 would say
        wrong.look(app, "step 1, its verdict said to be step 2's")
        box.step = 1
    assert [f.rule for f in right.findings if f.rule == "step-mismatch"] == []
    assert [f.rule for f in wrong.findings if f.rule == "step-mismatch"] == ["step-mismatch"]


# --- the footer: after every resize, under every screen ----------------------------------------
# Both directions: narrower, then wider than any before, then back to the start.
RESIZES = [(80, 24), (60, 20), (160, 48), (80, 24)]
FITS_S = 15.0  # a footer fits a new size, and a key acts, in a few frames


async def _base(pilot) -> None:
    """Back to the lesson alone, on step 5 (its hints, its solution, its questions)."""
    app = pilot.app
    while len(app.screen_stack) > 1:
        up = len(app.screen_stack)
        await pilot.press("escape")
        await until(pilot, lambda: len(app.screen_stack) < up, "a screen closed by esc", seen=lambda: app.screen_stack)
    if app.screen.maximized is not None:
        await pilot.press("escape")
    if app.session.progress.current != 5:
        await _step(pilot, 5)


async def _open(pilot, keys, kind) -> None:
    """From the lesson alone on step 5, the keys (or a call, for a screen no key opens), until
    a screen of `kind` is on top."""
    await _base(pilot)
    app = pilot.app
    if callable(keys):
        keys(app)
    else:
        await pilot.press(*keys)
    await until(pilot, lambda: isinstance(app.screen, kind), f"{kind.__name__} on top", seen=lambda: app.screen_stack)
    await _painted(pilot)


def _overlays(phase: str) -> list:
    """(what, keys from the lesson on step 5 or a call, the screen they open on top) for the
    phase: at the replay's start (a prediction open), or its end (every step passed)."""
    from textual.command import CommandPalette

    from tutor.ui.screens.finish import FinishScreen
    from tutor.ui.screens.lesson import LessonScreen

    common = [("the lesson", (), LessonScreen), ("the timeline", ("t",), TimelineScreen),
              ("the help", ("question_mark",), HelpScreen), ("the help over the timeline", ("t", "question_mark"), HelpScreen),
              ("the palette", ("ctrl+p",), CommandPalette),
              # its y changes something each time (the solution's question is asked only once)
              ("a question (reset the step)", lambda app: app.lesson.action_reset_step(), ConfirmScreen)]
    if phase == "start":
        return [*common, ("a prediction", ("w",), PredictScreen)]
    return [*common, ("the end", ("f",), FinishScreen)]


def _state(app, rechecks: list, said: list) -> tuple:
    """What a key may change: the screens up, the language, the step and what it revealed, a
    pane zoomed, the lab check panel, a re-check asked, a notice said."""
    s = app.session
    return (tuple(map(id, app.screen_stack)), s.lang, s.progress.current, tuple(sorted(s.progress.hints.items())),
            tuple(sorted(s.progress.solutions)), app.screen_stack[0].maximized is not None,
            app.lesson.doctor_shown(), len(rechecks), len(said))


@pytest.mark.parametrize("phase", ["start", "end"])
@pytest.mark.parametrize("lang", LANGS)
async def test_the_footer_follows_every_resize_and_each_key_it_shows_acts(phase, lang, tmp_path):
    """On the lesson and under every screen over it: resized 80x24 -> 60x20 -> 160x48 -> 80x24,
    the footer row is what the screen on top offers at each width (the audit's footer rule);
    then each key it shows, pressed, acts: the screens, the step, the language or a notice
    change. q last, on the screen the issue named (or the end): the app ends."""
    from tests.ui.moments import moments
    from tests.ui.screen_text import screen_lines
    from textual.widgets._footer import FooterKey

    from tutor.ui.widgets.key_footer import KeyFooter

    audit = Audit(f"footer {phase} {lang}")
    upto = moments()["start"] if phase == "start" else None
    app = make_app(WALKTHROUGH, lang=lang, state_file=tmp_path / "p.json", upto=upto)
    said = notices_said(app)
    rechecks: list = []
    try:
        async with app.run_test(size=RESIZES[0], notifications=True) as pilot:
            await settled(pilot)
            recheck = app.driver.recheck
            app.driver.recheck = lambda: (rechecks.append(1), recheck())[1]  # r's effect, seen
            overlays = _overlays(phase)
            for what, keys, kind in overlays:
                await _open(pilot, keys, kind)
                for w, h in RESIZES:
                    await pilot.resize_terminal(w, h)

                    def fits(w=w) -> bool:
                        probe = Audit("probe")
                        probe.footer(app, "")
                        return app.size.width == w and not probe.findings

                    try:  # not for a whole MOMENT: one that has not fitted by then has its finding below
                        await until(pilot, fits, f"the footer over {what} to fit {w}x{h}", timeout=FITS_S,
                                    seen=lambda: screen_lines(app)[-1])
                    except AssertionError:
                        pass  # the rule says what is wrong, below
                    await _painted(pilot)
                    audit.footer(app, f"{what}, resized to {w}x{h}")
                beneath = next(s for s in reversed(app.screen_stack) if s.query(KeyFooter))
                shown = [(k.key.split(",")[0].strip(), k.key_display) for k in beneath.query_one(KeyFooter).query(FooterKey)
                         if not k.has_class("-disabled") and k.key != "q"]
                for key, display in shown:
                    await _open(pilot, keys, kind)
                    before = _state(app, rechecks, said)
                    await pilot.press(key)
                    try:
                        await until(pilot, lambda before=before: _state(app, rechecks, said) != before,
                                    f"{display} to act on {what}", timeout=FITS_S)
                    except AssertionError:
                        audit.add("footer", f"{display} in the footer does nothing on {what}", f"{what}, {display}")
                    if app.session.lang != lang:  # l: back, for the next key's screen
                        app.action_toggle_lang()
            await _open(pilot, *overlays[3 if phase == "start" else -1][1:])
            await pilot.press("q")
            await until(pilot, lambda: not app.is_running, "q to quit", seen=lambda: app.screen)
    except Exception as exc:  # noqa: BLE001 - the app raising is a finding like the others
        audit.fell(app, exc, "while driven")
    if app.is_running or app.return_code not in (None, 0):
        audit.add("footer", f"q did not quit (running {app.is_running}, return code {app.return_code})", "q")
    _done(audit, f"footer-{phase}-{lang}")


async def test_the_footer_rule_finds_a_stale_footer_and_keys_that_do_not_act(tmp_path):
    """The rule can fail: the lesson's keys under the help (n does nothing there, q is the
    help's) and a footer not fitted again after a resize are findings; the footer as drawn is none."""
    from tests.ui.harness import empty_recording
    from tutor.ui.widgets.key_footer import KeyFooter

    app = make_app(empty_recording(tmp_path), lang="en", state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        footer = app.lesson.query_one(KeyFooter)
        await pilot.press("question_mark")
        await on_screen(pilot, HelpScreen)
        await _painted(pilot)
        right, lesson_keys, stale = Audit("footer rule, right"), Audit("footer rule, lesson keys"), Audit("footer rule, stale")
        right.footer(app, "the help")
        footer.keys_screen = lambda: app.lesson  # as Textual's footer read its own screen's keys
        footer.refresh(recompose=True)
        await until(pilot, lambda: any(k.action == "next" for k in footer.children), "the lesson's keys composed")
        await _painted(pilot)
        lesson_keys.footer(app, "the help, the lesson's keys")
        del footer.keys_screen
        await pilot.press("escape")
        await off_screen(pilot, HelpScreen)
        footer.fit_again = lambda: None  # as a footer that keeps the old width's keys
        await pilot.resize_terminal(60, 20)
        await _painted(pilot)
        stale.footer(app, "resized to 60x20, not fitted again")
    assert right.findings == []
    assert any("next" in f.what and "does not act on HelpScreen" in f.what for f in lesson_keys.findings)
    assert any("a fresh draw" in f.what for f in stale.findings), stale.findings
