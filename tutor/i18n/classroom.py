"""What a class says, in English and Korean: `lwstutor class` on its terminal, and a joined
tutor's header."""

from __future__ import annotations

STARTED = ("The class is open (kept in {db}: stopping and starting again loses nothing).",
           "수업을 열었습니다({db}에 기록합니다. 멈췄다가 다시 시작해도 잃는 것이 없습니다).")
LEARNERS = ("Learners run this, each with a name of their own:",
            "학습자는 저마다 자기 이름을 넣어 이 명령을 실행합니다:")
NAME = ("NAME", "이름")
INSTRUCTOR = ("The instructor's address, to open in a browser or watch with lwstutor class --watch ADDRESS "
              "(keep it to yourself):",
              "강사용 주소입니다. 브라우저에서 열거나 lwstutor class --watch 주소로 지켜보세요(다른 사람에게 알려 주지 마세요):")
OPEN_NETWORK = ("Listening on {host}: anyone who can reach this port and has an address above can join or read.",
                "{host}에서 기다립니다. 이 포트에 닿고 위의 주소를 가진 사람은 누구나 참여하거나 읽을 수 있습니다.")
STOP = ("Ctrl-C stops the server.", "Ctrl-C를 누르면 서버가 멈춥니다.")
STOPPED = ("The class server stopped.", "수업 서버를 멈췄습니다.")
CANNOT_OPEN = ("--db {db}: cannot open the class's file: {reason}",
               "--db {db}: 수업 파일을 열 수 없습니다: {reason}")
BAD_JOIN = ("--join {url}: give the learners' address the instructor's `lwstutor class` printed, "
            "such as http://192.0.2.10:8001/c/TOKEN",
            "--join {url}: 강사의 lwstutor class 명령이 출력한 학습자용 주소를 주세요(예: http://192.0.2.10:8001/c/TOKEN)")
NAME_WITHOUT_JOIN = ("--name goes with --join: it is the name the instructor sees",
                     "--name 옵션은 --join과 함께 씁니다. 강사에게 보이는 이름입니다")
BAD_NAME = ("--name {name}: give 1 to 40 characters, no control characters",
            "--name {name}: 제어 문자 없이 1자에서 40자까지 주세요")

# the joined tutor's header, by the link's state (tutor.classroom.sender.Link)
REPORTING = ("⇡ reporting to {host}", "⇡ {host}에 보고 중")
AWAY = ("⇡ {host} away: queued", "⇡ {host} 응답 없음: 대기 중")
REFUSED = ("⇡ {host} refused", "⇡ {host} 거절")
REFUSED_NOTICE = ("The class at {host} refused this tutor: {why}", "{host} 수업이 이 튜터를 받지 않았습니다: {why}")
# why, by the kind of the server's refusal (tutor/classroom/class_server.py); another kind: the server's own words
REFUSALS = {
    "name-taken": ("another learner has joined under this name; start the tutor again with another --name",
                   "다른 학습자가 이미 이 이름으로 참여했습니다. 다른 --name으로 튜터를 다시 시작하세요"),
    "token": ("this is not the class's address; ask the instructor for it",
              "수업 주소가 아닙니다. 강사에게 주소를 물어보세요"),
    "class-full": ("the class has all the learners it takes", "수업에 받을 수 있는 학습자가 이미 다 찼습니다"),
}

# the instructor's view (`lwstutor class --watch URL`)
# the keys with the order and the filter in use: o and f cycle them (within 80 columns: no room for more words)
WATCH_TITLE = ("{n} learners {at} │ o {order} · f {only} │ ⏎ open l ko/en q quit",
               "학습자 {n}명 {at} │ o {order} · f {only} │ ⏎ 열기 l ko/en q 끝내기")
ORDER = {"name": ("by name", "이름순"), "progress": ("by progress", "진도 느린 순"), "time": ("by time", "머문 시간순")}
ONLY = {"all": ("everyone", "모두"), "stuck": ("stuck/failing", "막힘·실패"), "away": ("away", "자리 비움")}
WATCH_NAME = ("learner", "학습자")
WATCH_ON = ("step", "단계")
WATCH_TIME = ("time", "시간")
WATCH_PASSED = ("passed", "통과")
WATCH_FAILING = ("step {step}: {count} fail with: {message}", "{step}단계: {count}명 실패: {message}")
WATCH_MORE_FAILING = ("… and {n} more failing steps", "… 그 밖에 실패한 단계 {n}개")
WATCH_EMPTY = ("No learner has joined yet.", "아직 참여한 학습자가 없습니다.")
WATCH_AWAY = ("{url}: cannot read the class ({why}); trying again", "{url}: 수업을 읽을 수 없습니다({why}). 다시 시도합니다")
WATCH_LEGEND = ("✓ pass ✗ fail … waiting ⚠ stuck (10 min+) dim: away",
                "✓ 통과 ✗ 실패 … 기다림 ⚠ 막힘(10분 이상) 흐림: 자리 비움")
BAD_WATCH = ("--watch {url}: give the instructor's address `lwstutor class` printed, such as "
             "http://127.0.0.1:8001/i/TOKEN/state",
             "--watch {url}: lwstutor class 명령이 출력한 강사용 주소를 주세요(예: http://127.0.0.1:8001/i/TOKEN/state)")

# one learner's verdicts (enter on the grid; the page's ?learner=)
LEARNER_HEAD = ("{name} │ {lesson} │ on step {current} │ {passed} passed", "{name} │ {lesson} │ {current}단계 │ {passed}개 통과")
LEARNER_KEYS = ("↑↓ scroll · esc back · l ko/en", "↑↓ 스크롤 · esc 돌아가기 · l ko/en")
LEARNER_STEP = ("step {step} · {status} · {time} · hints {hints} · predictions {predictions}",
                "{step}단계 · {status} · {time} · 힌트 {hints} · 예측 {predictions}")
LEARNER_NONE = ("No step reported yet.", "아직 보고한 단계가 없습니다.")
LEARNER_GONE = ("{name}: no such learner in the class.", "{name}: 수업에 그런 학습자가 없습니다.")
STATUS = {"pass": ("passed", "통과"), "fail": ("failing", "실패"), "waiting": ("waiting", "기다림"),
          "error": ("error", "오류"), "unconfirmed": ("unconfirmed", "확인 안 됨"), "unchecked": ("not checked", "확인 전")}

# the instructor's page in a browser (GET the instructor's address)
PAGE_TITLE = ("lwstutor class", "lwstutor 수업")
PAGE_HEADING = ("class │ {n} learners │ {at}", "수업 │ 학습자 {n}명 │ {at}")
PAGE_LANG = ("한국어", "English")
PAGE_SORT = ("sort:", "정렬:")
PAGE_ONLY = ("show:", "보기:")
PAGE_BACK = ("← the class", "← 수업 전체")
PAGE_STEP = ("step", "단계")
PAGE_STATUS = ("verdict", "판정")
PAGE_MESSAGE = ("message", "메시지")
PAGE_HINTS = ("hints", "힌트")
PAGE_PREDICTIONS = ("predictions", "예측")  # the link to the page in the other language, said in that language
