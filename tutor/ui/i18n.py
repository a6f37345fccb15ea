"""Korean for the UI's own words (lesson text and checker messages carry their own)."""

from __future__ import annotations

import re
from dataclasses import replace

from textual.binding import Binding

from tutor.words import say

KO = {
    "Progress not saved to {path}: {err}. It is kept while lwstutor runs.":
        "진행 상황을 {path}에 저장하지 못했습니다: {err}. lwstutor가 실행되는 동안에는 유지됩니다.",
    "Progress saved again.": "진행 상황을 다시 저장했습니다.",
    "The screen had stopped following the cluster; it is current again.":
        "화면이 클러스터를 따라가지 못하고 멈춰 있었습니다. 지금은 최신 상태입니다.",
    # the header's connection state (tutor/ui/widgets/status_bar.py)
    "● live": "● 실시간",
    "◌ connecting": "◌ 연결 중",
    "◌ reconnecting — showing last data": "◌ 다시 연결하는 중 — 마지막 데이터를 보여 줍니다",
    "● live (some access denied)": "● 실시간 (일부 권한 없음)",
    "■ replay ended": "■ 재생 끝",
    "▶ replay": "▶ 재생",
    "Steps": "단계",
    "Groups": "그룹",
    "Pods": "파드",
    "Events": "이벤트",
    "Nodes · GPU": "노드 · GPU",
    # the pods pane's column headers (tutor/ui/panes/pods.py)
    "pod": "파드",
    "group": "그룹",
    "worker": "워커",
    "uid": "UID",
    "node": "노드",
    "phase": "상태",
    "restarts": "재시작",
    "revision": "리비전",
    "No nodes seen yet.": "아직 노드가 보이지 않습니다.",
    "NotReady": "NotReady",
    "cordoned": "cordon 됨",
    "+{n} pod(s) without {gpu}": "+{gpu} 없는 파드 {n}개",
    "Not placed:": "배치 안 됨:",
    "Requests counted from the pods of {ns} only. lwstutor why POD explains one pod.":
        "{ns}의 파드 요청만 셉니다. 파드 하나의 사정은 lwstutor why POD로.",
    "node by node, now:": "노드별로, 지금:",
    "Show the node ledger / the groups": "노드 장부 / 그룹 보기",
    "GPUs, taints and Ready per node, in the groups pane's place": "노드마다 GPU, 테인트, Ready를 그룹 창 자리에",
    "Hint {i} of {n}": "힌트 {i}/{n}",
    "What you just saw": "방금 본 것",
    "checking…": "확인 중…",
    "passed": "통과함",
    # the verdict's status, as its label
    "PASS": "통과", "FAIL": "실패", "WAIT": "대기", "ERROR": "오류", "UNCONFIRMED": "확인 불가",
    "now": "지금",
    "Verdict": "판정",
    "↓ more": "↓ 더 있음",
    "✓ Step {n} passed: recap in the step": "✓ {n}단계 통과: 정리는 설명 끝에",
    "✓ Step {n} passed: recap in the step · s compares with the solution": "✓ {n}단계 통과: 정리는 설명 끝에 · s로 풀이와 비교",
    "✓ Steps {ns} passed": "✓ {ns}단계 통과",
    "Copied. ctrl+c again quits.": "복사했습니다. ctrl+c를 한 번 더 누르면 끝납니다.",
    "That was the whole lab": "실습 전체를 보셨습니다",
    "Now do it yourself: in the lab VM, run tmux split-window -h lwstutor":
        "이제 직접 해 보세요: 실습 VM에서 tmux split-window -h lwstutor를 실행합니다",
    'Now do it yourself: in the lab VM, run tmux split-window -h "lwstutor --lesson gang"':
        '이제 직접 해 보세요: 실습 VM에서 tmux split-window -h "lwstutor --lesson gang" 명령을 실행합니다',
    "Keys": "키",
    "Notices": "알림", "x hides this": "x로 숨기기",
    "Screenshot saved: {path}": "스크린샷 저장: {path}",
    "Screenshot not saved: {err}": "스크린샷을 저장하지 못했습니다: {err}",
    "The demo plays step {n} now; you stay on the step you chose.":
        "데모는 지금 {n}단계를 재생합니다. 화면은 고른 단계에 그대로 있습니다.",
    "Go to step {n}: {title}": "{n}단계로 가기: {title}",
    "Jump to this step": "이 단계로 이동",
    "Reveal the next hint": "다음 힌트 보기",
    "Show one more hint for this step": "이 단계의 힌트를 하나 더 보여 줍니다",
    "Re-check now": "지금 다시 확인",
    "Run the checkers again": "검사를 다시 돌립니다",
    "Switch language (ko/en)": "언어 바꾸기 (ko/en)",
    "Lesson and messages in the other language": "설명과 메시지를 다른 언어로",
    "Reset this step…": "이 단계 초기화…",
    "Forget this step's pass, hints and predictions (asks first)": "이 단계의 통과 기록과 힌트, 예측을 지웁니다(먼저 묻습니다)",
    "Reset all progress…": "전체 진행 초기화…",
    "Forget every pass, hint and prediction (asks first)": "모든 통과 기록과 힌트, 예측을 지웁니다(먼저 묻습니다)",
    "Reset step {n}? Its pass, revealed hints and predictions are forgotten.":
        "{n}단계를 초기화할까요? 통과 기록과 열어 본 힌트, 예측이 지워집니다.",
    "Reset all progress? Every pass, revealed hint and prediction is forgotten.":
        "전체 진행을 초기화할까요? 모든 통과 기록과 힌트, 예측이 지워집니다.",
    "Its solution stays shown: it was seen.": "풀이는 이미 본 것이라 그대로 남습니다.",
    "Solutions already shown stay shown.": "이미 본 풀이는 그대로 남습니다.",
    # the solution, apart from the hints (tutor/ui/confirmed.py)
    "Solution": "풀이",
    "Show the solution…": "풀이 보기…",
    "The whole answer to this step (asks first; progress notes it)": "이 단계의 답 전체(먼저 묻고, 본 것은 기록에 남습니다)",
    "The whole answer, to compare with yours (the step passed: it does not ask)":
        "답 전체를 내 답과 비교합니다(통과한 단계라 묻지 않습니다)",
    "Step {n} has no solution to show.": "{n}단계에는 보여 줄 풀이가 없습니다.",
    "Show the solution to step {n}? It is the whole answer. Progress notes that you saw it, and a pass after "
    "it is marked so, in check --json too.":
        "{n}단계의 풀이를 볼까요? 풀이는 답 전체입니다. 풀이를 본 사실이 진행 기록에 남고, 그 뒤의 통과는 "
        "check --json에서도 풀이를 본 뒤의 통과로 나옵니다.",
    "{left} of its {total} hints are not shown yet (h).": "힌트 {total}개 중 {left}개가 아직 남아 있습니다(h).",
    "None of its {total} hints is shown yet (h).": "힌트 {total}개를 아직 하나도 보지 않았습니다(h).",
    "Lab check": "실습 환경 점검",
    "x hides this · lwstutor doctor prints it again": "x로 숨기기 · lwstutor doctor로 다시 보기",
    "ready {r} · updated {u}": "준비 {r} · 갱신 {u}",
    "group {g}": "그룹 {g}",
    "two revisions running": "리비전 둘이 함께 도는 중",
    "once held two revisions": "리비전 둘이 함께 있었음",
    "… {n} more groups (every pod is in the Pods pane)": "… 그룹 {n}개 더 (모든 파드는 파드 창에)",
    # a group's gang: its PodGroup and the state kubectl get podgroups prints (Scheduled, Unschedulable, Pending)
    "PodGroup {g} {state}": "PodGroup {g} {state}",
    "no PodGroup {g}": "PodGroup {g} 없음",
    "PodGroup {g} (state not seen)": "PodGroup {g} (상태 모름)",
    "({k} of {n} pods)": "(파드 {n}개 중 {k}개)",
    "No LeaderWorkerSet in {ns} yet.": "{ns}에 아직 LeaderWorkerSet이 없습니다.",
    "No events yet.": "아직 이벤트가 없습니다.",
    "Yes": "예",
    "No": "아니요",
    "No more hints for this step.": "이 단계의 힌트를 모두 보았습니다.",
    "No more hints for this step: s shows its solution (it asks first).":
        "이 단계의 힌트를 모두 보았습니다. 풀이는 s 키로 봅니다(먼저 묻습니다).",
    "Press h for a hint.": "힌트는 h 키.",
    "no access to {res} (forbidden by RBAC); the other panes stay live. lwstutor doctor lists what is missing.":
        "{res:을} 읽을 권한이 없습니다(RBAC 거부). 다른 창은 계속 갱신됩니다. 빠진 권한은 lwstutor doctor가 알려 줍니다.",
    "The tutor only reads: your cluster and your files are never changed.":
        "튜터는 읽기만 합니다. 클러스터와 파일은 절대 바꾸지 않습니다.",
    # the timeline screen (tutor/ui/timeline_screen.py)
    "Timeline": "타임라인",
    "Show the timeline": "타임라인 보기",
    "What happened, in order, per LWS group (key t)": "LWS 그룹마다 일어난 일을 순서대로(t 키)",
    "newest at the bottom · ← cause, from the cluster's data only · ⚠ LWS oddity · ≈ to the second · esc closes":
        "최신이 맨 아래 · ← 원인(클러스터 데이터로만) · ⚠ LWS의 특이한 동작 · ≈ 초 단위 · esc로 닫기",
    "Nothing has happened in {ns} yet: the story starts when an LWS is created.":
        "{ns}에서 아직 일어난 일이 없습니다. LWS를 만들면 기록이 시작됩니다.",
    "The timeline could not be told: {e}": "타임라인을 만들지 못했습니다: {e}",
    # predict, then see (tutor/ui/predict.py)
    "Predict, then see · step {n} · {i} of {k}": "예측하고 확인하기 · {n}단계 · {i}/{k}",
    "{keys} answers · esc skips, nothing is saved": "{keys}: 답하기 · esc: 건너뛰기(아무것도 저장하지 않음)",
    "Nothing to predict on this step now.": "이 단계에서 지금 예측할 것이 없습니다.",
    "**Your prediction:** *{c}*. Once the step passes, its recap grades it against the timeline.":
        "**내 예측:** *{c}*. 단계를 통과하면 정리에서 타임라인과 맞춰 채점합니다.",
    "**Predict, then see.** Before you start, press `w`: one question on what your cluster will do, graded "
    "against what it then does. Optional: esc skips.":
        "**예측하고 확인하기.** 시작하기 전에 `w` 키를 누르면 클러스터가 무엇을 할지 묻는 질문이 하나 나옵니다. "
        "클러스터가 실제로 한 일과 맞춰 채점합니다. 하지 않아도 되고, esc로 건너뜁니다.",
    "**Predict, then see.** Before you start, press `w`: {n} questions on what your cluster will do, graded "
    "against what it then does. Optional: esc skips.":
        "**예측하고 확인하기.** 시작하기 전에 `w` 키를 누르면 클러스터가 무엇을 할지 묻는 질문이 {n}개 나옵니다. "
        "클러스터가 실제로 한 일과 맞춰 채점합니다. 하지 않아도 되고, esc로 건너뜁니다.",
    "Press `w` for the next question.": "다음 질문은 `w` 키.",
    "(the prediction could not be graded: {e})": "(예측을 채점하지 못했습니다: {e})",
    # the end of the lesson (tutor/ui/finish_screen.py)
    "The end shows once every step passed: {k} of {n} so far.":
        "마무리는 모든 단계를 통과하면 볼 수 있습니다. 지금까지 {n}단계 중 {k}단계를 통과했습니다.",
    "Show the end of the lesson": "실습 마무리 보기",
    "What you did and what comes next (key f)": "해낸 일과 다음 모듈(f 키)",
    "Predict, then see…": "예측하고 확인하기…",
    "Answer the step's question before your cluster acts (key w)": "클러스터가 움직이기 전에 단계의 질문에 답합니다(w 키)",
}


