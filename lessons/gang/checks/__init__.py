"""The gang lesson's checkers, one module per step, named after the step's id in lesson.yaml
(`all-or-nothing` -> all_or_nothing.py); members.py holds what they share about PodGroups."""

from tutor.checks.api import PodNotes

# The lesson's own pods (orphan, big) run `sleep 86400`, and llm the LWS lab's `sh -c` loop: both
# ignore SIGTERM, so a deleted pod waits out its grace period.
NOTES = PodNotes(
    terminating=("Its command runs as PID 1 and ignores SIGTERM, so the kubelet waits out the grace period before killing it.",
                 "명령이 PID 1로 실행되어 SIGTERM을 무시하므로, kubelet은 유예 시간이 끝날 때까지 기다린 뒤에 "
                 "컨테이너를 강제로 끝냅니다."),
)
