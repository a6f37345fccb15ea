"""The LWS lesson's checkers, one module per step, named after the step's id in lesson.yaml
(`restart-group` -> restart_group.py). Each has check(ctx) -> Verdict and READS, what it reads
(tutor/checks/reads.py); the lesson loader imports a step's module the first time it runs."""

from tutor.checks.api import PodNotes

# The lab's pods run a `sh -c` loop (step 1) that exits 1 once /tmp/fail exists (step 5): what
# the engine's facts about a Terminating or crash-looping pod come with in this lesson.
NOTES = PodNotes(
    terminating=("Its `sh -c` loop runs as PID 1 and ignores SIGTERM, so the kubelet waits all of it before "
                 "killing it; a `trap 'exit 0' TERM` in the command would let it stop within about a second, "
                 "once the running `sleep 1` ends.",
                 "`sh -c` 루프가 PID 1이라 SIGTERM을 무시하므로 kubelet이 유예 시간을 다 기다린 뒤에 끕니다. "
                 "명령에 `trap 'exit 0' TERM` 줄을 넣으면 실행 중인 `sleep 1` 명령이 끝나는 대로, 1초 안팎에 "
                 "멈춥니다."),
    crash_loop=("It should keep running until /tmp/fail exists.",
                "/tmp/fail 파일이 생길 때까지 계속 실행되어야 합니다."),
)
