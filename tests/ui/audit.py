"""The screen audit's eyes: every check a frame must pass, read from what the terminal shows and
from where the compositor drew each widget. tests/ui/test_screen_audit.py drives the app and asks
`Audit.look` at every moment; the findings of a whole run are reported together.

Rules (with the language rules of tests/lang_scan.py):
  notice-over-pane  a notice drawn over a pane's text or bottom border (a toast, or the notices'
                    line anywhere but the row of the top borders it lies over): hidden while it shows
  notice-cut        a wide character of the notices' line drawn as blanks (cut in two where a
                    widget beneath it has an edge)
  footer            the footer row not what the screen on top offers: without q and ? (? may be
                    absent under the help, which it closes, both under the palette, which
                    types them), a key that does not act there, or keys other than a fresh
                    draw at this width would show (left from an earlier width, cut, a stray
                    letter)
  pods-column       a pod's row without its whole name or its phase
  nodes-column      a node's line without its name or its GPUs used/total
  step-node         a node the step is about (lesson.yaml `nodes`: step 7's KWOK nodes, step 8's
                    lab-server) not in view while the node ledger is shown
  step-mismatch     the lesson and the verdict showing different steps on one frame
  room              the lesson with fewer than two rows of text in view, or the verdict with none
                    (no pane zoomed): the step and its verdict are what the learner reads first
  border-cut        a pane's or a screen's border title or subtitle longer than its border
  border-off        a pane shown with its bottom border off screen (pushed down by the panes above,
                    a notice's line): its last rows go unseen and nothing says so
  cut-mark          a one-row text (the header, the notices' line) longer than its row and not
                    ending in "…": a title cut at a word reads as whole ("LeaderWorkerSet:")
  cut-and-wrapped   a line cut with "…" and then its text going on, wrapped, on the next line
                    (a word both cut and wrapped: "(CreatingRevisio…" over "event)")
  step-pod          the pods the step is about (the pods its checker reads by name) not the first
                    rows of the pods pane at its top: another LWS's pods in their place (step 7's
                    wide pods under llm's), as step-node asks of the nodes
  out-of-view       what a key revealed (a hint, the solution: its heading and its text up to the
                    next heading) not read in view after the key: its heading's line not at the
                    lesson pane's top (nor the pane at its end with the heading in view), or its
                    text going on below the pane while a bigger view (the pane zoomed) could show
                    more (`Audit.revealed`, asked by the driver)
  app-ended         the app ended (or raised) while the learner was using it
  did-not-settle    the app still runs but a replay did not settle in the test's time (a slow
                    machine, or a hang: reported, never hidden)
"""

from __future__ import annotations

import json
import os
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from textual.screen import ModalScreen

from tests.lang_scan import scan
from tests.ui.screen_text import cells, screen_lines
from tutor.cluster import objects as o

PANES = ("#steps", "#lesson", "#verdict", "#doctor", "#groups", "#ledger", "#pods", "#events", "#timeline")


@dataclass(frozen=True)
class ScreenFinding:
    rule: str
    what: str  # the defect, the same words wherever it is seen
    where: str  # recording size lang: moment
    line: str = ""  # the line it was seen on


