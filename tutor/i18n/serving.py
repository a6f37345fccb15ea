"""What `lwstutor serve` says, in English and Korean: on its terminal and on its pages."""

from __future__ import annotations

STARTED = ("Serving the tutor ({what}). Open this address in a browser; the token in it is the only key, "
           "so share it only with whoever should start tutors here:",
           "튜터를 띄웠습니다({what}). 브라우저에서 이 주소를 여세요. 주소 안의 토큰이 유일한 열쇠이니, "
           "여기서 튜터를 열어도 되는 사람에게만 알려 주세요:")
LIMITS = ("At most {cap} tutors at once. Ctrl-C stops the server and every tutor it started.",
          "튜터는 한 번에 {cap}개까지 열립니다. Ctrl-C를 누르면 서버와 서버가 띄운 튜터가 모두 멈춥니다.")
OPEN_NETWORK = ("Listening on {host}: anyone who can reach this port and has the token can start a tutor.",
                "{host}에서 기다립니다. 이 포트에 닿고 토큰을 가진 사람은 누구나 튜터를 열 수 있습니다.")
PORT_TAKEN = ("--port {port}: {addr} is already in use; stop what uses it, or give another --port",
              "--port {port}: {addr:은} 이미 쓰이고 있습니다. 그 프로그램을 멈추거나 다른 --port를 주세요")
CANNOT_LISTEN = ("--host {host} --port {port}: cannot listen there: {reason}",
                 "--host {host} --port {port}: 그곳에서 기다릴 수 없습니다: {reason}")
BAD_PUBLIC_URL = ("--public-url {url}: give an http:// or https:// address, such as https://lab.example/tutor",
                  "--public-url {url}: https://lab.example/tutor처럼 http:// 또는 https:// 주소를 주세요")
BAD_CAP = ("--max-sessions {value}: give a whole number of tutors, 1 or more",
           "--max-sessions {value}: 튜터 수를 1 이상의 정수로 주세요")
STOPPED = ("The server stopped.", "서버를 멈췄습니다.")

# the pages
TITLE = ("LWS tutor", "LWS 튜터")
STARTING = ("Starting the tutor…", "튜터를 시작하는 중…")
ENDED = ("This tab's tutor has ended. Reload the page to start it again: your progress is kept.",
         "이 탭의 튜터가 끝났습니다. 페이지를 새로 고치면 다시 시작합니다. 진행 상황은 그대로입니다.")
RELOAD = ("Reload", "새로 고침")
# The page says this in both languages at once: without a Korean font, the Korean line is not drawn.
NO_HANGUL = ("This browser has no font for Korean, so the tutor's Korean text is not drawn. Install a Korean font "
             "(on Debian: apt-get install fonts-nanum-coding), or start the server with --lang en.",
             "이 브라우저에는 한글 글꼴이 없어서 튜터의 한국어가 보이지 않습니다. 한글 글꼴을 설치하거나"
             "(데비안: apt-get install fonts-nanum-coding) 서버를 --lang en으로 시작하세요.")
NO_TOKEN = ("This tutor needs the address with its token, as the server printed it when it started. "
            "Ask whoever runs the lab for it.",
            "이 튜터는 토큰이 든 주소로만 열립니다. 서버가 시작할 때 출력한 주소를 쓰세요. "
            "실습을 운영하는 사람에게 물어보세요.")
FULL = ("{cap} tutors are open already, the most this server runs at once. Close a tutor tab, then reload this page.",
        "튜터가 이미 {cap}개 열려 있고, 이 서버는 그보다 많이 띄우지 않습니다. 튜터 탭을 하나 닫고 이 페이지를 새로 고치세요.")

# A tab's tutor that could not start: one line on the server, the reason on the tab's page.
TUTOR_FAILED = ("A tab's tutor could not start: {reason}", "탭의 튜터를 시작하지 못했습니다: {reason}")
UNEXPECTED = ("an error the tutor does not expect: {error}", "튜터가 예상하지 못한 오류: {error}")
FIX = ("fix", "해결")
FAILED = ("This tab's tutor could not start:", "이 탭의 튜터를 시작하지 못했습니다:")
FAILED_NEXT = ("Fix this where the server runs, or ask whoever runs the lab; then reload the page. "
               "Your progress is kept.",
               "서버를 실행한 곳에서 고치거나 실습을 운영하는 사람에게 알린 뒤, 페이지를 새로 고치세요. "
               "진행 상황은 그대로입니다.")
