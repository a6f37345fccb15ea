"""When a change the tutor applied is on its screen: the hooks the lab-reaction bench
(labreact_tutor.py) and the replay reaction (replayreact.py) put on a real TutorApp.

Each pod change or answer file applied gets a number; each frame drawn after a refresh says up to
which number it shows. A refresh's store -> screen time is split in four: waiting for the refresh
(the pump's pacing), its checks, its panes, and from then to the frame (Textual's layout and
compositor, and the bytes a terminal would get).
"""

from __future__ import annotations

import time
from typing import Callable

from textual.geometry import Region

from tutor.cluster import objects as o
from tutor.cluster.source_events import FileChanged, ObjectEvent
from tutor.workspace.files import FileRead

PHASES = ("wait", "checks", "panes", "to_frame")


def ask_for_a_frame(app) -> None:
    """After a refresh is drawn: a change off screen paints no frame otherwise, and the moment it
    is on screen is timed by one. One cell, not the whole screen: the app itself repaints only the
    widgets that changed."""
    app.screen.refresh(Region(0, 0, 1, 1))


class ScreenTiming:
    def __init__(self, app, on_item: Callable[[int, object], None] = lambda i, item: None,
                 on_frame: Callable[[int], None] = lambda upto: None):
        self.app, self.on_item, self.on_frame = app, on_item, on_frame
        self.seq = {"applied": 0, "rechecking": 0, "rechecked": 0, "drawn": 0}
        self.applied_at: dict[int, float] = {}  # item number -> when it was applied (perf_counter)
        self.latencies: list[float] = []  # per item: applied -> the frame that shows it, seconds
        self.phases: list[tuple[float, ...]] = []  # per refresh, PHASES
        self.last_phases: tuple[float, ...] | None = None  # the refresh the frame just drawn showed
        self._refresh: dict[str, float] = {}
        session = app.session
        self._apply, self._recheck, self._refreshed, self._display = (
            session.apply, app.driver.run_checks, app.driver.refresh_drawn, app._display)
        session.apply, app.driver.run_checks, app.driver.refresh_drawn, app._display = (
            self._noted_apply, self._noted_recheck, self._noted_refreshed, self._timed_display)

    def _noted_apply(self, item) -> bool:
        changed = self._apply(item)
        pod = isinstance(item, ObjectEvent) and o.kind(item.obj) == "Pod"
        if changed and (pod or isinstance(item, (FileChanged, FileRead))):  # live files come as FileRead
            self.seq["applied"] += 1
            self.applied_at[self.seq["applied"]] = time.perf_counter()
            self.on_item(self.seq["applied"], item)
        return changed

    def _noted_recheck(self):
        seq, r = self.seq, self._refresh
        seq["rechecking"] = seq["applied"]
        r.clear()
        r["first"] = self.applied_at.get(seq["drawn"] + 1, 0.0)  # the oldest change not yet on screen
        r["start"] = time.perf_counter()
        redraws = self._recheck()  # the checks run now; the panes as the pump turns the generator
        r["checked"] = time.perf_counter()
        return redraws

    def _noted_refreshed(self) -> None:  # the refresh's last pane is drawn (they may take turns)
        self._refreshed()
        self._refresh["drawn"] = time.perf_counter()
        self.seq["rechecked"] = self.seq["rechecking"]
        ask_for_a_frame(self.app)

    def _timed_display(self, screen, renderable) -> None:
        if renderable is not None and hasattr(renderable, "render_segments"):
            renderable.render_segments(self.app.console)  # headless Textual skips making terminal bytes
        self._display(screen, renderable)
        seq, r = self.seq, self._refresh
        if seq["rechecked"] > seq["drawn"]:
            now = time.perf_counter()
            self.latencies += [now - self.applied_at[i] for i in range(seq["drawn"] + 1, seq["rechecked"] + 1)
                               if i in self.applied_at]
            seq["drawn"] = seq["rechecked"]
            self.last_phases = None
            if r.get("first") and "drawn" in r:
                self.last_phases = (r["start"] - r["first"], r["checked"] - r["start"], r["drawn"] - r["checked"],
                                    now - r["drawn"])
                self.phases.append(self.last_phases)
            self.on_frame(seq["drawn"])

    def phase_summary(self) -> dict:
        """Each phase's p50 and p90 over the refreshes, in ms."""
        out = {}
        for i, name in enumerate(PHASES):
            ms = sorted(p[i] * 1000 for p in self.phases)
            if ms:
                out[name] = {"p50": round(ms[len(ms) // 2], 1), "p90": round(ms[int(0.9 * len(ms))], 1)}
        return out
