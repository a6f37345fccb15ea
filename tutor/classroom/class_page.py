"""The instructor's view in a browser: the same grid as `lwstutor class --watch` (tutor/classroom/
grid.py), drawn by the server as one HTML page that reloads itself every few seconds. No script,
nothing fetched from elsewhere, every learner's word escaped: a learner's name or a checker's
message is text on the page, never markup. Its links carry the view in the query (?lang=,
?sort=, ?only=, ?learner= for one learner's verdicts) and are relative to the page: the
instructor's token stays in the path it came in, never written into the page."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from html import escape
from urllib.parse import urlencode

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
.failing { color: #ff6b6b; } .legend { opacity: 0.6; } a { color: #8ab4f8; } .chosen { font-weight: bold; }
td.message { text-align: left; max-width: 60em; }
"""


@dataclass(frozen=True)
class View:
    """What the page's query asks for; anything else it holds is read as the default."""
    lang: str = "en"
    sort: str = grid.ORDERS[0]
    only: str = grid.FILTERS[0]
    learner: str = ""  # an id or a name: that learner's verdicts instead of the grid

    @classmethod
    def of(cls, query: dict[str, str]) -> View:
        def one_of(name: str, choices: tuple[str, ...]) -> str:
            asked = query.get(name, "")
            return asked if asked in choices else choices[0]
        return cls("ko" if query.get("lang") == "ko" else "en", one_of("sort", grid.ORDERS),
                   one_of("only", grid.FILTERS), query.get("learner", ""))

    def link(self, **changes: str) -> str:
        """A relative link to the page with `changes`, escaped for an attribute; defaults left out."""
        view = replace(self, **changes)
        query = {k: v for k, v in (("lang", view.lang), ("sort", view.sort), ("only", view.only),
                                   ("learner", view.learner)) if v and v != getattr(View, k)}
        return escape("?" + urlencode(query), quote=True)


def page(state: dict, view: View) -> tuple[int, str]:
    """The page for `view`, and its HTTP status (404: no such learner)."""
    if not view.learner:
        return 200, class_page(state, view.lang, view)
    found = grid.learner(state, view.learner)
    return (200, learner_page(found, view)) if found else (404, learner_page(None, view))


def _top(view: View, title: str, heading: str) -> list[str]:
    """The page's head and its first line: `heading` (HTML), then the link to the other language."""
    other = "en" if view.lang == "ko" else "ko"
    return [f"<!doctype html><html lang=\"{view.lang}\"><head><meta charset=\"utf-8\">",
            f"<meta http-equiv=\"refresh\" content=\"{RELOAD_S}\">",
            f"<title>{title}</title><style>{STYLE}</style></head><body>",
            f"<p>{heading} · <a href=\"{view.link(lang=other)}\">{escape(pick(classroom.PAGE_LANG, view.lang))}</a></p>"]


def class_page(state: dict, lang: str, view: View | None = None) -> str:
    view = replace(view or View(), lang=lang)

    def say(words: tuple[str, str], **fields: object) -> str:  # every word on the page, escaped
        return escape(pick(words, lang, **fields))

    everyone, steps = grid.rows(state), grid.last_step(state)
    rows = grid.ordered(grid.only(everyone, view.only), view.sort)
    at = time.strftime("%H:%M:%S", time.localtime(state.get("now", time.time())))
    head = "".join(f"<th>{n}</th>" for n in range(1, steps + 1))
    body = "".join(_row(row, view) for row in rows)
    parts = _top(view, say(classroom.PAGE_TITLE), say(classroom.PAGE_HEADING, n=len(everyone), at=at))
    if everyone:
        parts.append(f"<p>{_choices(view, 'sort', grid.ORDERS, classroom.PAGE_SORT, classroom.ORDER)}"
                     f" · {_choices(view, 'only', grid.FILTERS, classroom.PAGE_ONLY, classroom.ONLY)}</p>")
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


def _choices(view: View, field: str, choices: tuple[str, ...], label: tuple[str, str],
             words: dict[str, tuple[str, str]]) -> str:
    """The label and a link per choice; the one in use in bold, not a link."""
    said = []
    for choice in choices:
        word = escape(pick(words[choice], view.lang))
        said.append(f"<span class=\"chosen\">{word}</span>" if getattr(view, field) == choice
                    else f"<a href=\"{view.link(**{field: choice})}\">{word}</a>")
    return escape(pick(label, view.lang)) + " " + " ".join(said)


def _row(row: grid.Row, view: View) -> str:
    kind = " class=\"stuck\"" if row.stuck else " class=\"away\"" if row.away else ""
    marks = "".join(f"<td class=\"{MARK_CLASS.get(m, '')}\">{escape(m)}</td>" for m in row.marks)
    name = f"{'⚠ ' if row.stuck else ''}<a href=\"{view.link(learner=row.id or row.name)}\">{escape(row.name)}</a>"
    return f"<tr{kind}><td>{name}</td>{marks}<td>{row.current}</td><td>{grid.clock(row.on_step)}</td></tr>"


def learner_page(learner: dict | None, view: View) -> str:
    """One learner's verdicts, as the terminal's (tutor/ui/class_learner.py): a row per step."""
    def say(words: tuple[str, str], **fields: object) -> str:
        return escape(pick(words, view.lang, **fields))

    back = f"<a href=\"{view.link(learner='')}\">{say(classroom.PAGE_BACK)}</a>"
    if learner is None:
        parts = _top(view, say(classroom.PAGE_TITLE), back)
        parts.append(f"<p>{say(classroom.LEARNER_GONE, name=view.learner)}</p></body></html>")
        return "".join(parts)
    verdicts = grid.verdicts(learner)
    name = str(learner.get("name", ""))
    parts = _top(view, f"{escape(name)} · {say(classroom.PAGE_TITLE)}", back)
    parts.append("<h1>" + say(classroom.LEARNER_HEAD, name=name, lesson=learner.get("lesson", ""),
                              current=learner.get("current", 1),
                              passed=sum(1 for v in verdicts if v.status == "pass")) + "</h1>")
    if not verdicts:
        parts.append(f"<p>{say(classroom.LEARNER_NONE)}</p></body></html>")
        return "".join(parts)
    parts.append(f"<table><tr><th>{say(classroom.PAGE_STEP)}</th><th>{say(classroom.PAGE_STATUS)}</th>"
                 f"<th>{say(classroom.PAGE_MESSAGE)}</th><th>{say(classroom.PAGE_HINTS)}</th>"
                 f"<th>{say(classroom.PAGE_PREDICTIONS)}</th><th>{say(classroom.WATCH_TIME)}</th></tr>")
    for v in verdicts:
        mark = grid.MARKS.get(v.status, "?")
        status = say(classroom.STATUS.get(v.status, (v.status, v.status)))
        parts.append(f"<tr><td>{v.step}</td><td class=\"{MARK_CLASS.get(mark, '')}\">{escape(mark)} {status}</td>"
                     f"<td class=\"message\">{escape(v.message)}</td><td>{v.hints}</td><td>{v.predictions}</td>"
                     f"<td>{grid.clock(v.seconds)}</td></tr>")
    parts.append("</table></body></html>")
    return "".join(parts)
