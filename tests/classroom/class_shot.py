"""The README's picture of `lwstutor class --watch`, drawn from a class state that real tutors
reported, kept as test data so the picture is the same every time it is made.

    python -m tests.classroom.class_shot --record   # tests/data/class-state.json, from real tutors
    python -m tests.classroom.class_shot            # screenshots/class-watch-en.svg from it

--record starts the class server process and tutors under Pilot replaying different recordings
(tests/classroom/test_page_browser.py's a_tutor_reports), and keeps the state the instructor read.
tests/classroom/test_class_shot.py fails when the committed SVG is stale.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from tests import waits
from tests.conftest import RECORDINGS, WALKTHROUGH
from tests.ui.settle import until
from tutor.ui.class_watch import ClassWatch

ROOT = Path(__file__).resolve().parents[2]
STATE = ROOT / "tests" / "data" / "class-state.json"
SHOT = ROOT / "screenshots" / "class-watch-en.svg"
SIZE = (80, 24)
CLASS = [("ana", WALKTHROUGH), ("민준", RECORDINGS / "names-swapped.jsonl"),
         ("bo", RECORDINGS / "wrong-annotation.jsonl"), ("chen", RECORDINGS / "uid-typo.jsonl"),
         ("dana", RECORDINGS / "names-swapped.jsonl")]


class Recorded:
    """A StateReader that answers with the recorded state."""

    def __init__(self, state: dict):
        self.state = state

    async def read(self) -> dict:
        return self.state

    async def close(self) -> None:
        pass


async def shoot(state: dict, lang: str = "en") -> str:
    app = ClassWatch("http://127.0.0.1:8001/i/recorded-class-state/state", lang)
    app.reader = Recorded(state)  # type: ignore[assignment]  # the view needs only read() and close()
    tz = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"  # the title's clock, the same wherever the picture is made
    time.tzset()
    try:
        async with app.run_test(size=SIZE) as pilot:
            table = app.query_one("#grid")
            await until(pilot, lambda: table.row_count == len(state["learners"]), "the class drawn", waits.PROCESS)
            await pilot.pause()
            return app.export_screenshot(title="lwstutor class --watch")
    finally:
        if tz is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = tz
        time.tzset()


async def record() -> dict:
    from tests.classroom.class_server import ClassServer
    from tests.classroom.test_page_browser import a_tutor_reports

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_STATE_HOME"] = str(Path(tmp) / "state")  # this process's own: the tutors' class keys
        server = ClassServer(Path(tmp) / "class.sqlite3").start()
        try:
            for name, recording in CLASS:
                await a_tutor_reports(server, name, recording, Path(tmp))
            code, state = server.state()
            assert code == 200, state
            return state
        finally:
            server.stop()


def main() -> int:
    if "--record" in sys.argv[1:]:
        STATE.write_text(json.dumps(asyncio.run(record()), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(STATE.relative_to(ROOT), file=sys.stderr)
    SHOT.write_text(asyncio.run(shoot(json.loads(STATE.read_text(encoding="utf-8")))))
    print(SHOT.relative_to(ROOT), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
