"""The verdict box's height within a step: it keeps the tallest a verdict of the same status had
(no layout of the whole screen each time a detail comes or goes), and takes a new status's own
height. Kept across a pass, the height at the end of a lesson depended on how many of the
verdicts before the pass were drawn, which depends on how busy the machine is, and the screens
of one walkthrough differed from run to run."""

from __future__ import annotations

from textual.app import App, ComposeResult

from tests.ui.settle import until
from tutor.checks.verdict import Status, Verdict
from tutor.ui.widgets.verdict_box import VerdictBox

LABELS = {"title": "Verdict", "checking": "checking", "more": "more", "passed": "PASSED", "now": "now",
          **{s.name: s.name for s in Status}}


class OneBox(App):
    CSS = "VerdictBox { height: auto; max-height: 20; }"

    def compose(self) -> ComposeResult:
        yield VerdictBox(id="verdict")


def verdict(status: Status, details: int) -> Verdict:
    return Verdict(status, f"{status.value} with {details} details", tuple(f"detail {i}" for i in range(details)))


async def test_a_status_keeps_its_tallest_height_and_a_new_status_has_its_own():
    app = OneBox()
    async with app.run_test(size=(80, 40)) as pilot:
        box = app.query_one(VerdictBox)

        async def shows(v: Verdict, rows: int, what: str) -> None:
            """The box, without a border here, is as tall as the rows of text it keeps."""
            box.show(v, False, LABELS, step=8)
            await until(pilot, lambda: box.size.height == rows, what, seen=lambda: box.size.height)

        await shows(verdict(Status.FAIL, 6), 7, "the failing verdict's 7 rows")
        await shows(verdict(Status.FAIL, 1), 7, "a shorter failing verdict in the tallest one's rows")
        await shows(verdict(Status.PASS, 1), 2, "the pass in its own two rows")
        await shows(verdict(Status.PASS, 3), 4, "a taller pass growing the box")
        await shows(verdict(Status.PASS, 0), 4, "a shorter pass keeping the taller pass's rows")
        box.show(verdict(Status.PASS, 0), False, LABELS, step=1)
        await until(pilot, lambda: box.size.height == 1, "another step's verdict in its own row",
                    seen=lambda: box.size.height)