@dataclass
class Audit:
    case: str  # "walkthrough 80x24 ko"
    findings: list[ScreenFinding] = field(default_factory=list)
    frames: int = 0

    def add(self, rule: str, what: str, moment: str, line: str = "") -> None:
        self.findings.append(ScreenFinding(rule, what, f"{self.case}: {moment}", line))

    def fell(self, app, exc: Exception, moment: str) -> None:
        """The drive stopped on an exception: the app ended (or raised), or, while it still runs,
        a wait of this test's own ran out (a replay that did not settle in time)."""
        crashed = app._exception is not None or app.return_code not in (None, 0)
        rule = "did-not-settle" if isinstance(exc, AssertionError) and not crashed else "app-ended"
        self.add(rule, f"{type(exc).__name__}: {str(exc)[:200]}", moment)

    def look(self, app, moment: str) -> list[str]:
        """Checks the frame on screen now; returns its lines."""
        self.frames += 1
        if not app.is_running:
            self.add("app-ended", f"the app ended (return code {app.return_code}, "
                                  f"error {getattr(app, 'connect_error', '')!r})", moment)
            return []
        lines = screen_lines(app)
        lang = app.session.lang
        quoted, code = verbatim(app), code_words(app)
        for text, wrapped in shown_blocks(app, lines):
            for f in scan(text, lang, verbatim=quoted, code=code, wrapped=wrapped):
                self.add(f.rule, f.text, moment, f.line[:120])
        # The verdict's whole text, unwrapped, as it reads once scrolled or zoomed: a particle
        # is read with its word even where the pane wraps between them.
        for f in scan(app.query_one("#verdict").text(), lang, verbatim=quoted, code=code):
            self.add(f.rule, f.text, f"{moment} (the verdict's whole text)", f.line[:120])
        self._toasts(app, lines, moment)
        self._footer(app, lines, moment)
        self._pods(app, lines, moment)
        self._nodes(app, lines, moment)
        self._steps(app, moment)
        self._room(app, moment)
        self._borders(app, moment)
        self._borders_on_screen(app, moment)
        self._cut_marks(app, lines, moment)
        self._cut_and_wrapped(app, lines, moment)
        self._step_pods(app, lines, moment)
        return lines

    # --- (c) notices over panes ----------------------------------------------------------------
    def _toasts(self, app, lines: list[str], moment: str) -> None:
        from textual.widgets._toast import Toast

        over = [(w, clip.intersection(region), " ".join(w._notification.message.split())[:50])
                for w, (region, clip) in app.screen._compositor.visible_widgets.items() if isinstance(w, Toast)]
        main = app.screen_stack[0]
        bar, at = notices_line_at(app)
        if at is not None:
            over.append((bar, at, str(bar.content)[:50]))
            drawn, meant = " ".join(lines[bar.region.y].split()), " ".join(str(bar.content).split())
            if drawn != meant:
                self.add("notice-cut", f"the notices' line drawn «{drawn[:60]}» for «{meant[:60]}»", moment)
        for pane_id, region in pane_regions(app).items():
            pane = main.query(pane_id).first() if main.query(pane_id) else None
            for notice, n_region, text in over:
                hidden = n_region.intersection(region)
                if not hidden.area:
                    continue
                # the notices' line lies over the panes' top borders: that row only, never the text
                if notice is bar and pane is not None and hidden.height == 1 and hidden.y == region.y == pane.region.y \
                        and pane.styles.border_top[0] not in ("", "none"):
                    continue
                self.add("notice-over-pane", f"a notice over {pane_id} «{text}»", moment)

    # --- (d) the footer ------------------------------------------------------------------------
    def footer(self, app, moment: str) -> None:
        """The footer rule alone, on the frame on screen now."""
        self.frames += 1
        self._footer(app, screen_lines(app), moment)

    def _footer(self, app, lines: list[str], moment: str) -> None:
        """The footer row the learner sees (the one of the top screen that is not a modal: a
        modal has none, the one beneath shows through) offers the keys of the screen on top:
        (a) q and ?, but for ? where the help is that screen (? and esc close it) and both under
        the palette (its search field takes every letter); (b) no key that does not act there;
        (c) the keys a fresh draw at this width would show, whole, and nothing else. Not in the frame
        after they change, which Textual's footer still draws with the keys before."""
        from textual.command import CommandPalette
        from textual.widgets import Footer
        from textual.widgets._footer import FooterKey

        from tutor.ui.screens.help import HelpScreen
        from tutor.ui.widgets.key_footer import KeyFooter

        if not lines:
            return
        beneath = next(s for s in reversed(app.screen_stack) if not isinstance(s, ModalScreen))
        footers = beneath.query(Footer)
        if not footers or not any(k.region.area for k in footers.first().query(FooterKey)):
            return  # still composing its keys (it recomposes when they change): the next frame has them
        if not isinstance(footers.first(), KeyFooter):
            self.add("footer", f"{type(beneath).__name__}'s footer is Textual's own: its keys are not fitted to "
                               "its width nor to the screen on top", moment)
            return
        footer, top, row = footers.first(), app.screen, lines[-1]
        if top is not beneath and any((shown := clip.intersection(region)).y <= footer.region.y < shown.bottom
                                      for w, (region, clip) in top._compositor.visible_widgets.items() if w is not top):
            return  # the modal itself covers the footer's row (the palette's list on a short terminal)
        if footer.keys_due:
            # The screen on top or its keys changed this turn: Textual recomposes a footer after
            # the next refresh, so this one frame still shows the keys before the change.
            return
        drawn = list(footer.query(FooterKey))
        panel = " (lab check panel up)" if app.query_one("#doctor").display else ""
        where = f"{type(top).__name__}{panel}"
        required = {"q": r"(?:^|\s)q\s", "?": r"(?:^|\s)\?\s"}
        if isinstance(top, CommandPalette):
            required = {}
        elif isinstance(top, HelpScreen):
            del required["?"]
        missing = [k for k, pattern in required.items() if not re.search(pattern, row)]
        if missing:
            self.add("footer", f"footer without {' and '.join(missing)} on {where} «{row.strip()[:100]}»", moment)
        active = top.active_bindings
        for key in drawn:
            if not any(k.strip() in active and active[k.strip()].binding.action == key.action
                       for k in key.key.split(",")):
                self.add("footer", f"footer offers {key.key_display} ({key.action}), which does not act on {where}",
                         moment)
        fresh = [e.label for e in footer.chosen()]
        palette = footer.palette_entry()
        shown = [f"{k.key_display} {k.description}".strip() for k in drawn if not k.has_class("-command-palette")]
        if shown != fresh:
            self.add("footer", f"footer on {where} at {app.size.width} cols shows {shown}, a fresh draw {fresh}",
                     moment)
        rest = row
        for label in [*fresh, *([palette.label] if palette else [])]:
            if label not in rest:
                self.add("footer", f"footer on {where} at {app.size.width} cols without «{label}» whole "
                                   f"«{row.strip()[:100]}»", moment)
            rest = rest.replace(label, "", 1)
        if rest.replace("▏", "").strip():
            self.add("footer", f"footer on {where} at {app.size.width} cols: «{rest.strip()}» is no key's "
                               f"«{row.strip()[:100]}»", moment)

    # --- (e) essential columns -----------------------------------------------------------------
    def _pods(self, app, lines: list[str], moment: str) -> None:
        if app.screen is not app.screen_stack[0] or isinstance(app.screen, ModalScreen):
            return
        pane = app.query_one("#pods")
        region = visible_region(app, pane)
        if region is None or region.height < 2:
            return
        content = pane.scrollable_content_region.intersection(region)  # no scrollbar rows
        rows = [cells(lines[y], content.x, content.right) for y in range(content.y + 1, content.bottom)]
        keys = pane.keys()[int(pane.scroll_offset.y):]
        cut_name, cut_phase = [], []
        for row, key in zip(rows, keys):
            cell = pane.cells(key)
            if cell is None or not any(ch.isalnum() for ch in row):
                continue
            if not re.search(rf"(?:^|\s){re.escape(key)}(?:\s|$)", row):
                cut_name.append(key)
            elif cell.phase.plain not in row:
                cut_phase.append(f"{key} ({cell.phase.plain})")
        if cut_name:
            self.add("pods-column", f"pods pane {region.width} cols: the name cut for {cut_name[0]}", moment)
        if cut_phase:
            self.add("pods-column", f"pods pane {region.width} cols: no phase for {cut_phase[0]}", moment)

    def _nodes(self, app, lines: list[str], moment: str) -> None:
        if app.screen is not app.screen_stack[0]:
            return
        pane = app.query_one("#ledger")
        region = visible_region(app, pane)
        if region is None or not pane.display:
            return
        content = pane.content_region.intersection(region)
        text = [cells(lines[y], content.x, content.right) for y in range(content.y, content.bottom)]
        shown = set()
        for row in text:
            head = re.match(r"\s*[●✗]\s+(\S*)(.*)", row)
            if not head:
                continue
            name, rest = head.groups()
            node = next((n for n in node_names(app) if n == name), None)
            if node is None:
                self.add("nodes-column", f"nodes pane {region.width} cols: a node's name cut «{row.strip()}»", moment)
                continue
            shown.add(node)
            if not re.search(r"\d+/\d+", rest):
                self.add("nodes-column", f"nodes pane {region.width} cols: {node} without its GPUs used/total "
                                         f"«{row.strip()}»", moment)
        step = app.session.progress.current
        wanted = [n for n in app.session.lesson.step(step).nodes if n in node_names(app)]
        for n in wanted:
            if n not in shown:
                self.add("step-node", f"step {step}: {n} not in view in the nodes pane ({region.width}x{region.height})",
                         moment)

    # --- (f) one step on the lesson and the verdict --------------------------------------------
    def _steps(self, app, moment: str) -> None:
        if app.screen is not app.screen_stack[0]:
            return
        from textual.widgets.markdown import MarkdownBlock

        lesson = next((b for b in app.query_one("#lesson").query(MarkdownBlock)
                       if (b.source or "").startswith("# ")), None)
        m = re.match(r"#\s*(\d+)\.", lesson.source if lesson is not None else "")
        if m is None:
            return
        shown = int(m.group(1))
        # The step the box drew its verdict for, as it says: not read from its text, which may be
        # the step's verdict of a frame ago and equal another step's verdict now ("Waiting for
        # the pods to be Running." is step 1's at the start and step 7's later).
        drawn_for = app.query_one("#verdict").step
        if drawn_for is not None and drawn_for != shown:
            pane = app.query_one("#lesson")
            self.add("step-mismatch", f"the lesson shows step {shown}, the verdict step {drawn_for} (the pane "
                                      f"drew step {pane.step}, still drawing: {not pane.drawn}; current "
                                      f"{app.session.progress.current})", moment)

    # --- (g) room for what the learner reads first: the step and its verdict ------------------------
    def _room(self, app, moment: str) -> None:
        if app.screen is not app.screen_stack[0] or app.screen.maximized is not None:
            return  # another screen on top, or one pane zoomed (z): the others are hidden on purpose
        for pane_id, least in (("lesson", 2), ("verdict", 1)):
            pane = app.query_one(f"#{pane_id}")
            if not pane.display:
                continue
            region = visible_region(app, pane)
            rows = 0 if region is None else pane.content_region.intersection(region).height
            if rows < least:
                panel = " (lab check panel up)" if app.query_one("#doctor").display else ""
                self.add("room", f"the {pane_id} pane: {rows} rows of text in view, fewer than {least}{panel}", moment)

    # --- (i) what a key revealed, in view ----------------------------------------------------------
    def revealed(self, app, heading: str, moment: str) -> None:
        """After h or s: the revealed heading's line at the top of the lesson pane, and its text
        whole below it, or the pane zoomed so that the text fills the whole view."""
        from tutor.ui.widgets.lesson_pane import section_end

        pane = app.query_one("#lesson")
        block = pane.heading(heading)
        if block is None:
            self.add("out-of-view", f"«{heading}» not in the lesson pane after the key", moment)
            return
        view = pane.scrollable_content_region
        end = section_end(block)
        size = f"{view.width}x{view.height}"
        at_end = pane.scroll_y >= pane.max_scroll_y and view.y <= block.region.y < view.bottom
        if block.region.y != view.y and not at_end:  # at the end: the last section, under what came before
            rows = block.region.y - view.y
            self.add("out-of-view", f"«{heading}»'s line {rows:+d} rows from the lesson pane's top ({size})", moment)
        elif end.region.bottom > view.bottom and app.screen.maximized is not pane:
            self.add("out-of-view", f"«{heading}»'s text goes on {end.region.bottom - view.bottom} rows below the "
                                    f"lesson pane ({size}), which is not zoomed", moment)

    # --- (h) a pane's border words whole ---------------------------------------------------------
    def _borders(self, app, moment: str) -> None:
        from rich.cells import cell_len
        from textual.content import Content

        for screen in {app.screen_stack[0], app.screen}:
            for widget in screen.query("*"):
                region = screen._compositor.visible_widgets.get(widget)
                if region is None or not widget.display or widget.styles.border_top[0] in ("", "none"):
                    continue
                for which in ("border_title", "border_subtitle"):
                    words = getattr(widget, which) or ""
                    plain = words.plain if hasattr(words, "plain") else Content.from_markup(str(words)).plain
                    if plain and cell_len(plain) + 4 > widget.outer_size.width:
                        self.add("border-cut", f"{widget.id or type(widget).__name__}'s {which.split('_')[1]} cut at "
                                               f"{widget.outer_size.width} cols «{plain[:60]}»", moment)

    # --- (j) every pane's bottom border on screen -------------------------------------------------
    def _borders_on_screen(self, app, moment: str) -> None:
        main = app.screen_stack[0]
        if main.maximized is not None:
            return  # one pane zoomed: the others hidden on purpose
        for pane_id in PANES:
            for pane in main.query(pane_id):
                if not pane.display or not pane.parent.display or pane.styles.border_bottom[0] in ("", "none"):
                    continue
                entry = main._compositor.visible_widgets.get(pane)
                if entry is None:
                    if pane.parent.region.area:  # its column is shown, the pane below its end
                        self.add("border-off", f"{pane_id} shown but off screen", moment)
                    continue
                region, clip = entry
                if region.bottom > clip.bottom:
                    self.add("border-off", f"{pane_id}'s bottom border off screen ({region.bottom - clip.bottom} "
                                           f"rows below, {app.size.width}x{app.size.height})", moment)

    # --- (k) a text cut at its row's end ends in "…" ---------------------------------------------
    def _cut_marks(self, app, lines: list[str], moment: str) -> None:
        from rich.cells import cell_len
        from textual.widgets import Static

        screen = app.screen  # the one drawn on top: its rows are the screen's
        for widget in screen.query(Static):
            entry = screen._compositor.visible_widgets.get(widget)
            if entry is None or not widget.display or widget.content_region.height != 1:
                continue
            given = widget.content
            whole = given.plain if hasattr(given, "plain") else str(given)
            if "\n" in whole.strip():
                continue
            room = widget.content_region
            drawn = cells(lines[room.y], room.x, room.right).rstrip() if room.y < len(lines) else ""
            if cell_len(whole.rstrip()) > room.width and drawn and not drawn.endswith("…"):
                self.add("cut-mark", f"{widget.id or type(widget).__name__} cut at {room.width} cols "
                                     f"without …: «{drawn.strip()[-40:]}»", moment)

    # --- (l) nothing both cut and wrapped ------------------------------------------------------
    def _cut_and_wrapped(self, app, lines: list[str], moment: str) -> None:
        for pane_id in PANES:
            for pane in app.screen.query(pane_id):
                entry = app.screen._compositor.visible_widgets.get(pane)
                if entry is None or not pane.display:
                    continue
                room = pane.content_region.intersection(entry[1])
                rows = [cells(lines[y], room.x, room.right) for y in range(room.y, min(room.bottom, len(lines)))]
                self._cut_then_wrapped(pane_id, rows, moment)
        # The timeline's whole story, as scrolling it shows: the audit looks at its end only.
        for body in app.screen.query("#timeline-body"):
            width = body.content_region.width
            if width > 0:
                console = app.console
                drawn = console.render_lines(body.content, console.options.update(width=width, height=None), pad=False)
                self._cut_then_wrapped("#timeline (scrolled)", ["".join(s.text for s in line) for line in drawn],
                                       moment)

    def _cut_then_wrapped(self, pane_id: str, texts: list[str], moment: str) -> None:
        rows = [cell_list(t) for t in texts]
        for row, below in zip(rows, rows[1:]):
            text = "".join(row).rstrip()
            if not text.endswith("…") or not "".join(below).strip():
                continue
            # The next line begins under a text of the cut line, in from the pane's edge: the
            # same cell's text wrapped on, not a row of its own.
            at = next(i for i, c in enumerate(below) if c not in (" ", ""))
            if 0 < at < len(row) and row[at - 1] == " " and row[at] not in (" ", ""):
                self.add("cut-and-wrapped", f"{pane_id}: a line cut with … wrapped on "
                                            f"«{text.strip()[-30:]}» over «{''.join(below).strip()[:20]}»", moment)

    # --- (m) the step's pods first -------------------------------------------------------------
    def _step_pods(self, app, lines: list[str], moment: str) -> None:
        if app.screen is not app.screen_stack[0]:
            return
        pane = app.query_one("#pods")
        region = visible_region(app, pane)
        if region is None or int(pane.scroll_offset.y):
            return  # hidden, or scrolled by the learner: the top rows are theirs to choose
        content = pane.scrollable_content_region.intersection(region)
        in_view = max(0, content.height - 1)  # under its header row
        keys = pane.keys()
        step = app.session.progress.current
        about = [k for k in keys if k in set(app.page.step_pods())]
        wanted = about[:in_view]
        if wanted and set(keys[:len(wanted)]) != set(wanted):
            self.add("step-pod", f"step {step}: {', '.join(wanted)} not the first rows of the pods pane "
                                 f"({region.width}x{region.height}): {', '.join(keys[:len(wanted)])} shown", moment)

    # --- the report ----------------------------------------------------------------------------
    def report(self) -> str:
        by_rule: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
        for f in self.findings:
            by_rule[f.rule][f.what].append(f.where)
        out = [f"{self.case}: {len(self.findings)} findings on {self.frames} frames"]
        for rule in sorted(by_rule):
            whats = by_rule[rule]
            out.append(f"== {rule}: {sum(map(len, whats.values()))} ({len(whats)} distinct)")
            for what, wheres in sorted(whats.items(), key=lambda kv: -len(kv[1])):
                more = f" (+{len(wheres) - 1} more)" if len(wheres) > 1 else ""
                line = next((f.line for f in self.findings if f.rule == rule and f.what == what and f.line), "")
                out.append(f"   {what}" + (f"  «{line}»" if line else "") + f"\n      at {wheres[0]}{more}")
        return "\n".join(out)

    def dump(self, name: str) -> None:
        """With AUDIT_DUMP=DIR, writes the findings as JSON too (to route them)."""
        where = os.environ.get("AUDIT_DUMP")
        if where:
            Path(where).mkdir(parents=True, exist_ok=True)
            (Path(where) / f"{name}.json").write_text(json.dumps(
                [f.__dict__ for f in self.findings], ensure_ascii=False, indent=0))


