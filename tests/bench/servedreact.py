"""Store -> a browser's frame through `lwstutor serve`: the walkthrough replayed into a tutor that
the real server runs for a real headless Chromium tab, timed at each hop. Beside replayreact.py
(the same replay into the terminal's app, in-process), it shows what the websocket adds.

    .venv/bin/python -m tests.bench.servedreact [--speed 2] [--viewport 1280x800]

Each pod change is timed on the wall clock (one machine, one clock for the tutor's process and
the browser) from when the tutor's store applied it, to the tutor's frame that shows it
(served_tutor.py, the same hooks as the lab reaction), to the first websocket message the page
receives after that frame, to the animation frame after that message (xterm.js draws on
animation frames, so the change is on the canvas by then or one frame later). Needs Debian's
chromium and Playwright (tests/run.sh as root installs it). Prints JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.serve.browser import CHROMIUM
from tutor.demo import walkthrough

ARRIVALS = """
(() => {
  const arrivals = [];
  window.__arrivals = arrivals;
  const Native = window.WebSocket;
  function Timed(url, protocols) {
    const ws = protocols === undefined ? new Native(url) : new Native(url, protocols);
    ws.addEventListener("message", (e) => {
      if (typeof e.data === "string") return;  // textual-serve's meta messages; the screen is binary
      const at = performance.timeOrigin + performance.now();
      requestAnimationFrame(() => arrivals.push([at, performance.timeOrigin + performance.now()]));
    });
    return ws;
  }
  Timed.prototype = Native.prototype;
  Object.assign(Timed, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
  window.WebSocket = Timed;
})();
"""


def _summary(ms: list[float]) -> dict:
    ms = sorted(ms)
    if not ms:
        return {"n": 0}
    return {"n": len(ms), "p50_ms": round(ms[len(ms) // 2], 1), "p99_ms": round(ms[int(0.99 * len(ms))], 1),
            "max_ms": round(ms[-1], 1)}


def serve_only(command: str) -> None:
    """The server process: `lwstutor serve`'s server with the bench's tutor command."""
    from tutor.serve.gate import Gate
    from tutor.serve.server import TutorServer

    gate = Gate(1)
    TutorServer(command, "127.0.0.1", 0, gate, "en").run(
        lambda host, port: print(f"http://{host}:{port}/?token={gate.token}", flush=True))


def run(speed: float, viewport: tuple[int, int]) -> dict:
    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="lwstutor-servedreact-"))
    timing, state = tmp / "timing.jsonl", tmp / "progress.json"
    tutor = shlex.join([sys.executable, "-m", "tests.bench.served_tutor", "--replay", str(walkthrough()),
                        "--speed", str(speed), "--state-file", str(state), "--lang", "en"])
    server = subprocess.Popen([sys.executable, "-m", "tests.bench.servedreact", "--serve", tutor],
                              env={**os.environ, "LWSTUTOR_SERVED_TIMING": str(timing)},
                              stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    try:
        url = re.search(r"http://\S+", server.stdout.readline()).group(0)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--disable-dev-shm-usage"])
            page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
            page.add_init_script(ARRIVALS)
            page.goto(url)
            page.wait_for_selector("body.-first-byte", state="attached", timeout=60_000)
            deadline, quiet_since, size = time.monotonic() + 900, time.monotonic(), -1
            while time.monotonic() < deadline:  # until every step passed, or nothing drawn for 20 s
                time.sleep(1)
                passed = json.loads(state.read_text()).get("passed", {}) if state.exists() else {}
                now = timing.stat().st_size if timing.exists() else 0
                if now != size:
                    size, quiet_since = now, time.monotonic()
                if len(passed) == 8 or time.monotonic() - quiet_since > 20:
                    break
            time.sleep(2)
            arrivals = page.evaluate("window.__arrivals")
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
    frames = [json.loads(line) for line in timing.read_text().splitlines()] if timing.exists() else []
    to_frame, to_socket, to_paint, store_to_paint = [], [], [], []
    for f in frames:
        if not f["applied"]:
            continue
        at = f["frame"] * 1000
        got = next((a for a in arrivals if a[0] >= at), None)
        to_frame += [at - t * 1000 for t in f["applied"]]
        if got is None:
            continue
        to_socket.append(got[0] - at)
        to_paint.append(got[1] - at)
        store_to_paint += [got[1] - t * 1000 for t in f["applied"]]
    return {"speed": speed, "viewport": f"{viewport[0]}x{viewport[1]}",
            "passed": sorted(int(k) for k in json.loads(state.read_text()).get("passed", {})) if state.exists() else [],
            "store_to_tutor_frame": _summary(to_frame),
            "tutor_frame_to_websocket_message": _summary(to_socket),
            "tutor_frame_to_browser_animation_frame": _summary(to_paint),
            "store_to_browser_animation_frame": _summary(store_to_paint)}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--speed", type=float, default=2.0)
    ap.add_argument("--viewport", default="1280x800")
    ap.add_argument("--serve", metavar="COMMAND", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve_only(args.serve)
        return 0
    w, h = (int(x) for x in args.viewport.split("x"))
    print(json.dumps(run(args.speed, (w, h)), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
