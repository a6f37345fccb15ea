"""The step as the learner reads it: its markdown (text, predictions, hints, solution, recap), the
marks of the steps, the verdict's words, and which keys the footer offers. A pure model of the
session, without Textual, so each rule is tested without a screen (tests/test_page.py); the
lesson screen draws what it says."""

from __future__ import annotations

import time

from tutor.checks.step_story import recap_markdown
from tutor.cluster import kinds
from tutor.cluster.failure import Failure
from tutor.cluster.source_events import Conn
from tutor.narration import failures
from tutor.narration.absent_kinds import absent, absent_short
from tutor.checks.verdict import Status
from tutor.session import Session
from tutor.i18n.bilingual import Said, say, saying
from tutor.lesson.loader import Question

# The footer's keys, most needed first: the way out and the way to every key, then moving
# through the lesson. The keys of least use give way first on a narrow footer.
PRIORITY = ("quit", "help", "minimize", "next", "prev", "hint", "solution", "dismiss_doctor", "toggle_lang", "recheck",
            "maximize_pane")

STATUS_WORDS = {Status.PASS: ("PASS", "통과"), Status.FAIL: ("FAIL", "실패"), Status.WAITING: ("WAIT", "대기"),
                Status.ERROR: ("ERROR", "오류"),
                # neither a pass nor a fail: the answer may be right, and what proved it is gone
                Status.UNCONFIRMED: ("UNCONFIRMED", "확인 불가")}


def step_ranges(steps: list[int]) -> str:
    """1, 2, 3, 5 → "1–3, 5": a catch-up that passed every step says so in a few characters."""
    runs: list[list[int]] = []
    for n in sorted(set(steps)):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs)