def shown_blocks(app, lines: list[str]) -> list[tuple[str, bool]]:
    """The text the learner reads, in blocks read on their own: each pane's lines (wrapped by its
    width: a word may be cut at a line's edge), the notices' line (over the panes' top borders),
    then the rest of the screen (header, footer). Under a modal (help, a confirm, the palette, a
    prediction) the modal alone, each of its parts a block: the screen behind it is dimmed and
    cut by it."""
    if isinstance(app.screen, ModalScreen):
        out = []
        for w in app.screen.children:
            entry = app.screen._compositor.visible_widgets.get(w)
            if entry is None:
                continue
            region = entry[1].intersection(entry[0])
            out.append(("\n".join(cells(lines[y], region.x, region.right)
                                  for y in range(region.y, min(region.bottom, len(lines)))), True))
        return out
    regions = pane_regions(app, on_top=True)
    out, rest = [], list(lines)
    # The notices' line lies over the panes' top borders: a block of its own, not a pane's row.
    _, bar_at = notices_line_at(app)
    if bar_at is not None:
        out.append((lines[bar_at.y], False))
        rest[bar_at.y] = ""
    under_bar = set(range(bar_at.y, bar_at.bottom)) if bar_at is not None else set()
    for region in regions.values():
        out.append(("\n".join("" if y in under_bar else cells(lines[y], region.x, region.right)
                              for y in range(region.y, min(region.bottom, len(lines)))), True))
        for y in range(region.y, min(region.bottom, len(lines))):
            if y not in under_bar:
                rest[y] = cells(rest[y], 0, region.x) + " " * region.width + cells(rest[y], region.right, 10**6)
    return out + [("\n".join(rest), False)]


