"""The instructor's view in a browser: the same grid as `lwstutor class --watch` (tutor/classroom/
grid.py), drawn by the server as one HTML page that reloads itself every few seconds. No script,
nothing fetched from elsewhere, every learner's word escaped: a learner's name or a checker's
message is text on the page, never markup."""

from __future__ import annotations

import time
from html import escape

from tutor.classroom import grid
from tutor.i18n import classroom
from tutor.i18n.bilingual import pick

RELOAD_S = 5
MARK_CLASS = {"✓": "pass", "✗": "fail", "…": "wait", "!": "fail", "?": "odd"}
STYLE = """
body { font-family: ui-monospace, "D2Coding", "Noto Sans Mono CJK KR", monospace; background: #0c181f; color: #e8eef2;
       margin: 1em; }
table { border-collapse: collapse; } th, td { padding: 0.15em 0.5em; text-align: center; }
th:first-child, td:first-child { text-align: left; } tr:nth-child(even) { background: #13232c; }
.pass { color: #5fd35f; } .fail { color: #ff6b6b; } .wait { color: #e6c84c; } .odd { color: #d787d7; }
.stuck td:first-child { color: #ff6b6b; font-weight: bold; } .away { opacity: 0.5; }
.failing { color: #ff6b6b; } .legend { opacity: 0.6; } a { color: #8ab4f8; }
"""


def class_page(state: dict, lang: str) -> str:
    def say(words: tuple[str, str], **fields: object) -> str:  # every word on the page, escaped
        return escape(pick(words, lang, **fields))

    rows, steps = grid.rows(state), grid.last_step(state)
    at = time.strftime("%H:%M:%S", time.localtime(state.get("now", time.time())))
    other = "en" if lang == "ko" else "ko"
    head = "".join(f"<th>{n}</th>" for n in range(1, steps + 1))
    body = "".join(_row(row) for row in rows)
    parts = [f"<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">",
             f"<meta http-equiv=\"refresh\" content=\"{RELOAD_S}\">",
             f"<title>{say(classroom.PAGE_TITLE)}</title><style>{STYLE}</style></head><body>",
             f"<p>{say(classroom.PAGE_HEADING, n=len(rows), at=at)}"
             f" · <a href=\"?lang={other}\">{say(classroom.PAGE_LANG)}</a></p>"]
    if rows:
        parts.append(f"<table><tr><th>{say(classroom.WATCH_NAME)}</th>{head}<th>{say(classroom.WATCH_ON)}</th>"
                     f"<th>{say(classroom.WATCH_TIME)}</th></tr>{body}</table>")
        summaries = grid.summaries(state)
        parts.append(f"<p>{say(classroom.WATCH_PASSED)} "
                     + " ".join(f"{s.step}:{s.passed}/{s.learners}" for s in summaries) + "</p>")
        for s in sorted((s for s in summaries if s.failing), key=lambda s: (-s.failing, s.step)):
            failing = say(classroom.WATCH_FAILING, step=s.step, count=s.common_count, message=s.common)
            parts.append(f"<p class=\"failing\">{failing}</p>")
        parts.append(f"<p class=\"legend\">{say(classroom.WATCH_LEGEND)}</p>")
    else:
        parts.append(f"<p>{say(classroom.WATCH_EMPTY)}</p>")
    parts.append("</body></html>")
    return "".join(parts)


def _row(row: grid.Row) -> str:
    kind = " class=\"stuck\"" if row.stuck else " class=\"away\"" if row.away else ""
    marks = "".join(f"<td class=\"{MARK_CLASS.get(m, '')}\">{escape(m)}</td>" for m in row.marks)
    name = ("⚠ " if row.stuck else "") + row.name
    return f"<tr{kind}><td>{escape(name)}</td>{marks}<td>{row.current}</td><td>{grid.clock(row.on_step)}</td></tr>"
