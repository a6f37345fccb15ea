"""`lwstutor ARGS` up to its first frame, headless (run by tests.bench as a fresh process).

The CLI runs as it does for a user (tutor.cli.main with the given arguments); the only change is
that the app runs headless at 160x48 and, on Textual's Ready event (sent once the first frame
has been displayed), prints the process's CPU time so far (`cpu <seconds>`, user and system of
every thread, from the interpreter's start) and then the wall-clock time (the last line), and
leaves at once. The CPU time is the figure a busy machine barely moves: the wall clock also
counts the time other processes held the cores.

`--bare` runs a bare Textual app instead (one Static, nothing of lwstutor imported) through the
same harness: the floor Textual itself sets on this machine, which lwstutor's start is compared to.
`--widgets` runs a plain Textual app with the kinds of widget lwstutor's first frame shows (step 1's
markdown, a list of 8 steps, a footer, a few panes and containers), no lwstutor code: what those
widgets cost in Textual, apart from what lwstutor's own code adds.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

SIZE = (160, 48)


def ready() -> None:
    sys.stdout.write(f"cpu {time.process_time()!r}\n{time.time()!r}\n")
    sys.stdout.flush()
    os._exit(0)


def bare() -> None:
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    class Bare(App):
        def compose(self) -> ComposeResult:
            yield Static("lwstutor")

        def on_ready(self) -> None:
            ready()

    Bare().run(headless=True, size=SIZE)


def lwstutor(argv: list[str]) -> None:
    import tutor.commands.tui as tui

    build = tui.tui_app

    def tui_app(args):
        # Imported where the CLI imports it (inside the command), so start-up runs in its order.
        import tutor.ui.app as app_module

        class FirstFrame(app_module.TutorApp):
            CSS_PATH = str(Path(app_module.__file__).with_name("tutor.tcss"))  # relative to tutor/ui

            def on_ready(self) -> None:
                ready()

            def run(self, **kw):
                return super().run(headless=True, size=SIZE)

        app_module.TutorApp = FirstFrame
        return build(args)

    tui.tui_app = tui_app
    # Headless, it needs no terminal: named as textual-serve names its own driver (run_tui checks).
    os.environ["TEXTUAL_DRIVER"] = "textual.drivers.headless_driver:HeadlessDriver"
    from tutor.cli import main as cli_main

    sys.exit(cli_main(argv))


def same_widgets() -> None:
    from importlib import resources

    from textual.app import App, ComposeResult
    from textual.containers import Horizontal, Vertical, VerticalScroll
    from textual.widgets import Footer, Markdown, OptionList, Static

    step = resources.files("tutor.lessons").joinpath("lws", "steps", "01-create-llm.en.md").read_text("utf-8")

    class Widgets(App):
        def compose(self) -> ComposeResult:
            yield Static("status")
            with Horizontal():
                with Vertical():
                    yield OptionList(*(f"{n}. step" for n in range(1, 9)))
                    with VerticalScroll():
                        yield Markdown(step.split("\n## ")[0])  # the body, as lwstutor shows it
                    yield Static("verdict")
                with Vertical():
                    for pane in ("groups", "pods", "events"):
                        yield Static(pane)
            yield Footer()

        def on_ready(self) -> None:
            ready()

    Widgets().run(headless=True, size=SIZE)


def main() -> None:
    if sys.argv[1:] == ["--bare"]:
        bare()
    elif sys.argv[1:] == ["--widgets"]:
        same_widgets()
    else:
        lwstutor(sys.argv[1:])


if __name__ == "__main__":
    main()