# The keys' words (the footer, the help screen, the timeline's footer).
KO.update({
    "Next": "다음", "Next step": "다음 단계", "Prev": "이전", "Previous step": "이전 단계",
    "Show the step's solution, the whole answer (asks first until the step passes)":
        "이 단계의 풀이, 곧 답 전체 보기(통과하기 전에는 먼저 묻습니다)",
    "Hint": "힌트", "Reveal the next hint": "다음 힌트 보기", "Re-check": "재검사", "Run the checkers now": "지금 다시 검사",
    "Switch the language live": "언어를 바로 바꾸기", "Timeline": "타임라인",
    "The end": "마무리",
    "What you did and what comes next (once every step passed)": "해낸 일과 다음 모듈(모든 단계를 통과한 뒤)",
    "Predict": "예측", "Predict what your cluster will do, before it does": "클러스터가 할 일을 먼저 예측하기",
    "What happened, in order, per LWS group": "LWS 그룹마다 일어난 일을 순서대로",
    "Zoom": "확대", "Maximise the focused pane (again or esc to restore)": "선택한 창을 크게 보기(다시 누르거나 esc로 되돌림)",
    "Help": "도움말", "All keys": "모든 키", "Dismiss": "닫기", "Hide the lab check panel": "실습 점검 창 숨기기",
    "Nodes/Groups": "노드/그룹",
    "Switch the groups pane and the node ledger (GPUs, taints; shown on the steps about placement)":
        "그룹 창과 노드 장부를 바꿔 보기(GPU, 테인트. 배치를 다루는 단계에서 먼저 보임)",
    "Quit": "종료", "Quit (progress is saved)": "종료(진행 상황은 저장됨)",
    "Quit, as q does (text selected with the mouse is copied first)": "q처럼 종료(마우스로 고른 글자가 있으면 먼저 복사)",
    "Next pane": "다음 창", "Cycle the panes": "창 사이를 돌기", "Previous pane": "이전 창",
    "Restore": "되돌리기", "Restore a zoomed pane and close the notices": "확대한 창을 되돌리고 알림 닫기",
    "Command palette": "명령 팔레트", "palette": "팔레트",
    # Textual's own palette entries
    "Theme": "테마", "Change the current theme": "화면 테마 바꾸기",
    "Quit the application as soon as possible": "바로 종료하기",
    "Hide the keys and widget help panel": "키와 위젯 도움말 창 숨기기",
    "Show help for the focused widget and a summary of available keys": "선택한 창의 도움말과 쓸 수 있는 키 보기",
    "Minimize": "되돌리기", "Minimize the widget and restore to normal size": "확대한 창을 원래 크기로",
    "Maximize": "확대", "Maximize the focused widget": "선택한 창을 크게 보기",
    "Screenshot": "스크린샷", "Save an SVG 'screenshot' of the current screen": "지금 화면을 SVG로 저장",
    "Search for commands…": "명령 찾기…", "No matches found": "맞는 명령이 없습니다",
    "Help: keys": "도움말: 키", "Show every key": "모든 키 보기",
    "Step {n}": "{n}단계", "Close": "닫기", "Back to the lesson": "수업으로 돌아가기",
})
_STEP = re.compile(r"^Step (\d+)$")


def localised(binding: Binding, lang: str) -> Binding:
    """A key binding with its words (description and tooltip) in `lang`."""
    def words(text: str) -> str:
        if m := _STEP.match(text):
            return translate(lang, "Step {n}", n=m.group(1))
        return translate(lang, text) if text else text
    return replace(binding, description=words(binding.description), tooltip=words(binding.tooltip))


def localise_bindings(node, lang: str, english: dict) -> None:
    """Puts a screen's or the app's key words in `lang` (the footer reads them from here).
    `english` keeps each binding as declared, by (key, action), so switching back is exact."""
    for key, bindings in node._bindings.key_to_bindings.items():
        node._bindings.key_to_bindings[key] = [localised(english.setdefault((key, b.action), b), lang)
                                               for b in bindings]


def translate(lang: str, text: str, **kw) -> str:
    """The screen's words: English in the code, Korean from KO (tutor/words.py picks and fills)."""
    return say(lang, text, KO.get(text, text), **kw)
