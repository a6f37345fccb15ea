"""`lwstutor serve` without a browser: its errors, the command each tab runs, the gate."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from types import SimpleNamespace

import pytest

from tests import waits
from tests.serve.conftest import RECORDING, REPO
from tutor.commands.serve import tutor_command
from tutor.i18n import serving
from tutor.serve.gate import Gate
from tutor.i18n.bilingual import pick


def serve(*argv: str, tmp) -> subprocess.CompletedProcess:
    env = {**os.environ, "XDG_STATE_HOME": str(tmp)}
    return subprocess.run([sys.executable, "-m", "tutor", "serve", "--replay", str(RECORDING), *argv], cwd=REPO,
                          env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=waits.PROCESS)


@pytest.mark.parametrize("lang, said", [("en", "is already in use"), ("ko", "이미 쓰이고 있습니다")])
def test_a_port_in_use_is_one_line_in_the_learners_language(tmp_path, lang, said):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = serve("--port", str(port), "--lang", lang, tmp=tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"lwstutor: --port {port}: ") and said in lines[0], done.stderr


@pytest.mark.parametrize("argv, said", [
    (("--public-url", "lab.example/tutor"), "--public-url lab.example/tutor: "),
    (("--max-sessions", "0"), "--max-sessions 0: "),
    (("--port", "70000"), "--port 70000: "),
    (("--port", "eighty"), "'eighty'"),
])
def test_bad_options_are_refused_before_serving(tmp_path, argv, said):
    done = serve(*argv, "--lang", "ko", tmp=tmp_path)
    assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr
    assert done.stderr.startswith("lwstutor: ")


def test_each_tab_runs_the_tutor_with_the_options_given(tmp_path):
    args = SimpleNamespace(lesson="lws", kubeconfig=f"a.yaml{os.pathsep}~/b.yaml", context="lab", namespace="infer",
                           workdir="work", replay=None, speed=1.0, poll=True, state_file="p.json")
    argv = tutor_command(args, "ko", "failed.json").split()
    assert argv[:8] == [sys.executable, "-P", "-m", "tutor.served_tab", "--failure-file", "failed.json",
                        "--lang", "ko"]
    rest = argv[8:]
    assert "--poll" in rest
    rest.remove("--poll")
    given = dict(zip(rest[::2], rest[1::2]))
    assert given["--lesson"] == "lws" and given["--context"] == "lab" and given["--namespace"] == "infer"
    assert given["--workdir"] == os.path.abspath("work") and given["--state-file"] == os.path.abspath("p.json")
    assert given["--kubeconfig"] == os.pathsep.join([os.path.abspath("a.yaml"), os.path.expanduser("~/b.yaml")])
    assert "--replay" not in given


def test_the_gate_knows_its_token_only():
    gate = Gate(2)
    assert gate.shown({"token": gate.token}, {})
    assert gate.shown({}, {gate.cookie: gate.token})
    assert not gate.shown({"token": gate.token[:-1]}, {})
    assert not gate.shown({}, {"lwstutor-other": gate.token})
    assert not gate.shown({"token": ""}, {gate.cookie: ""})


async def test_the_cap_waits_for_a_place_then_refuses():
    gate = Gate(1)
    assert await gate.enter(wait=0)
    assert not await gate.enter(wait=0.3)
    asyncio.get_running_loop().call_later(0.2, gate.leave)
    assert await gate.enter(wait=2)  # a tab that reloads finds the place its old tutor left
    assert gate.sessions == 1


def test_refusals_are_in_the_servers_language(tmp_path):
    from tests.serve.conftest import Served

    served = Served(tmp_path, lang="ko")
    try:
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{served.url}/?token=wrong", timeout=10)
        assert refused.value.code == 403
        assert pick(serving.NO_TOKEN, "ko") in refused.value.read().decode()
        assert "브라우저에서 이 주소를 여세요" in served.said
    finally:
        served.stop()
