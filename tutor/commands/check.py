"""`lwstutor check`: evaluate once, against the live cluster or the end of a replay."""

from __future__ import annotations

import sys
from itertools import groupby

from tutor.commands.results import EXIT_NOT_PASSED, EXIT_OK, EXIT_UNCONFIRMED, UsageError, cluster_error, print_json
from tutor.cluster import kinds
from tutor.cluster.source_events import Conn
from tutor.commands.setup import connect_for, mark_start, progress_to_read, replay_items, session_for
from tutor.workspace.files import read_answer
from tutor.i18n.bilingual import say
from tutor.narration.failures import sentence

MARKS = {"pass": "✓", "fail": "✗", "waiting": "…", "error": "!", "unconfirmed": "?"}


def run_check(args) -> int:
    session = session_for(args)
    lesson = session.lesson
    steps = args.step or [s.number for s in lesson.steps]
    bad = [n for n in steps if not 1 <= n <= len(lesson.steps)]
    if bad:
        raise UsageError(f"--step {bad[0]}: the lesson has steps 1 to {len(lesson.steps)}",
                         f"--step {bad[0]}: 이 수업의 단계는 1부터 {len(lesson.steps)}까지입니다")
    learner = progress_to_read(args, lesson, replay=bool(args.replay))  # which solutions were shown
    latched: dict[int, float] = {}
    if args.replay:
        latched = replay_instantly(session, args, steps)
    else:
        load_live(session, args)
    if args.workdir or not args.replay:
        for name in lesson.answer_files:
            session.apply(read_answer(session.workspace.path(name), name))
    session.evaluate(steps)
    report = [step_report(session, n, latched.get(n)) for n in steps]
    for r in report:
        r.update(solution_report(learner, r["step"], r["status"] == "pass"))
        r.update(prediction_report(session, learner, r["step"]))
    if args.json:
        print_json({"lesson": lesson.id, "steps": report})
    else:
        for r in report:
            after = say(session.lang, " (passed after its solution was shown)", " (풀이를 본 뒤 통과)") \
                if r["after_solution"] else ""
            print(f"{MARKS[r['status']]} {r['step']}. {lesson.step(r['step']).title(session.lang)}: {r['message']}{after}")
            for d in r["details"]:
                print(f"     {d}")
    return exit_code([r["status"] for r in report])


def exit_code(statuses: list[str]) -> int:
    """0 when every step passed; 3 when the only ones that did not cannot be confirmed (README);
    else 1."""
    if all(s == "pass" for s in statuses):
        return EXIT_OK
    if all(s in ("pass", "unconfirmed") for s in statuses):
        return EXIT_UNCONFIRMED
    return EXIT_NOT_PASSED


def step_report(session, n: int, passed_at: float | None) -> dict:
    v = session.verdicts[n]
    out = {"step": n, "id": session.lesson.step(n).id, **v.to_json()}
    if passed_at is not None and not v.passed:
        # Like the tutor's progress: a step that passed during the replay stays passed.
        out["live"] = v.to_json()
        out.update(status="pass", message=session.progress.passed[n]["message"],
                   details=[latched_line(session.lang, passed_at, v.status.value, v.message)])
    return out


def solution_report(learner, n: int, passes_now: bool) -> dict:
    """Whether the learner was shown the step's solution (in the tutor, with the same progress
    file), and whether the step passed after it: latched after it in the tutor, or passing now,
    with no pass of the tutor's from before it."""
    shown = n in learner.solutions
    if n in learner.passed:
        after = learner.after_solution(n)
    else:
        after = shown and passes_now
    return {"solution_shown": shown, "after_solution": after}


def prediction_report(session, learner, n: int) -> dict:
    """A step that asks for predictions (lesson.yaml `predict:`): the learner's answers, graded
    against the timeline as the tutor's recap grades them (none before the episode begins)."""
    step = session.lesson.step(n)
    if not step.predict:
        return {}
    from tutor.checks.prediction import entries, graded

    grades = graded(step, session.store, session.lesson.namespace, learner.predictions.get(n, {}))
    return {"predictions": entries(grades, session.lang)}


# A verdict's status in a sentence (the marks say it at the start of each line).
STATUS_WORDS = {"pass": ("pass", "통과"), "fail": ("fail", "실패"), "waiting": ("waiting", "기다리는 중"),
                "error": ("error", "오류"), "unconfirmed": ("unconfirmed", "확인할 수 없음")}


def latched_line(lang: str, passed_at: float, status: str, message: str) -> str:
    """What a step that passed during the replay says now: when it passed, and what it is now."""
    return say(lang, "passed at t={t:.1f}s; now {status}: {message}", "t={t:.1f}s에 통과. 지금은 {status}: {message}",
               t=passed_at, status=STATUS_WORDS[status], message=message)


def replay_instantly(session, args, steps: list[int]) -> dict[int, float]:
    """Feeds the recording in time order, checking after each instant, and notes when each step passed."""
    passed_at: dict[int, float] = {}
    mark_start(session, args._recording)
    for t, items in groupby(replay_items(args, use_files=not args.workdir), key=lambda it: it.t):
        changed = False
        for item in items:
            changed |= session.apply(item)
        if changed:
            todo = [n for n in steps if n not in passed_at]
            for n in session.evaluate(todo):
                passed_at[n] = t
    return passed_at


def load_live(session, args) -> None:
    """One list of everything. A cluster that cannot be reached, or that lets the tutor read
    neither its pods nor anything else, is an error (exit 2, one line); a resource that is only
    forbidden or missing is said on stderr and the steps are judged without it."""
    from tutor.cluster.live import list_all

    conn = connect_for(args)
    mark_start(session)
    list_all(conn.api_client, session.lesson.namespace, session.apply, resources=session.lesson.kinds)
    states = session.states.values()
    failed = [s for s in states if s.state is not Conn.OK and s.failure is not None]
    fatal = next((s for s in failed if s.state is Conn.RECONNECTING or s.resource == kinds.POD.name), None)
    if fatal is not None or (failed and len(failed) == len(states)):
        raise cluster_error((fatal or failed[0]).failure)
    for s in states:
        if s.state is not Conn.OK:
            print(f"lwstutor: {s.resource}: {sentence(s.failure, session.lang) if s.failure else s.detail}",
                  file=sys.stderr)
