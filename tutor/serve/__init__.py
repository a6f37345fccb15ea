"""`lwstutor serve`: the tutor in a browser tab, one tutor process per tab.

textual-serve runs the app and carries its terminal over a websocket. What it lacks for a lab,
this package adds: a token that must be shown before a tutor starts (gate.py), a cap on the tutors
running at once (gate.py), a page that fetches nothing from off the machine and finds its
websocket from its own address or --public-url (page.py), answering under a path prefix
(server.py), and a tutor that cannot start saying why in its tab and in one line on the server,
never a traceback (tutor/served_tab.py, each tab's own entry point beside the CLI).
"""

TAB_MODULE = "tutor.served_tab"  # what each tab runs: `python -P -m TAB_MODULE [FAILURE_FLAG FILE] <options>`
FAILURE_FLAG = "--failure-file"  # where a tab's tutor that cannot start writes why, for its page
