"""The instructor's view in a browser, as the server process answers it: the grid as one page
with no script, every learner's word escaped, in English or Korean; sorted and filtered by its
links, and a learner's verdicts behind their name's link."""

from __future__ import annotations

import html as html_text
import re
import urllib.error
import urllib.request

import pytest

from tests import waits
from tutor.classroom.grid import STUCK_S


def get(url: str) -> tuple[int, dict, str]:
    try:
        with urllib.request.urlopen(url, timeout=waits.PROCESS) as resp:
            return resp.status, dict(resp.headers), resp.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read().decode()


def step(n: int, status: str, message: str = "", seconds: float = 1.0) -> dict:
    return {"step": n, "status": status, "message": message, "hints": 0, "predictions": 0, "seconds": seconds}


@pytest.fixture
def classful(server):
    for name, steps in (("<b>ana</b>", [step(1, "pass"), step(2, "fail", "<img src=x> labels swapped", STUCK_S + 1)]),
                        ("bo", [step(1, "pass"), step(2, "fail", "<img src=x> labels swapped")])):
        learner, key = server.join(name)
        assert server.post("report", {"learner": learner, "lesson": "lws", "current": 2, "steps": steps}, key)[0] == 200
    return server


def test_the_page_shows_the_grid_and_runs_nothing(classful):
    code, headers, html = get(classful.instructor_url)
    assert code == 200 and headers["Content-Type"].startswith("text/html")
    assert headers["Content-Security-Policy"] == "default-src 'none'; style-src 'unsafe-inline'"
    assert "<script" not in html and "<img" not in html and "<b>" not in html  # the learners' words are text
    assert re.search(r'⚠ <a href="[^"]+">&lt;b&gt;ana&lt;/b&gt;</a>', html) and 'class="stuck"' in html
    assert "step 2: 2 fail with: &lt;img src=x&gt; labels swapped" in html
    assert "1:2/2 2:0/2" in html and "2 learners" in html


def test_the_page_in_korean(classful):
    code, _, html = get(classful.instructor_url + "/?lang=ko")
    assert code == 200 and '<html lang="ko">' in html and "학습자 2명" in html and "2단계: 2명 실패" in html


def test_the_page_needs_the_instructors_token(classful):
    assert get(classful.join_url.replace("/c/", "/i/"))[0] == 401  # the learners' token is not it


def links(html: str) -> dict[str, str]:
    """Each link's text (tags left out) and where it goes, as the browser reads them."""
    return {html_text.unescape(re.sub("<[^>]+>", "", text)): html_text.unescape(href)
            for href, text in re.findall(r'<a href="([^"]*)">(.*?)</a>', html)}


def names(html: str) -> list[str]:
    """The grid's learners, top to bottom."""
    return [html_text.unescape(n) for n in re.findall(r'<tr[^>]*><td>(?:⚠ )?<a href="[^"]*">(.*?)</a>', html)]


def test_a_learners_name_links_to_their_verdicts_escaped(classful):
    ana = links(get(classful.instructor_url)[2])["<b>ana</b>"]
    learner_id = classful.learners()["<b>ana</b>"]["id"]
    assert ana == f"?learner={learner_id}"  # relative: the token stays in the address's path
    code, _, html = get(classful.instructor_url + ana)
    assert code == 200 and "<script" not in html and "<img" not in html and "<b>" not in html
    assert "&lt;b&gt;ana&lt;/b&gt; │ lws │ on step 2 │ 1 passed" in html
    assert re.search(r'<td>2</td><td class="fail">✗ failing</td><td class="message">&lt;img src=x&gt; labels swapped'
                     r'</td><td>0</td><td>0</td><td>10:01</td>', html), html
    assert links(html)["← the class"] == "?"  # back to the grid
    by_name = get(classful.instructor_url + "?learner=bo&lang=ko")  # a name will do too
    assert by_name[0] == 200 and "bo │ lws │ 2단계 │ 1개 통과" in by_name[2] and "✗ 실패" in by_name[2]


def test_a_learner_not_in_the_class_is_said(classful):
    code, _, html = get(classful.instructor_url + "?learner=%3Ci%3Ezed")
    assert code == 404 and "&lt;i&gt;zed: no such learner in the class." in html and "<i>" not in html


def test_the_sort_and_filter_links_order_and_choose_the_learners(classful):
    for name, current, steps in (("Abe", 3, [step(1, "pass"), step(2, "pass"), step(3, "fail", "no", STUCK_S + 99)]),
                                 ("cy", 2, [step(1, "pass"), step(2, "waiting")])):
        learner, key = classful.join(name)
        assert classful.post("report", {"learner": learner, "lesson": "lws", "current": current, "steps": steps},
                             key)[0] == 200
    html = get(classful.instructor_url)[2]
    assert names(html) == ["<b>ana</b>", "Abe", "bo", "cy"]  # by name (the default, not a link)
    assert '<span class="chosen">by name</span>' in html and '<span class="chosen">everyone</span>' in html
    assert links(html)["by progress"] == "?sort=progress"
    by_progress = get(classful.instructor_url + links(html)["by progress"])[2]
    assert names(by_progress) == ["<b>ana</b>", "bo", "cy", "Abe"]  # fewest passed first
    by_time = get(classful.instructor_url + links(html)["by time"])[2]
    assert names(by_time) == ["Abe", "<b>ana</b>", "bo", "cy"]  # longest on their step first
    stuck = links(by_time)["stuck/failing"]
    assert stuck == "?sort=time&only=stuck"  # the order kept
    assert names(get(classful.instructor_url + stuck)[2]) == ["Abe", "<b>ana</b>", "bo"]  # cy fails nothing
    assert names(get(classful.instructor_url + "?only=away")[2]) == []
    korean = get(classful.instructor_url + "?lang=ko&sort=progress&only=stuck")[2]
    assert links(korean)["English"] == "?sort=progress&only=stuck" and "진도 느린 순" in korean
    assert links(korean)["bo"].startswith("?lang=ko&sort=progress&only=stuck&learner=")  # the view goes along
    assert names(get(classful.instructor_url + "?sort=<b>&only=x")[2]) == names(html)  # unknown: the default
