"""The header line: context, namespace, connection, progress and language."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from tutor.cluster.events import Conn
from tutor.ui.i18n import translate
from tutor.ui.widgets.redraw import RedrawsOnChange
from tutor.ui.widgets.virtual_size import update_static

CONN_STYLE = {
    Conn.OK: ("● live", "green"),
    Conn.CONNECTING: ("◌ connecting", "yellow"),
    Conn.RECONNECTING: ("◌ reconnecting — showing last data", "bold yellow"),
    Conn.FORBIDDEN: ("● live (some access denied)", "yellow"),
    Conn.CRD_MISSING: ("● live", "yellow"),  # and which kinds are not served (the kinds table's words)
    Conn.ENDED: ("■ replay ended", "cyan"),
}


class StatusBar(RedrawsOnChange, Static):
    def show(self, *, title: str, context: str, namespace: str, conn: Conn, passed: int, total: int,
             lang: str, replay: bool, unreachable: str = "", absent: str = "") -> None:
        """`unreachable`: why the cluster could not be reached before it was ever listed; `absent`:
        which kinds the cluster does not serve, in a few words (kinds.Kind.absent_short)."""
        key = (title, context, namespace, conn, passed, total, lang, replay, unreachable, absent)
        if not self._is_new(key):
            return
        label, style = CONN_STYLE.get(conn, (conn.value, "yellow"))
        if replay and conn is Conn.OK:
            label, style = "▶ replay", "cyan"
        label = translate(lang, label)
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
        t.append(" │ ", style="dim")
        t.append(context or "-", style="cyan")
        t.append("/", style="dim")
        t.append(namespace, style="cyan")
        t.append(" │ ", style="dim")
        t.append(lang.upper(), style="bold")
        t.append(" │ ", style="dim")
        t.append(title, style="bold")
        update_static(self, t)  # one line whatever it says: no layout of the screen for it
