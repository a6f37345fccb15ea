"""Every command on a cluster that is not there, refuses, forbids or cannot be trusted, on the real
lab control plane: one line that names what failed and why, exit 2 (JSON with --json), no
traceback, bounded time, nothing written. The TUI says "cannot reach …" until it has had data.

The failures are the real ones: a user the API server knows but RBAC grants nothing (403); a
client certificate from a CA the server does not trust (401); a CA that did not sign the
server's certificate (TLS); a loopback port that accepts and never answers (timeout); and the
lab's own kube-apiserver killed (refused). DNS is not among them: a failed lookup would ask
the machine's resolver, off this machine; tests/test_failure.py covers that kind.
"""

from __future__ import annotations

import json
import socket
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

import pytest
import yaml

from tests import waits
from tests.e2e.labcluster.lab import LOOPBACK, running_lab, user_kubeconfig
from tests.e2e.labcluster.pki import make_pki
from tests.e2e.live_tui import header, live_app, until
from tests.hostile_cli import assert_one_line_error, lwstutor, picture

# (argv, takes --json)
COMMANDS = {
    "check": (["check"], True),
    "why": (["why", "llm-0"], True),
    "record": (["record", "{OUT}", "--duration", "20"], False),
}


@pytest.fixture(scope="module")
def lab():
    """Its own lab: the last test kills its API server. KWOK-only: the failures are the control
    plane's, not a container's."""
    with running_lab(node="kwok") as the_lab:
        yield the_lab


def _kubeconfig(lab, path: Path, *, server: str | None = None, ca: Path | None = None,
                crt: Path | None = None, key: Path | None = None) -> Path:
    cfg = yaml.safe_load(lab.kubeconfig.read_text())
    cluster, user = cfg["clusters"][0]["cluster"], cfg["users"][0]["user"]
    cluster["server"] = server or cluster["server"]
    cluster["certificate-authority"] = str(ca or cluster["certificate-authority"])
    user["client-certificate"], user["client-key"] = str(crt or user["client-certificate"]), str(key or user["client-key"])
    path.write_text(yaml.safe_dump(cfg))
    return path


@pytest.fixture(scope="module")
def silent_port():
    """A loopback port that accepts connections (the kernel's backlog) and never answers."""
    s = socket.socket()
    s.bind((LOOPBACK, 0))
    s.listen(64)
    yield s.getsockname()[1]
    s.close()


def _failing(lab, tmp: Path, kind: str, silent_port: int) -> Path:
    foreign = make_pki(tmp / "foreign-pki")  # a CA and an admin cert the lab never saw
    if kind == "forbidden":
        return user_kubeconfig(lab, "nobody-at-all")  # known to the server, granted nothing
    if kind == "unauthorized":
        return _kubeconfig(lab, tmp / "kc-401.yaml", crt=foreign["admin.crt"], key=foreign["admin.key"])
    if kind == "tls":
        return _kubeconfig(lab, tmp / "kc-tls.yaml", ca=foreign["ca.crt"])
    if kind == "timeout":
        return _kubeconfig(lab, tmp / "kc-silent.yaml", server=f"https://{LOOPBACK}:{silent_port}")
    raise ValueError(kind)


SAYS = {
    "forbidden": ("403 Forbidden", "forbidden"),
    "unauthorized": ("401 Unauthorized", "unauthorized"),
    "tls": ("TLS certificate is not trusted", "tls"),
    "timeout": ("timed out", "timeout"),
    "refused": ("connection refused", "refused"),
}


def _check_all(kubeconfig: Path, tmp: Path, kind: str) -> None:
    """Every command, in text and in JSON, and doctor. Run side by side: each waits out the same
    failure on its own (a silent port costs each its connect timeout), and none writes anything."""
    sandbox = tmp / "sandbox"
    sandbox.mkdir(exist_ok=True)
    out = sandbox / "rec.jsonl"
    env = {"XDG_STATE_HOME": str(tmp / "state")}
    before = picture(sandbox)
    phrase, json_kind = SAYS[kind]
    runs = []  # (argv, how its answer is checked)
    for argv, takes_json in COMMANDS.values():
        argv = [a.replace("{OUT}", str(out)) for a in argv]
        common = [*argv, "--kubeconfig", str(kubeconfig), "--workdir", str(sandbox), "--lang", "en"]
        runs.append((common, lambda run: assert_one_line_error(run, phrase)))
        if takes_json:
            runs.append(([*common, "--json"], partial(_json_error, phrase=phrase, kind=json_kind)))
    korean = {"forbidden": "거부했습니다", "unauthorized": "인증 정보", "tls": "TLS 인증서",
              "timeout": "시간 초과", "refused": "연결이 거부되었습니다"}[kind]
    runs.append((["check", "--kubeconfig", str(kubeconfig), "--lang", "ko"],
                 lambda run: assert_one_line_error(run, korean)))
    # doctor reports it and still checks the workdir, exit 2.
    runs.append((["doctor", "--kubeconfig", str(kubeconfig), "--workdir", str(sandbox), "--lang", "en", "--json"],
                 partial(_doctor_error, kind=json_kind)))
    with ThreadPoolExecutor(max_workers=len(runs)) as pool:
        done = list(pool.map(lambda r: (r[1], lwstutor(*r[0], env=env)), runs))
    for check, run in done:
        check(run)
    assert picture(sandbox) == before and not out.exists()


def _json_error(run, *, phrase: str, kind: str) -> None:
    assert_one_line_error(run, phrase, json_out=True)
    assert json.loads(run.stdout)["error"]["kind"] == kind


def _doctor_error(run, *, kind: str) -> None:
    assert run.code == 2 and "Traceback" not in run.stderr, run
    doc = json.loads(run.stdout)
    assert doc["error"]["kind"] == kind, doc["error"]
    assert {c["id"]: c["ok"] for c in doc["checks"]}["workdir"] is True


@pytest.mark.parametrize("kind", ["forbidden", "unauthorized", "tls", "timeout"])
def test_every_command_on_a_failing_cluster(lab, tmp_path, kind, silent_port):
    _check_all(_failing(lab, tmp_path, kind, silent_port), tmp_path, kind)


async def test_the_tui_on_a_stopped_api_server_says_cannot_reach_until_it_had_data(lab, tmp_path):
    """Last in this module: the lab's API server is killed, then every command is tried on it."""
    api = lab.kill("kube-apiserver")
    try:
        app = live_app(lab.kubeconfig, tmp_path, tmp_path / "progress.json")
        async with app.run_test(size=(120, 30)) as pilot:
            await until(pilot, lambda: "cannot reach" in header(app), "the header to say it cannot reach")
            assert "connection refused" in header(app) and "reconnecting" not in header(app), header(app)
            # a retry or two later: still no data, still not "reconnecting"
            await waits.still(pilot.pause, lambda: "cannot reach" in header(app) and "reconnecting" not in header(app),
                              "the header saying it cannot reach, not reconnecting", spell=2.5)
            assert "cannot reach" in header(app) and "reconnecting" not in header(app), header(app)
        _check_all(lab.kubeconfig, tmp_path, "refused")
    finally:
        lab.restart(api)
