"""The header line: context, namespace, connection, progress and language."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from tutor.cluster.source_events import Conn
from tutor.i18n.bilingual import say
from tutor.ui.widgets.redraw import RedrawsOnChange
from tutor.ui.widgets.virtual_size import update_static

LIVE = ("● live", "● 실시간")
# The connection's state in both languages, and its style.
CONN_STYLE = {
    Conn.OK: (LIVE, "green"),
    Conn.CONNECTING: (("◌ connecting", "◌ 연결 중"), "yellow"),
    Conn.RECONNECTING: (("◌ reconnecting — showing last data",
                         "◌ 다시 연결하는 중 — 마지막 데이터를 보여 줍니다"), "bold yellow"),
    Conn.FORBIDDEN: (("● live (some access denied)", "● 실시간 (일부 권한 없음)"), "yellow"),
    Conn.CRD_MISSING: (LIVE, "yellow"),  # and which kinds are not served (the kinds table's words)
    Conn.ENDED: (("■ replay ended", "■ 재생 끝"), "cyan"),
}


class StatusBar(RedrawsOnChange, Static):
    def show(self, *, title: str, context: str, namespace: str, conn: Conn, passed: int, total: int,
             lang: str, replay: bool, unreachable: str = "", absent: str = "", demo: str = "",
             reporting: str = "") -> None:
        """`unreachable`: why the cluster could not be reached before it was ever listed; `absent`:
        which kinds the cluster does not serve, in a few words (kinds.Kind.absent_short); `demo`:
        the demo's step and time left, said while it plays; `reporting`: to which class this tutor
        reports (`lwstutor --join`), and how that goes."""
        key = (title, context, namespace, conn, passed, total, lang, replay, unreachable, absent, demo, reporting)
        if not self._is_new(key):
            return
        words, style = CONN_STYLE[conn]
        if replay and conn is Conn.OK:
            words, style = ("▶ replay", "▶ 재생"), "cyan"
        label = f"▶ {demo}" if demo and replay and conn is Conn.OK else say(lang, *words)
        if conn is Conn.CRD_MISSING and absent:
            label += f" ({absent})"
        if unreachable:
            # the few words fit 80 columns; the sentence, and that it retries, are in the lab check panel
            label, style = "✗ " + unreachable, "bold red"
        # Most important first: a narrow terminal cuts the end of the line, not the progress.
        t = Text(no_wrap=True, overflow="ellipsis")
        t.append(" lwstutor ", style="bold reverse")
        t.append(f" {passed}/{total} ", style="bold green" if passed == total else "bold")
        t.append("│ ", style="dim")
        t.append(label, style=style)
        if reporting:  # before the context: a learner must see that the tutor sends, even at 80 columns
            t.append(" │ ", style="dim")
            t.append(reporting, style="magenta")
        t.append(" │ ", style="dim")
        t.append(context or "-", style="cyan")
        t.append("/", style="dim")
        t.append(namespace, style="cyan")
        t.append(" │ ", style="dim")
        t.append(lang.upper(), style="bold")
        t.append(" │ ", style="dim")
        t.append(title, style="bold")
        update_static(self, t)  # one line whatever it says: no layout of the screen for it
