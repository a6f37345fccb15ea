"""A real tutor (built from its command line as `lwstutor --replay FILE --speed 0 --join URL
--name NAME` builds it, run under Pilot) reports to the class server process: once the replay is
over, the class state holds each step as the tutor judged it, and the header says where the tutor
reports."""

from __future__ import annotations

import asyncio
import shlex

import pytest

from tests import waits
from tests.classroom.class_server import ClassServer
from tests.conftest import RECORDINGS, WALKTHROUGH
from tests.ui.settle import settled, until
from tutor.cli import build_parser
from tutor.commands.tui import tui_app
from tutor.ui.widgets.status_bar import StatusBar

FAILING = RECORDINGS / "names-swapped.jsonl"

pytestmark = pytest.mark.ui  # the tutor under Pilot


def expected(app) -> dict[str, tuple[str, str]]:
    s = app.session
    return {str(n): ("pass", str(s.progress.passed[n]["message"])) if n in s.progress.passed
            else (s.verdicts[n].status.value, s.verdicts[n].message) for n in s.verdicts}


@pytest.mark.parametrize("recording", [WALKTHROUGH, FAILING], ids=lambda p: p.stem)
async def test_the_class_sees_each_step_as_the_tutor_judged_it(recording, server, tmp_path, monkeypatch):
    assert recording.exists()
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))  # where the tutor keeps its class key
    args = build_parser().parse_args(["--replay", str(recording), "--speed", "0", "--lang", "en", "--state-file",
                                      str(tmp_path / "p.json"), "--join", server.join_url, "--name", "ana"])
    app = tui_app(args)
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        want = expected(app)
        assert want and ("pass" in {s for s, _ in want.values()})
        header = str(app.lesson.query_one(StatusBar).render())
        assert f"reporting to 127.0.0.1:{server.port}" in header, header

        async def seen() -> dict:
            learners = await asyncio.to_thread(server.learners)
            return {n: (s["status"], s["message"]) for n, s in learners.get("ana", {}).get("steps", {}).items()}

        got: dict = {}
        for _ in range(int(waits.REPLAY / waits.STEP)):
            got = await seen()
            if got == want:
                break
            await pilot.pause(waits.STEP * 4)
        assert got == want
        learner = (await asyncio.to_thread(server.learners))["ana"]
        assert (learner["lesson"], learner["current"]) == (app.session.lesson.id, app.session.progress.current)


def test_each_served_tab_joins_under_the_name_given(tmp_path):
    """`lwstutor serve --join URL --name NAME`: every tab's tutor is given both."""
    from tutor.commands.serve import tutor_command

    url = "http://192.0.2.10:8001/c/abcdefghijklmnopqrstuvwx"
    args = build_parser().parse_args(["serve", "--replay", "r.jsonl", "--join", url, "--name", "ana kim"])
    argv = shlex.split(tutor_command(args, "en"))
    assert argv[argv.index("--join") + 1] == url and argv[argv.index("--name") + 1] == "ana kim"


@pytest.mark.parametrize("argv, said", [
    (["--name", "ana"], "--name goes with --join"),
    (["--join", "http://192.0.2.10:8001/i/abcdefghijklmnopqrstuvwx"], "--join http://192.0.2.10:8001/i/"),  # the instructor's
    (["--join", "192.0.2.10:8001/c/abcdefghijklmnopqrstuvwx"], "give the learners' address"),
    (["--join", "http://192.0.2.10:8001/c/abcdefghijklmnopqrstuvwx", "--name", "a\tb"], "--name a\tb: "),
])
def test_a_wrong_join_is_refused_before_the_tutor_starts(argv, said, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    from tutor.cli import main

    assert main(["--replay", str(WALKTHROUGH), "--lang", "en", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("lwstutor: ") and said in err, err


@pytest.mark.parametrize("lang, header, said", [
    ("en", "refused", "another learner has joined under this name"),
    ("ko", "거절", "다른 학습자가 이미 이 이름으로 참여했습니다"),
])
async def test_a_name_taken_is_told_to_the_learner_in_their_language(lang, header, said, server, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    await asyncio.to_thread(server.join, "ana")  # another tutor has the name
    args = build_parser().parse_args(["--replay", str(WALKTHROUGH), "--speed", "0", "--lang", lang, "--state-file",
                                      str(tmp_path / "p.json"), "--join", server.join_url, "--name", "ana"])
    app = tui_app(args)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: header in str(app.lesson.query_one(StatusBar).render()), "the header to say so",
                    waits.PROCESS, seen=lambda: str(app.lesson.query_one(StatusBar).render()))
        assert any(said in n.message for n in app.notices), [n.message for n in app.notices]
    assert list(await asyncio.to_thread(server.learners)) == ["ana"]  # and the class has still one ana


async def test_a_tutor_whose_class_went_away_reports_once_it_is_back(server, tmp_path, monkeypatch):
    """The server killed before the tutor starts: the tutor runs as ever, says the class is away,
    and once the server is back on its port every step arrives as the tutor judged it."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    server.kill()
    args = build_parser().parse_args(["--replay", str(FAILING), "--speed", "0", "--lang", "en", "--state-file",
                                      str(tmp_path / "p.json"), "--join", server.join_url, "--name", "ana"])
    app = tui_app(args)
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)  # the replay ran to its end, checked and drawn, with no class to send to

        def header() -> str:
            return str(app.lesson.query_one(StatusBar).render())

        await until(pilot, lambda: "away: queued" in header(), "the header to say the class is away", waits.PROCESS,
                    seen=header)
        want = expected(app)
        again = ClassServer(server.db, server.port).start()
        try:
            got: dict = {}
            for _ in range(int(waits.REPLAY / waits.STEP)):
                learners = await asyncio.to_thread(again.learners)
                got = {n: (s["status"], s["message"]) for n, s in learners.get("ana", {}).get("steps", {}).items()}
                if got == want:
                    break
                await pilot.pause(waits.STEP * 4)
            assert got == want
            await until(pilot, lambda: "reporting to" in header(), "the header to say it reports again", seen=header)
        finally:
            again.kill()
