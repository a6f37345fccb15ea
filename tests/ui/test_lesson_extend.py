"""A lesson text that only grows (a passed step's recap) mounts only its new blocks, and reads as
the same text drawn afresh; a text that changes otherwise is drawn afresh."""

from __future__ import annotations

from textual.app import App
from textual.widgets import Markdown
from textual.widgets.markdown import MarkdownBlock

from tests.ui.settle import until
from tutor.ui.widgets.lesson_pane import LessonPane

STEP = ("# 1. Two groups\n\nA paragraph that runs\nover two lines.\n\n- a list\n- of two\n\n"
        "```sh\nkubectl get pods\n```")
RECAP = "\n\n### What you just saw\n\nThe recap, with `code`.\n\n- and a list"


class OnePane(App):
    def compose(self):
        yield LessonPane(id="lesson")


def _blocks(app) -> list[MarkdownBlock]:
    md = app.query_one("#lesson-md", Markdown)
    return [child for child in md.children if isinstance(child, MarkdownBlock)]


def _read(blocks) -> list[tuple[str, str]]:
    return [(type(b).__name__, b.source or "") for b in blocks]


async def _draw(pilot, markdown: str, step: int = 1) -> None:
    pane = pilot.app.query_one(LessonPane)
    pane.show(markdown, step)
    await until(pilot, lambda: pane.drawn and pane.step == step and pilot.app.query_one(Markdown).source == markdown,
                "the lesson text drawn")
    await pilot.pause()


async def _fresh(markdown: str) -> list[tuple[str, str]]:
    """The blocks of `markdown` drawn in a new pane."""
    app = OnePane()
    async with app.run_test(size=(80, 30)) as pilot:
        await _draw(pilot, markdown)
        return _read(_blocks(app))


async def test_a_recap_added_mounts_only_its_blocks_and_reads_as_drawn_afresh():
    app = OnePane()
    async with app.run_test(size=(80, 30)) as pilot:
        await _draw(pilot, STEP)
        before = _blocks(app)
        await _draw(pilot, STEP + RECAP)
        after = _blocks(app)
        assert after[:len(before)] == before, "the step's own blocks were mounted again"
        assert all(b.is_attached for b in before)
        assert len(after) > len(before)
        assert _read(after) == await _fresh(STEP + RECAP)
        pane = app.query_one(LessonPane)
        assert pane.heading("What you just saw") is not None


async def test_a_tail_that_joins_the_last_block_or_another_step_is_drawn_afresh():
    app = OnePane()
    async with app.run_test(size=(80, 30)) as pilot:
        text = "# 1. Two groups\n\nA paragraph"
        await _draw(pilot, text)
        before = _blocks(app)
        await _draw(pilot, text + " that goes on\n\nand another.")  # the tail joins the last paragraph
        assert _read(_blocks(app)) == await _fresh(text + " that goes on\n\nand another.")
        assert not any(b.is_attached for b in before)
        # the same text with more after it, but of another step: drawn afresh
        shown = _blocks(app)
        await _draw(pilot, text + " that goes on\n\nand another.\n\n## More", step=2)
        assert not any(b.is_attached for b in shown)
        assert _read(_blocks(app)) == await _fresh(text + " that goes on\n\nand another.\n\n## More")
