"""Every key of the tutor, in the order the help and the footer list them.

The lesson's own keys (moving through the steps, hints, the solution, zoom) are the lesson
screen's: another screen over it (the timeline) has no use for them. The rest are the app's,
and work over any screen that is not a modal: the language, re-checking, the timeline, the
help, predicting, the end of the lesson, and quitting."""

from __future__ import annotations

from textual.actions import parse as parse_action

from tutor.ui.bindings.key_words import keyed

KEYS = [
    keyed("n,right", "next", ("Next", "다음"), ("Next step", "다음 단계"), key_display="n/→"),
    keyed("p,left", "prev", ("Prev", "이전"), ("Previous step", "이전 단계"), key_display="p/←"),
    keyed("h", "hint", ("Hint", "힌트"), ("Reveal the next hint", "다음 힌트 보기")),
    keyed("s", "solution", ("Solution", "풀이"),
          ("Show the step's solution, the whole answer (asks first until the step passes)",
           "이 단계의 풀이, 즉 답 전체 보기(통과하기 전에는 먼저 묻습니다)")),
    keyed("r", "recheck", ("Re-check", "재검사"), ("Run the checkers now", "지금 다시 검사")),
    keyed("l", "toggle_lang", ("ko/en", "ko/en"), ("Switch the language live", "언어를 바로 바꾸기")),
    keyed("t", "timeline", ("Timeline", "타임라인"), ("What happened, in order, per LWS group",
                                                  "LWS 그룹마다 일어난 일을 순서대로"),
          show=False),
    keyed("w", "predict", ("Predict", "예측"),
          ("Predict what your cluster will do, before it does", "클러스터가 할 일을 먼저 예측하기"), show=False),
    keyed("f", "finish", ("The end", "마무리"),
          ("What you did and what comes next (once every step passed)", "해낸 일과 다음 모듈(모든 단계를 통과한 뒤)"),
          show=False),
    keyed("z", "maximize_pane", ("Zoom", "확대"),
          ("Maximise the focused pane (again or esc to restore)", "선택한 창을 크게 보기(다시 누르거나 esc로 되돌림)")),
    keyed("question_mark", "help", ("Help", "도움말"), ("All keys", "모든 키"), key_display="?"),
    keyed("x", "dismiss_doctor", ("Dismiss", "닫기"), ("Hide the lab check panel", "실습 점검 창 숨기기")),
    keyed("g", "toggle_ledger", ("Nodes/Groups", "노드/그룹"),
          ("Switch the groups pane and the node ledger (GPUs, taints; shown on the steps about placement)",
           "그룹 창과 노드 장부를 바꿔 보기(GPU, 테인트. 배치를 다루는 단계에서 먼저 보임)"), show=False),
    keyed("q", "quit", ("Quit", "종료"), ("Quit (progress is saved)", "종료(진행 상황은 저장됨)")),
    # A terminal user's reflex; Textual 8 binds it to copy and a "press ctrl+q" notice instead.
    # Priority: before the screen's and an input's copy (copy_or_quit copies a selection first).
    keyed("ctrl+c", "copy_or_quit", ("Quit", "종료"),
          ("Quit, as q does (text selected with the mouse is copied first)",
           "q처럼 종료(마우스로 고른 글자가 있으면 먼저 복사)"),
          show=False, priority=True),
    keyed("tab", "focus_next", ("Next pane", "다음 창"), ("Cycle the panes", "창 사이를 돌기"), show=False),
    keyed("shift+tab", "focus_previous", ("Previous pane", "이전 창"), show=False),
    keyed("escape", "minimize", ("Restore", "되돌리기"),
          ("Restore a zoomed pane and close the notices", "확대한 창을 되돌리고 알림 닫기")),  # in the footer while zoomed
    # the digit keys go to a step; check_action turns off those past the lesson's last step
    *(keyed(str(i), f"goto({i})", (f"Step {i}", f"{i}단계"), show=False) for i in range(1, 10)),
]

# Quitting and the help on a screen over the lesson that stops the app's keys (a modal: the
# help, a question, the finish screen): the footer beneath offers them there too.
QUIT_HERE = keyed("q", "app.quit", ("Quit", "종료"), ("Quit (progress is saved)", "종료(진행 상황은 저장됨)"))
HELP_HERE = keyed("question_mark", "app.help", ("Help", "도움말"), ("All keys", "모든 키"), key_display="?")

# The palette's key as the help lists it (Textual binds it itself, with no words of ours).
PALETTE_KEY = keyed("ctrl+p", "command_palette", ("Command palette", "명령 팔레트"))

# The lesson screen's actions; every other key is the app's.
ON_LESSON = frozenset({"next", "prev", "goto", "hint", "solution", "maximize_pane", "dismiss_doctor", "minimize"})


def action_of(action: str) -> tuple[str, tuple]:
    """An action's name and its parameters ("goto(3)" -> ("goto", (3,)))."""
    _, name, parameters = parse_action(action)
    return name, parameters


LESSON_KEYS = [b for b in KEYS if action_of(b.action)[0] in ON_LESSON]
APP_KEYS = [b for b in KEYS if action_of(b.action)[0] not in ON_LESSON]
ORDER = {action_of(b.action)[0]: i for i, b in enumerate(KEYS)}  # the footer's order, by action