class Page:
    def __init__(self, session: Session, *, replay: bool):
        self.session = session
        self.replay = replay  # a replay's clock is its own instant, never the wall clock

    @property
    def lang(self) -> str:
        return self.session.lang

    @property
    def current(self) -> int:
        return self.session.progress.current

    # --- the steps' marks --------------------------------------------------------------------
    def step_mark(self, n: int) -> str:
        s = self.session
        if n in s.progress.passed:
            return "passed"
        v = s.verdicts.get(n)
        if v is None or (n > s.progress.current and v.status is Status.FAIL):
            return "not-started"
        return {"fail": "fail", "waiting": "waiting", "error": "error", "pass": "passed",
                "unconfirmed": "unconfirmed"}[v.status.value]

    def marks(self) -> list[tuple[int, str, str]]:
        """Each step: its number, title and mark (the step list)."""
        return [(st.number, st.title(self.lang), self.step_mark(st.number)) for st in self.session.lesson.steps]

    # --- the step's markdown -----------------------------------------------------------------
    def markdown(self, n: int) -> str:
        s = self.session
        text = s.lesson.step(n).text(s.lang)
        parts = [f"# {n}. {text.title}", *self.invite(n), text.body]
        for i, hint in enumerate(text.hints[:s.progress.hints.get(n, 0)], start=1):
            parts.append(f"### {self.hint_heading(n, i)}\n\n{hint}")
        parts.append(self.solution_markdown(n))
        if n in s.progress.passed and text.recap:
            parts.append(f"### {say(self.lang, 'What you just saw', '방금 본 것')}\n\n{text.recap}"
                         + recap_markdown(s.store, s.lesson.namespace, s.lesson.step(n), s.lang)
                         + self.graded_predictions(n))
        return s.lesson.in_workdir("\n\n".join(p for p in parts if p), s.workspace.workdir)

    def hint_heading(self, step: int, i: int) -> str:
        hints = self.session.lesson.step(step).text(self.lang).hints
        return say(self.lang, "Hint {i} of {n}", "힌트 {i}/{n}", i=i, n=len(hints))

    def hints_left(self, n: int) -> bool:
        s = self.session
        return s.progress.hints.get(n, 0) < len(s.lesson.step(n).text(s.lang).hints)

    # --- the solution ------------------------------------------------------------------------
    def solution_text(self, n: int) -> str:
        s = self.session
        return s.lesson.step(n).text(s.lang).solution

    def solution_offered(self) -> bool | None:
        """check_action for s: None dims it, when the step has no solution or it is shown."""
        n = self.current
        return None if not self.solution_text(n) or n in self.session.progress.solutions else True

    def solution_markdown(self, n: int) -> str:
        """The solution's section of the step's markdown, once it was shown ("" before)."""
        text = self.solution_text(n)
        if not text or n not in self.session.progress.solutions:
            return ""
        return f"### {say(self.lang, 'Solution', '풀이')}\n\n{text}"

    # --- the footer --------------------------------------------------------------------------
    def footer_wanted(self, doctor_shown: bool, zoomed: bool = False) -> dict[str, bool]:
        """Which keys the footer offers for this step: h while the step has hints to reveal, then s
        in its place (the help and the palette always list both); x while the lab check panel
        is up; esc while a pane is zoomed (h and s zoom the lesson when it cannot hold their text)."""
        n = self.current
        # after a pass, the solution is there to compare with: s takes h's place
        solution_next = bool(self.solution_text(n)) and (not self.hints_left(n) or n in self.session.progress.passed)
        wanted = dict.fromkeys(PRIORITY, True)
        wanted.update(hint=not solution_next, solution=solution_next, dismiss_doctor=doctor_shown, minimize=zoomed)
        return wanted

    # --- the verdict and the notices ---------------------------------------------------------
    def verdict_words(self, unreachable: bool) -> dict[str, str]:
        lang = self.lang
        # Before the cluster first answers there is nothing to check: say so, not "checking…" for ever.
        checking = say(lang, "not checked yet: the cluster does not answer (the header says why)",
                       "아직 확인하지 못했습니다. 클러스터가 응답하지 않습니다(이유는 맨 윗줄에)") \
            if unreachable else say(lang, "checking…", "확인 중…")
        return {"checking": checking, "passed": say(lang, "passed", "통과함"), "now": say(lang, "now", "지금"),
                "title": say(lang, "Verdict", "판정"), "more": say(lang, "↓ more", "↓ 더 있음"),
                **{status.name: say(lang, *words) for status, words in STATUS_WORDS.items()}}

    def passed_said(self, steps: list[int]) -> Said:
        """The notice's line for steps just passed (the recap is in the lesson pane), kept as what
        it says: a notice follows a switch of language."""
        if steps == [self.current] and self.solution_offered():  # s shows its solution now
            return saying("✓ Step {n} passed: recap in the step · s compares solutions",
                          "✓ {n}단계 통과: 정리는 설명 끝에 · s로 풀이와 비교", n=steps[0])
        if len(steps) == 1:
            return saying("✓ Step {n} passed: recap in the step", "✓ {n}단계 통과: 정리는 설명 끝에", n=steps[0])
        return saying("✓ Steps {ns} passed", "✓ {ns}단계 통과", ns=step_ranges(steps))

    # --- predict, then see -------------------------------------------------------------------
    def open_questions(self) -> list[Question]:
        """The current step's questions still to ask (before its episode, not answered)."""
        from tutor.checks.prediction import open_questions

        s = self.session
        n = s.progress.current
        try:
            return open_questions(s.lesson.step(n), s.store, s.lesson.namespace, s.progress.predictions.get(n, {}))
        except Exception:  # noqa: BLE001 - an aside: a story that cannot be told offers no question
            return []

    def can_predict(self) -> bool:
        """Whether the current step has a question to ask now."""
        return bool(self.session.lesson.step(self.current).predict) and bool(self.open_questions())

    def why_no_prediction(self) -> Said:
        """Why w has no question to ask on the current step (can_predict is False)."""
        s, n = self.session, self.current
        step = s.lesson.step(n)
        if not step.predict:
            return saying("Step {n} asks for no prediction.", "{n}단계에는 예측할 질문이 없습니다.", n=n)
        answers = s.progress.predictions.get(n, {})
        if all(q.id in answers for q in step.predict):
            return saying("You answered step {n}'s questions; the recap grades them.",
                          "{n}단계의 질문에는 이미 답했습니다. 정리에서 채점합니다.", n=n)
        return saying("Step {n} has begun on your cluster: too late to predict.",
                      "{n}단계는 클러스터가 이미 시작해 예측하기에 늦었습니다.", n=n)

    # --- the end -----------------------------------------------------------------------------
    def why_not_finished(self) -> Said:
        """Why f shows no end yet. When what is left is only steps that cannot be confirmed (the
        tutor was not running when they happened, and the cluster keeps no record), it says so:
        the learner did nothing wrong, and the header's count alone would not tell them."""
        s = self.session
        left = [st.number for st in s.lesson.steps if st.number not in s.progress.passed]
        unconfirmed = [n for n in left if (v := s.verdicts.get(n)) is not None and v.status is Status.UNCONFIRMED]
        if left and unconfirmed == left:
            if len(left) == 1:  # short: the line under the header holds it at 60 columns
                return saying("No end yet: step {ns} is unconfirmed (the tutor was off).",
                              "아직 마무리 전: {ns}단계는 튜터가 꺼져 있던 때라 확인 불가.", ns=step_ranges(left))
            return saying("No end yet: steps {ns} are unconfirmed (the tutor was off).",
                          "아직 마무리 전: {ns}단계는 튜터가 꺼져 있던 때라 확인 불가.", ns=step_ranges(left))
        return saying("The end shows once every step passed: {k} of {n} so far.",
                      "모든 단계를 통과한 뒤에 마무리: {n}단계 중 {k}단계 통과.",
                      k=len(s.progress.passed), n=len(s.lesson.steps))

    def now(self) -> float:
        """The tutor's clock (seconds since its source started): a replay's instant, else now."""
        s = self.session
        if self.replay or s.store.started_at is None:
            return s.store.now
        return max(s.store.now, time.time() - s.store.started_at)

    def invite(self, n: int) -> list[str]:
        """The lesson pane's line about the step's questions, under its title: an offer while there
        are some to answer, what was predicted until the recap grades it; nothing otherwise."""
        s = self.session
        step = s.lesson.step(n)
        if not step.predict or n in s.progress.passed:
            return []
        answers = s.progress.predictions.get(n, {})
        lines = []
        for q in step.predict:
            choice = q.choice(str(answers.get(q.id, {}).get("choice"))) if q.id in answers else None
            if choice is not None:
                lines.append(say(self.lang, "**Your prediction:** *{c}*. Once the step passes, its recap grades it "
                                            "against the timeline.",
                                            "**내 예측:** *{c}*. 단계를 통과하면 정리에서 타임라인과 맞춰 채점합니다.",
                                            c=choice.text(s.lang)))
        still = len(self.open_questions()) if n == s.progress.current else 0
        if still and not lines:
            lines.append(say(self.lang, "**Predict, then see.** Before you start, press `w`: one question on what your "
                                        "cluster will do, graded against what it then does. Optional: esc skips.",
                                        "**예측하고 확인하기.** 시작하기 전에 `w` 키를 누르면 클러스터가 무엇을 할지 묻는 질문이 "
                                        "하나 나옵니다. 클러스터가 실제로 한 일과 맞춰 채점합니다. 하지 않아도 되고, esc로 "
                                        "건너뜁니다.") if still == 1 else
                         say(self.lang, "**Predict, then see.** Before you start, press `w`: {n} questions on what your "
                                        "cluster will do, graded against what it then does. Optional: esc skips.",
                                        "**예측하고 확인하기.** 시작하기 전에 `w` 키를 누르면 클러스터가 무엇을 할지 묻는 질문이 "
                                        "{n}개 나옵니다. 클러스터가 실제로 한 일과 맞춰 채점합니다. 하지 않아도 되고, esc로 "
                                        "건너뜁니다.",
                                        n=still))
        elif still:
            lines.append(say(self.lang, "Press `w` for the next question.", "다음 질문은 `w` 키."))
        return ["\n>\n".join("> " + line for line in lines)] if lines else []

    def graded_predictions(self, n: int) -> str:
        """The step's graded answers, for its recap ("" when there are none)."""
        from tutor.checks.prediction import graded, markdown

        s = self.session
        answers = s.progress.predictions.get(n, {})
        if not answers:
            return ""
        try:
            told = markdown(graded(s.lesson.step(n), s.store, s.lesson.namespace, answers), s.lang)
        except Exception as exc:  # noqa: BLE001 - an aside: it must never take the recap down
            told = say(self.lang, "(the prediction could not be graded: {e})",
                                  "(예측을 채점하지 못했습니다: {e})", e=f"{type(exc).__name__}: {exc}")
        return "\n\n" + told if told else ""

    def step_pods(self) -> tuple[str, ...]:
        """The pods and nodes the current step is about: the pods its checker reads by name, and
        the nodes its lesson names (lesson.yaml `nodes`)."""
        s = self.session
        step = s.lesson.step(s.progress.current)
        if not s.store.version:  # no pod to name yet: the checker is imported after the first frame
            return step.nodes
        return (*step.checks().READS.pods, *step.nodes)

    # --- what the cluster does not give ------------------------------------------------------
    def unavailable(self, resource: str) -> str:
        """Why a pane cannot show its resource (forbidden, its kind not served), or "" when it can."""
        st = self.session.states.get(resource)
        if st is None:
            return ""
        if st.state is Conn.FORBIDDEN:
            return say(self.lang, "no access to {res} (forbidden by RBAC); the other panes stay live. "
                                  "lwstutor doctor lists what is missing.",
                                  "{res:을} 읽을 권한이 없습니다(RBAC 거부). 다른 창은 계속 갱신됩니다. 빠진 권한은 lwstutor "
                                  "doctor가 알려 줍니다.", res=resource)
        row = kinds.named(resource)
        if st.state is Conn.CRD_MISSING and row is not None and row.may_be_absent:  # no CRD, or its group not served
            return absent(row, self.lang)
        return ""

    def unreachable(self) -> Failure | None:
        """Why the cluster cannot be reached, before it was ever listed (a failure), or None."""
        s = self.session
        if s.connection() is not Conn.RECONNECTING or s.listed_once:
            return None  # after the first list, a failure is "reconnecting": the last data stays shown
        return next((st.failure for st in s.states.values()
                     if st.state is Conn.RECONNECTING and isinstance(st.failure, Failure)), None)

    def unreachable_brief(self, failure: Failure | None) -> str:
        """`failure` (unreachable()'s, read once per refresh by the caller) in a few words for the
        header ("" when the cluster can be reached)."""
        return failures.brief(failure, self.lang) if failure else ""

    def absent(self) -> str:
        """The kinds the cluster does not serve, for the header ("" when it serves them all)."""
        s = self.session
        return ", ".join(absent_short(row, s.lang) for st in s.states.values()
                         if st.state is Conn.CRD_MISSING and (row := kinds.named(st.resource)) is not None)

    # --- questions asked before a change -----------------------------------------------------
    def yes_no(self) -> tuple[str, str]:
        """The answers a question asked before a change takes (ConfirmScreen's y and n)."""
        return say(self.lang, "Yes", "예"), say(self.lang, "No", "아니요")

    def solution_question(self, n: int) -> str:
        """Asked before the solution of a step not passed: it is the whole answer."""
        s = self.session
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
                                             "힌트 {total}개 중 {left}개가 아직 남아 있습니다(h).", left=left, total=total)
        return question

    def reset_step_question(self) -> str:
        n = self.current
        question = say(self.lang, "Reset step {n}? Its pass, revealed hints and predictions are forgotten.",
                                  "{n}단계를 초기화할까요? 통과 기록과 열어 본 힌트, 예측이 지워집니다.", n=n)
        if n in self.session.progress.solutions:
            question += " " + say(self.lang, "Its solution stays shown: it was seen.",
                                             "풀이는 이미 본 것이라 그대로 남습니다.")
        return question

    def reset_all_question(self) -> str:
        question = say(self.lang, "Reset all progress? Every pass, revealed hint and prediction is forgotten.",
                                  "전체 진행을 초기화할까요? 모든 통과 기록과 힌트, 예측이 지워집니다.")
        if self.session.progress.solutions:
            question += " " + say(self.lang, "Solutions already shown stay shown.",
                                             "이미 본 풀이는 그대로 남습니다.")
        return question

    # --- the lab check panel's borders -------------------------------------------------------
    def doctor_words(self) -> tuple[str, str, str]:
        """The lab check panel's title, how to hide it and see it again, and how to hide it."""
        return (say(self.lang, "Lab check", "실습 환경 점검"),
                say(self.lang, "x hides this · lwstutor doctor prints it again", "x로 숨기기 · lwstutor doctor로 다시 보기"),
                say(self.lang, "x hides this", "x로 숨기기"))

    def notes_words(self) -> tuple[str, str]:
        return say(self.lang, "Notices", "알림"), say(self.lang, "x hides this", "x로 숨기기")
