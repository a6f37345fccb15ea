"""A served tutor that cannot start: its tab says why in the learner's language, with a reload
button, and the server says it in one line, never a traceback. The failure is one serve's own
checks passed: the --state-file it checked becomes a directory after the server started."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests import waits
from tests.serve.conftest import RECORDING
from tutor import served_tab as child
from tutor.i18n import serving
from tutor.i18n.bilingual import pick

GANGLION_EXIT = b'__GANGLION__\nM\x00\x00\x00\x10{"type": "exit"}'
IS_A_DIRECTORY = {"en": "is a directory", "ko": "디렉터리입니다"}


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_tutor_that_cannot_start_says_why_in_the_tab_and_once_on_the_server(serve, tabs, lang):
    served = serve(lang=lang)
    served.state.mkdir()  # serve checked the file; the tutor of each tab finds a directory
    tab = tabs()
    tab.open(f"{served.url}/?token={served.token}")
    tab.page.wait_for_selector("#failed", state="visible", timeout=waits.PROCESS * 1000)
    shown = tab.page.inner_text("#failed")
    reason = tab.page.inner_text("#failed-reason")
    assert pick(serving.FAILED, lang) in shown and pick(serving.FAILED_NEXT, lang) in shown
    assert f"--state-file {served.state}: " in reason and IS_A_DIRECTORY[lang] in reason, reason
    assert pick(serving.RELOAD, lang) in shown and tab.page.is_visible("#failed button")
    assert not tab.page.is_visible("#ended") and not tab.page.is_visible("#full")
    assert not tab.page.evaluate("document.body.classList.contains('-first-byte')")
    if lang == "en":  # fixed, a reload starts the tutor, and the page no longer gives the old reason
        served.state.rmdir()
        tab.reload()
        tab.wait_started()
        tab.wait_for("LeaderWorkerSet")
        status = tab.page.evaluate("fetch('status').then(r => r.json())")
        assert status["failed"] == "", status
    out = served.stop()
    about = [line for line in out.splitlines() if str(served.state) in line]
    assert about == [pick(serving.TUTOR_FAILED, lang, reason=reason)], out[-3000:]
    assert "Traceback" not in out and "failed to start" not in out, out[-3000:]


def run_child(tmp_path, *argv: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "TEXTUAL_DRIVER": child.WEB_DRIVER, "XDG_STATE_HOME": str(tmp_path / "state")}
    return subprocess.run([sys.executable, "-P", "-m", "tutor.served_tab", "--failure-file",
                           str(tmp_path / "failed.json"), *argv], cwd=tmp_path, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=waits.PROCESS)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_child_says_a_failure_before_the_first_frame_in_one_line(tmp_path, lang):
    missing = tmp_path / "gone.jsonl"
    done = run_child(tmp_path, "--lang", lang, "--replay", str(missing))
    err = done.stderr.decode()
    assert done.returncode == 2
    assert err.count("\n") == 1 and "Traceback" not in err, err
    reason = json.loads((tmp_path / "failed.json").read_text(encoding="utf-8"))["reason"]
    assert reason.startswith(f"--replay {missing}: ")
    assert err == pick(serving.TUTOR_FAILED, lang, reason=reason) + "\n"
    # textual-serve is told the session began and ended: it closes the tab's websocket at once
    assert done.stdout == GANGLION_EXIT


def test_an_argument_the_tutor_refuses_is_one_line_too(tmp_path):
    done = run_child(tmp_path, "--lang", "ko", "--replay", str(RECORDING), "--speed", "fast")
    err = done.stderr.decode()
    assert done.returncode == 2 and err.count("\n") == 1 and "--speed" in err, err
    assert err.startswith(pick(serving.TUTOR_FAILED, "ko", reason=""))


def test_an_unexpected_error_is_one_line_with_its_type_and_message(tmp_path, monkeypatch, capfd):
    import tutor.commands.tui

    def broken(args):
        raise RuntimeError("the lesson broke\non two lines")

    monkeypatch.setattr(tutor.commands.tui, "run_tui", broken)
    monkeypatch.delenv("TEXTUAL_DRIVER", raising=False)  # a terminal: nothing for textual-serve on stdout
    failure_file = tmp_path / "failed.json"
    code = child.main([child.FAILURE_FLAG, str(failure_file), "--lang", "ko", "--replay", str(RECORDING),
                       "--state-file", str(tmp_path / "p.json")])
    out, err = capfd.readouterr()
    assert code == 1 and out == ""
    reason = pick(serving.UNEXPECTED, "ko", error="RuntimeError: the lesson broke on two lines")
    assert err == pick(serving.TUTOR_FAILED, "ko", reason=reason) + "\n"
    assert json.loads(failure_file.read_text(encoding="utf-8")) == {"reason": reason}

