"""A tab of the served tutor in a real Chromium, and what it shows.

xterm.js draws the terminal on a canvas, so the page holds no text to read. A script that runs
before the page's own wraps its WebSocket and keeps every frame the tutor sends (and every size
the page asks for); the screen is rebuilt from them with pyte, a terminal emulator in Python, as
the page's xterm.js builds it from the same bytes.
"""

from __future__ import annotations

import os
import time
from contextlib import contextmanager
from typing import Iterator

import pyte
import pytest

from tests import waits

CHROMIUM = "/usr/lib/chromium/chromium"  # Debian's chromium; /usr/bin/chromium is a shell wrapper


def chromium_missing() -> str:
    """Why the browser tests cannot run here ("" when they can)."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[test]')"
    if not os.access(CHROMIUM, os.X_OK):
        return f"{CHROMIUM} is missing: Debian's chromium package (tests/run.sh installs it as root)"
    return ""


def need_chromium() -> None:
    """Skips a test that needs Chromium where it cannot run; under CI it fails instead (.ci/run
    installs it, so a missing one is a broken install, not a machine without it)."""
    why = chromium_missing()
    if why:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the browser tests cannot run: {why}")
        pytest.skip(why)


@contextmanager
def launched() -> Iterator:
    """Debian's Chromium, headless, closed on the way out."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--disable-dev-shm-usage"])
        try:
            yield browser
        finally:
            browser.close()


RECORD_FRAMES = """
(() => {
  const frames = [];
  window.__tutorFrames = frames;
  const Native = window.WebSocket;
  const decoder = new TextDecoder();
  function Recorded(url, protocols) {
    const ws = protocols === undefined ? new Native(url) : new Native(url, protocols);
    const q = new URL(url).searchParams;
    frames.push(["size", Number(q.get("width")), Number(q.get("height")), 0]);
    const send = ws.send.bind(ws);
    ws.send = (data) => {
      if (typeof data === "string") {
        try {
          const m = JSON.parse(data);
          if (m[0] === "resize") frames.push(["size", m[1].width, m[1].height, 0]);
        } catch (e) {}
      }
      return send(data);
    };
    ws.addEventListener("message", (e) => {
      if (typeof e.data !== "string") {
        frames.push(["data", decoder.decode(new Uint8Array(e.data), {stream: true}), 0,
                     performance.timeOrigin + performance.now()]);
      }
    });
    return ws;
  }
  Recorded.prototype = Native.prototype;
  Object.assign(Recorded, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
  window.WebSocket = Recorded;
})();
"""


class Tab:
    """One browser tab on the served tutor."""

    def __init__(self, page):
        self.page = page
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.Stream(self.screen)
        self.requests: list[str] = []
        page.on("request", lambda r: self.requests.append(r.url))
        page.add_init_script(RECORD_FRAMES)

    def open(self, url: str, timeout: float = waits.PROCESS):
        """Loads the page; returns the response of the page itself."""
        return self.page.goto(url, timeout=timeout * 1000)

    def wait_started(self, timeout: float = waits.PROCESS) -> None:
        """Until the tutor's first bytes have arrived (textual.js marks the body)."""
        self.page.wait_for_selector("body.-first-byte", timeout=timeout * 1000, state="attached")

    def reload(self):
        self.screen.reset()
        return self.page.reload()

    def read(self) -> str:
        for kind, a, b, _ in self.page.evaluate("window.__tutorFrames ? window.__tutorFrames.splice(0) : []"):
            if kind == "size":
                self.screen.resize(lines=b, columns=a)
            else:
                self.stream.feed(a)
        return "\n".join(line.rstrip() for line in self.screen.display)

    def wait_for(self, text: str, timeout: float = waits.PROCESS) -> str:
        """The screen once it shows `text`; fails with the screen as it was."""
        deadline = time.monotonic() + timeout
        shown = self.read()
        while text not in shown:
            if time.monotonic() > deadline:
                raise waits.ran_out(f"{text!r} on the screen", timeout, shown)
            time.sleep(0.2)
            shown = self.read()
        return shown

    def press(self, key: str) -> None:
        self.page.focus(".xterm-helper-textarea")
        self.page.keyboard.press(key)
