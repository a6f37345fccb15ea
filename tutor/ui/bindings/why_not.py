"""Why a key cannot act now, in the words the learner is shown on pressing it: the lesson
screen's keys and the app's. Their check_action dims or hides such a key from these; the app's
run_action says the reason when the key is pressed anyway."""

from __future__ import annotations

from textual.actions import ActionParseResult
from textual.actions import parse as parse_action

from tutor.i18n.bilingual import Said, saying
from tutor.ui.screens.finish import finished


def lesson_reason(screen, action: str, parameters: tuple) -> Said | None:
    """Why a lesson key cannot act now, in words the learner is shown when pressing it; None
    when it can."""
    s = screen.session
    cur, last = s.progress.current, len(s.lesson.steps)
    if action == "next" and cur >= last:
        return saying("Step {n} is the last: there is no next step.", "{n}단계가 마지막이라 다음 단계가 없습니다.",
                      n=cur)
    if action == "prev" and cur <= 1:
        return saying("Step 1 is the first: there is no step before it.", "1단계가 처음이라 이전 단계가 없습니다.")
    if action == "goto" and not 1 <= parameters[0] <= last:
        return saying("This lesson has {last} steps: there is no step {n}.",
                      "이 실습은 {last}단계까지라 {n}단계는 없습니다.", last=last, n=parameters[0])
    if action == "dismiss_doctor" and not screen.doctor_shown():
        return saying("The lab check panel is not open: there is nothing to hide.",
                      "실습 점검 창이 열려 있지 않아 숨길 것이 없습니다.")
    if action == "hint" and not screen.page.hints_left(cur):
        if screen.page.solution_offered():
            return saying("No hints left here: s shows the solution (it asks first).",
                          "남은 힌트가 없습니다. 풀이는 s 키로 봅니다(먼저 묻습니다).")
        return saying("No more hints for this step.", "이 단계의 힌트를 모두 보았습니다.")
    if action == "solution" and not screen.page.solution_offered():
        if not screen.page.solution_text(cur):
            return saying("Step {n} has no solution to show.", "{n}단계에는 보여 줄 풀이가 없습니다.", n=cur)
        return saying("Step {n}'s solution is already shown, under its text.",
                      "{n}단계의 풀이는 이미 설명 끝에 나와 있습니다.", n=cur)
    if action == "minimize" and screen.maximized is None and not len(screen.host.notices):
        return saying("Nothing to restore: no pane is zoomed and no notice is up.",
                      "되돌릴 것이 없습니다. 크게 본 창도 알림도 없습니다.")
    return None


def app_reason(app, action: str) -> Said | None:
    """Why an app key cannot act now, in words the learner is shown when pressing it; None
    when it can."""
    s = app.session
    if action == "finish" and not finished(s):
        return app.page.why_not_finished()
    if action == "predict" and not app.page.can_predict():  # only before the episode, once per question
        return app.page.why_no_prediction()
    return None


def pressed_reason(action: str | ActionParseResult, target: object) -> Said | None:
    """Why the action a pressed key named did not run, when its target (the app, the lesson screen)
    gives one; None for another node's action ("app.x" on a screen) or one Textual parsed already."""
    why = getattr(target, "why_not", None)
    if not isinstance(action, str) or why is None:
        return None
    namespace, name, parameters = parse_action(action)
    return None if namespace else why(name, parameters)
