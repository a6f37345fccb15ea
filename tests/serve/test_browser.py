"""`lwstutor serve` in a real headless Chromium: the tutor in a tab, its keys, a reload, the
token, the cap and a path prefix behind a proxy."""

from __future__ import annotations

import json
import os
import re
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests import waits
from tests.ports import free_port
from tutor.lesson.loader import load
from tutor.i18n import serving
from tutor.i18n.bilingual import pick

pytestmark = pytest.mark.browser

LESSON = load()
SHOTS = Path(__file__).resolve().parents[2] / "screenshots"


def on_step(tab, n: int, timeout: float = waits.PROCESS) -> str:
    """Waits until the lesson pane shows step n's heading ("2. The name is ..."), and returns the
    screen. The step list names every step too, but after a mark (✓, ✗, ·); the heading stands
    alone after the pane's border."""
    heading = re.compile(rf"│ +{n}\. {re.escape(LESSON.step(n).title('en'))}")
    deadline = time.monotonic() + timeout
    while True:
        screen = tab.read()
        if heading.search(screen):
            return screen
        if time.monotonic() > deadline:
            raise waits.ran_out(f"step {n}'s heading on the screen", timeout, screen)
        time.sleep(0.2)


def settled(path: Path, quiet: float = 2.0, timeout: float = waits.MOMENT) -> str:
    """The file's text once it has not changed for `quiet` seconds."""
    deadline = time.monotonic() + timeout
    last, since = path.read_text(), time.monotonic()
    while time.monotonic() - since < quiet:
        if time.monotonic() > deadline:
            raise AssertionError(f"{path} still changed after {timeout} s")
        time.sleep(0.2)
        now = path.read_text()
        if now != last:
            last, since = now, time.monotonic()
    return last


def hint_heading(step: int, i: int) -> str:
    return f"Hint {i} of {len(LESSON.step(step).text('en').hints)}"


def tutor_processes(served) -> list[int]:
    """The tutors running under the server: `python -P -m tutor.served_tab ...`, one per tab."""
    found = []
    for pid in served.tutors():
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"-m" in argv and b"tutor.served_tab" in argv and not argv[0].endswith(b"sh"):
            found.append(pid)
    return found


def test_a_tab_shows_the_step_takes_keys_and_a_reload_resumes(serve, tabs):
    served = serve()
    tab = tabs()
    assert tab.open(f"{served.url}/?token={served.token}").status == 200
    tab.wait_started()
    on_step(tab, 1)

    tab.press("n")
    on_step(tab, 2)
    tab.press("h")
    tab.wait_for(hint_heading(2, 1))
    tab.page.screenshot(path=str(SHOTS / "serve-chromium-en.png") if os.environ.get("LWSTUTOR_SCREENSHOTS")
                        else str(served.state.parent / "tab.png"))

    saved = json.loads(served.state.read_text())
    assert saved["current"] == 2 and saved["hints"] == {"2": 1}

    tab.reload()
    tab.wait_started()
    on_step(tab, 2)  # the new tutor process starts where the learner was
    tab.press("h")
    tab.wait_for(hint_heading(2, 2))  # and knows the first hint was shown

    off_machine = {urlsplit(u).hostname for u in tab.requests} - {"127.0.0.1"}
    assert not off_machine, f"the page fetched from off the machine: {off_machine}"


def test_two_tabs_share_one_progress_file_and_leave_it_whole(serve, tabs):
    served = serve()
    a, b = tabs(), tabs()
    for tab in (a, b):
        tab.open(f"{served.url}/?token={served.token}")
        tab.wait_started()
        on_step(tab, 1)
    assert len(tutor_processes(served)) == 2  # one tutor per tab
    a.press("n")
    on_step(a, 2)
    for _ in range(2):
        b.press("n")
    on_step(b, 3)
    a.press("h")
    a.wait_for(hint_heading(2, 1))
    # Each tutor saves on its own keys and on its replay's passes too, so the last writer is
    # whichever tab saved last: read the file once both have stopped saving.
    saved = json.loads(settled(served.state))  # whole JSON: each save replaces the file at once
    assert saved["version"] == 1 and saved["current"] in (2, 3)

    c = tabs()
    c.open(f"{served.url}/?token={served.token}")
    c.wait_started()
    on_step(c, saved["current"])  # a new tab resumes from the file as it is


def test_a_wrong_or_missing_token_starts_no_tutor(serve, tabs):
    served = serve()
    tab = tabs()
    for url in (f"{served.url}/?token=not-{served.token}", f"{served.url}/"):
        response = tab.open(url)
        assert response.status == 403
        assert pick(serving.NO_TOKEN, "en") in tab.page.inner_text("#notice")
    # The websocket that would start a tutor, asked for without the token: refused before the upgrade.
    request = urllib.request.Request(f"{served.url}/ws?width=80&height=24",
                                     headers={"Connection": "Upgrade", "Upgrade": "websocket",
                                              "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 403
    waits.still_sync(lambda: tutor_processes(served) == [], "no tutor started", spell=1)
    assert tutor_processes(served) == []


def test_the_session_cap_says_so_and_frees_a_place_when_a_tab_closes(serve, tabs):
    served = serve("--max-sessions", "1")
    a, b = tabs(), tabs()
    a.open(f"{served.url}/?token={served.token}")
    a.wait_started()
    on_step(a, 1)

    b.open(f"{served.url}/?token={served.token}")
    b.page.wait_for_selector("#full-text", state="visible", timeout=waits.PROCESS * 1000)  # after the server's wait for a place
    assert b.page.inner_text("#full-text") == pick(serving.FULL, "en", cap=1)
    assert len(tutor_processes(served)) == 1

    a.page.close()  # its websocket closes, its tutor quits, its place frees up
    assert b.reload().status == 200
    b.wait_started()
    on_step(b, 1)

    # A reload at the cap: the new page waits for the place its own old tutor leaves.
    assert b.reload().status == 200
    b.wait_started()
    on_step(b, 1)
    assert len(tutor_processes(served)) == 1


@pytest.mark.parametrize("keep_prefix", [False, True], ids=["proxy-strips-prefix", "proxy-keeps-prefix"])
def test_behind_a_proxy_under_a_path_prefix(serve, tabs, proxy, keep_prefix):
    port = free_port()
    front = proxy(f"http://127.0.0.1:{port}", "/lab/tutor", keep_prefix)
    public = f"http://127.0.0.1:{front}/lab/tutor"
    served = serve("--port", str(port), "--public-url", public)
    assert served.url == public  # the address it prints is the one browsers use

    tab = tabs()
    assert tab.open(f"{public}/?token={served.token}").status == 200
    tab.wait_started()
    on_step(tab, 1)
    tab.press("n")
    on_step(tab, 2)
    went = {urlsplit(u).port for u in tab.requests if urlsplit(u).scheme.startswith("http")}
    assert went == {front}, f"the page went around the proxy: {went}"
    assert all(urlsplit(u).path.startswith("/lab/tutor/") for u in tab.requests)


def test_the_prefix_without_its_slash_is_sent_to_it(serve):
    port = free_port()
    served = serve("--port", str(port), "--public-url", f"http://127.0.0.1:{port}/lab/tutor")
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/lab/tutor?token={served.token}", timeout=10) as page:
        assert page.status == 200 and page.url.endswith("/lab/tutor/?token=" + served.token)
        assert re.search(r'<base href="http://127\.0\.0\.1:\d+/lab/tutor/">', page.read().decode())