def code_words(app) -> frozenset[str]:
    """The words the step on screen writes as code (its backticks and code blocks, which the
    rendered markdown no longer shows), and those its verdict writes in backticks: a code span
    the verdict's box wraps reads, on the line after the wrap, as words with no backtick before
    them (`trap 'exit 0' TERM` as «0' TERM`»). The verdict's whole text is read on its own too."""
    md = app.page.markdown(app.session.progress.current)
    spans = re.findall(r"```[^\n]*\n(.*?)```", md, flags=re.S) + re.findall(r"`([^`\n]+)`", md)
    spans += re.findall(r"`([^`]+)`", app.query_one("#verdict").text())
    return frozenset(w for span in spans for w in re.findall(r"[A-Za-z][A-Za-z]*", span))


def notices_line_at(app):
    """The notices' line and where it shows, (bar, None) when hidden or under a modal (it lies
    beneath the modal there), (None, None) on a screen without it."""
    main = app.screen_stack[0]
    bars = main.query("#notices")
    if not bars:
        return None, None
    bar = bars.first()
    return bar, (visible_region(app, bar) if app.screen is main else None)


def visible_region(app, widget):
    """Where the main screen shows the widget (clipped), or None when it does not."""
    entry = app.screen_stack[0]._compositor.visible_widgets.get(widget)
    if entry is None or not widget.display:
        return None
    region, clip = entry
    shown = clip.intersection(region)
    return shown if shown.area else None


