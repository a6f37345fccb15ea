"""The tutor's actions that ask first (ConfirmScreen): reset the step, reset all progress, and
show the step's solution.

The solution is the last rung of a step, apart from its hints: the hints nudge, explain and show
part of the way; the solution is the whole answer. It has its own key (s), asks in the learner's
language, then shows under its own heading in the lesson pane, scrolled into view. The progress
notes that it was shown, and a pass after it says so (progress.py, `check --json`). Once the step
has passed there is nothing left to give away: s shows it at once, to compare with one's own
answer, and the pass notice says so.
"""

from __future__ import annotations

from textual import work

from tutor.ui.footer_fit import PRIORITY, fit_footer
from tutor.ui.screens.confirm import ConfirmScreen
from tutor.ui.widgets.doctor_panel import DoctorPanel
from tutor.ui.widgets.lesson_pane import LessonPane
from tutor.words import say


class ConfirmedActions:
    """Mixed into TutorApp (self is the app: session, text, say, redraw_lesson, recheck)."""

    # --- the solution ------------------------------------------------------------------------
    def solution_text(self, n: int) -> str:
        s = self.session
        return s.lesson.step(n).text(s.lang).solution

    def solution_key(self) -> bool | None:
        """check_action for s: None dims it, when the step has no solution or it is shown."""
        n = self.session.progress.current
        return None if not self.solution_text(n) or n in self.session.progress.solutions else True

    def solution_markdown(self, n: int) -> str:
        """The solution's section of the step's markdown, once it was shown ("" before)."""
        text = self.solution_text(n)
        if not text or n not in self.session.progress.solutions:
            return ""
        return f"### {say(self.lang, 'Solution', '풀이')}\n\n{text}"

    def footer_keys(self) -> None:
        """The footer's keys for this step and width (tutor/ui/footer_fit.py): h while the step
        has hints to reveal, then s in its place (the help and the palette always list both);
        x while the lab check panel is up."""
        s = self.session
        n = s.progress.current
        hints_left = s.progress.hints.get(n, 0) < len(s.lesson.step(n).text(s.lang).hints)
        # after a pass, the solution is there to compare with: s takes h's place
        solution_next = bool(self.solution_text(n)) and (not hints_left or n in s.progress.passed)
        wanted = dict.fromkeys(PRIORITY, True)
        wanted.update(hint=not solution_next, solution=solution_next,
                      dismiss_doctor=bool(self.query_one(DoctorPanel).display))
        fit_footer(self, wanted, self.footer_width())

    @work(exclusive=True, group="solution")
    async def action_solution(self) -> None:
        s = self.session
        n = s.progress.current
        if not self.solution_text(n):
            self.notice(say(self.lang, "Step {n} has no solution to show.", "{n}단계에는 보여 줄 풀이가 없습니다.", n=n),
                        timeout=3)
            return
        if n not in s.progress.solutions and n not in s.progress.passed:  # passed: nothing to give away
            total = len(s.lesson.step(n).text(s.lang).hints)
            left = total - s.progress.hints.get(n, 0)
            question = say(self.lang, "Show the solution to step {n}? It is the whole answer. Progress notes that "
                                      "you saw it, and a pass after it is marked so, in check --json too.",
                                      "{n}단계의 풀이를 볼까요? 풀이는 답 전체입니다. 풀이를 본 사실이 진행 기록에 남고, 그 "
                                      "뒤의 통과는 check --json에서도 풀이를 본 뒤의 통과로 나옵니다.", n=n)
            if left == total:
                question += " " + say(self.lang, "None of its {total} hints is shown yet (h).",
                                                 "힌트 {total}개를 아직 하나도 보지 않았습니다(h).", total=total)
            elif left > 0:
                question += " " + say(self.lang, "{left} of its {total} hints are not shown yet (h).",
                                                 "힌트 {total}개 중 {left}개가 아직 남아 있습니다(h).",
                                                 left=left, total=total)
            if not await self.push_screen_wait(ConfirmScreen(question, *self.yes_no())):
                return
        if n not in s.progress.solutions:
            s.progress.show_solution(n)
            self.redraw_lesson()
        if s.progress.current == n:  # shown now, or already (the palette): bring it into view
            self.query_one(LessonPane).bring_into_view(say(self.lang, "Solution", "풀이"))

    def yes_no(self) -> tuple[str, str]:
        """The answers a question asked before a change takes (ConfirmScreen's y and n)."""
        return say(self.lang, "Yes", "예"), say(self.lang, "No", "아니요")

    # --- resets ------------------------------------------------------------------------------
    @work
    async def action_reset_step(self) -> None:
        n = self.session.progress.current
        question = say(self.lang, "Reset step {n}? Its pass, revealed hints and predictions are forgotten.",
                                  "{n}단계를 초기화할까요? 통과 기록과 열어 본 힌트, 예측이 지워집니다.", n=n)
        if n in self.session.progress.solutions:
            question += " " + say(self.lang, "Its solution stays shown: it was seen.",
                                             "풀이는 이미 본 것이라 그대로 남습니다.")
        if await self.push_screen_wait(ConfirmScreen(question, *self.yes_no())):
            self.session.progress.reset(n)
            self._finish_opened = False  # passing it again finishes the lesson again
            self.recheck()

    @work
    async def action_reset_all(self) -> None:
        question = say(self.lang, "Reset all progress? Every pass, revealed hint and prediction is forgotten.",
                                  "전체 진행을 초기화할까요? 모든 통과 기록과 힌트, 예측이 지워집니다.")
        if self.session.progress.solutions:
            question += " " + say(self.lang, "Solutions already shown stay shown.",
                                             "이미 본 풀이는 그대로 남습니다.")
        if await self.push_screen_wait(ConfirmScreen(question, *self.yes_no())):
            self.session.progress.reset()
            self._finish_opened = False
            self.recheck()
