"""The lesson follows --workdir: its instructions, hints, solutions and commands name the files
the tutor checks, not the lab's default directory."""

from __future__ import annotations

from functools import partial

from tests.conftest import WALKTHROUGH
from tests.ui.settle import settled
from tutor.cli import build_parser
from tutor.commands.setup import lesson_for, progress_for, session_for
from tutor.commands.tui import start_replay
from tutor.ui.app import TutorApp


async def test_instructions_and_hints_name_the_workdir_in_use(tmp_path):
    workdir = tmp_path / "my answers"
    workdir.mkdir()
    args = build_parser().parse_args(["--replay", str(WALKTHROUGH), "--speed", "0", "--lang", "en",
                                      "--workdir", str(workdir), "--state-file", str(tmp_path / "p.json")])
    session = session_for(args, progress_for(args, lesson_for(args), replay=True))
    app = TutorApp(session, context="replay", replay=True,
                   start_sources=partial(start_replay, args._recording, 0, use_files=False, poll=False))
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        for n in (1, 5):
            app.lesson.action_goto(n)
            for _ in app.session.lesson.step(n).text("en").hints:
                await pilot.press("h")
            app.session.progress.show_solution(n)
            md = app.page.markdown(n)
            assert f"{workdir}/" in md.split("### Solution")[1] and "/root/gsb-lws" not in md, md[:400]
        assert app.session.verdicts[1].message.startswith(f"{workdir}/lws.yaml")  # the verdict names the same place