def pane_regions(app, on_top: bool = False) -> dict:
    """Where each pane shows, on the main screen and the one on top; `on_top`: the top one's only."""
    out = {}
    main = app.screen_stack[0]
    maximized = main.maximized
    for pane_id in PANES:
        for w in (*(() if on_top and app.screen is not main else main.query(pane_id)), *app.screen.query(pane_id)):
            if maximized is not None and w is not maximized and w.screen is main:
                continue
            comp = w.screen._compositor.visible_widgets.get(w)
            if comp is not None and w.display:
                region, clip = comp
                shown = clip.intersection(region)
                if shown.area:
                    out[pane_id] = shown
    return out


def cell_list(text: str) -> list[str]:
    """A line as its cells: a Korean character, then an empty cell for its second half."""
    from rich.cells import get_character_cell_size

    out: list[str] = []
    for ch in text:
        out += [ch] + [""] * (get_character_cell_size(ch) - 1)
    return out


def node_names(app) -> set[str]:
    return {o.name(n) for n in app.session.store.all("Node")}


def verbatim(app) -> tuple[str, ...]:
    """What the screen quotes as its authors wrote it: the cluster's event messages, the learner's
    answer files."""
    s = app.session
    out = []
    for e in s.store.events_for(s.lesson.namespace):
        for key in ("message", "note"):
            if e.get(key):
                out.append(" ".join(str(e[key]).split()))
    for read in s.workspace._files.values():
        if read.text:
            out += [line for line in read.text.splitlines() if line.strip()]
    return tuple(out)
