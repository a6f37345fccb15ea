"""Notices cover no pane's text. They have a line of their own under the header, on a layer of its
own over the row of the panes' top borders: it covers no row of a pane's text and no bottom
border, no toast floats over the panes, its coming and going moves no pane, no Korean character
of it is cut in two where the panes beneath meet, and what does not fit the line ends in "…"
with no character cut in two. A long warning or the demo's last words are kept whole in
the lab check panel. At 60x20, 80x24 and 100x30, in both languages, at the demo's end and with
a progress file that cannot be used."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from textual.errors import NoWidget

from tests.ui.harness import empty_recording, make_app
from tests.ui.screen_text import notices_read, screen_lines
from tests.ui.settle import settled, until
from tutor.cluster.source_events import ShowStep
from tutor.demo import END_BODY, END_TITLE
from tutor.ui.widgets.notice_bar import clear_of_edges, notice_text
from tutor.i18n.bilingual import say

PANES = ("#status", "#doctor", "#steps", "#lesson", "#verdict", "#groups", "#ledger", "#pods", "#events", "Footer")


async def _laid_out(pilot) -> None:
    """Until the notice line has its row: the layout that gives it one runs a few frames after the
    notice came, later on a loaded machine than a fixed pause allows."""
    bar = pilot.app.query_one("#notices")
    await until(pilot, lambda: bar.display and bar.region.height, "the notices' line laid out",
                seen=lambda: (bar.display, bar.region))
    await pilot.pause()


def _assert_on_its_own_line(app) -> None:
    from textual.widgets._toast import Toast

    assert not list(app.screen.query(Toast))
    bar = app.query_one("#notices")
    assert bar.display and bar.region.height == 1
    for selector in PANES:
        for pane in app.query(selector):
            if pane.display and pane.region.area:
                hidden = pane.region.intersection(bar.region)
                # the row of a pane's top border at most, where its title is: never its text
                assert not hidden.area or (hidden.y == pane.region.y and pane.styles.border_top[0] not in ("", "none")), \
                    (selector, pane.region, bar.region)
    line = notices_read(app)
    whole = " · ".join(notice_text(n) for n in reversed(list(app.notices)))  # newest first
    shown = line.rstrip("…").rstrip()
    assert whole.startswith(shown) and shown, (line, whole)  # every character up to the cut, none split
    assert cell_len(line) <= app.size.width


SIZES = [(60, 20), (80, 24), (100, 30)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["ko", "en"])
async def test_the_demos_last_words_cover_no_pane(size, lang, tmp_path):
    app = make_app(empty_recording(tmp_path), lang=lang, state_file=tmp_path / "p.json")
    async with app.run_test(size=size, notifications=True) as pilot:
        await settled(pilot)  # the empty replay over: nothing of its own redraws the line after the demo's end
        app.driver.show_step(ShowStep(8, 0.0, END_TITLE, END_BODY))  # as the demo ends
        app.passed([8])  # two notices at once
        await _laid_out(pilot)
        _assert_on_its_own_line(app)
        whole = f"{say(app.lang, *END_TITLE)}: {say(app.lang, *END_BODY)}"
        if cell_len(whole) > size[0] - 2:  # not on the line whole: whole in the panel
            panel = "".join(screen_lines(app)[r] for r in range(app.query_one("#doctor").region.y,
                                                                 app.query_one("#doctor").region.bottom))
            assert "tmux split-window" in panel.replace(" ", "").replace("│", "") or \
                "tmuxsplit-window" in panel.replace(" ", "").replace("│", ""), panel


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("problem", ["directory", "corrupt"])
async def test_a_progress_file_problem_covers_no_pane(size, lang, problem, tmp_path):
    state = tmp_path / "state" / "lwstutor" / "replay-empty.json"  # the replay's own progress file
    if problem == "directory":
        state.mkdir(parents=True)
    else:
        state.parent.mkdir(parents=True)
        state.write_text("{not json")
    app = make_app(empty_recording(tmp_path), lang=lang)
    async with app.run_test(size=size, notifications=True) as pilot:
        await _laid_out(pilot)
        assert app.session.progress.notice
        _assert_on_its_own_line(app)
        assert app.query_one("#doctor").display  # the whole of it, where x hides it
        await pilot.press("escape")
        await until(pilot, lambda: not app.query_one("#notices").display, "esc to hide the notices' line")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_a_notice_coming_and_going_moves_no_pane(size, tmp_path):
    """The line lies over the panes: a notice that comes or goes lays out no pane again, so the
    frame that shows a pass (its notice with it) draws no pane again for it. Nor does it change
    any widget's place in the order the screen is painted in: a widget whose place there changed
    is drawn again whole, as one that moved (Textual's map, read through Screen.find_widget)."""
    app = make_app(empty_recording(tmp_path), lang="ko", state_file=tmp_path / "p.json")
    async with app.run_test(size=size, notifications=True) as pilot:
        await settled(pilot)

        def regions() -> dict:
            placed = {s: p.region for s in PANES for p in app.query(s) if p.display}
            bar = app.query_one("#notices")
            for widget in app.screen.walk_children():
                if widget is not bar and bar not in widget.ancestors:
                    try:
                        placed[widget] = app.screen.find_widget(widget).order
                    except NoWidget:  # hidden
                        pass
            return placed

        before = regions()
        app.passed([1])
        await _laid_out(pilot)
        assert regions() == before
        _assert_on_its_own_line(app)
        await pilot.press("escape")
        await until(pilot, lambda: not app.query_one("#notices").display, "esc to hide the notices' line")
        await pilot.pause()
        assert regions() == before


@pytest.mark.parametrize("start", [0, 1, 2])
@pytest.mark.parametrize("text", ["✓ 1단계 통과: 정리는 설명 끝에 · s로 풀이와 비교",
                                  "진행 상황을 ~/p.json에 저장하지 못했습니다: 디스크 공간이 없습니다.",
                                  "ab가나다라마바사아자차카타파하가나다라마바사아자차카타파하"])
def test_no_wide_character_stands_across_an_edge(text, start):
    """Whatever column an edge is at, the line moves the word on, a cell, and keeps every word."""
    from rich.cells import cell_len
    from rich.text import Text

    for edge in range(start + 1, start + cell_len(text) + 1):
        line = clear_of_edges(Text(text), start, {edge})
        assert line.plain.split() == text.split(), (edge, line.plain)
        col = start
        for char in line.plain:
            assert not (cell_len(char) == 2 and col + 1 == edge), (edge, line.plain)
            col += cell_len(char)
