"""The line scanner that finds a step's headings (tutor/lesson/headings.py) answers what markdown-it
answers, or leaves the file to it: on every lesson's step files, and on generated markdown made of
the shapes that decide where a heading is (fences, lists, quotes, HTML, setext underlines)."""

from __future__ import annotations

import random
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.lesson.headings import headings
from tutor.lesson.loader import markdown_it_headings

STEP_FILES = sorted(Path(str(resources.files("tutor.lessons"))).glob("*/steps/*.md"))


def test_every_lesson_has_step_files():
    assert len({p.parts[-3] for p in STEP_FILES}) >= 3 and len(STEP_FILES) >= 30


@pytest.mark.parametrize("path", STEP_FILES, ids=lambda p: f"{p.parts[-3]}/{p.name}")
def test_the_scanner_reads_every_step_file_as_markdown_it_does(path):
    md = path.read_text(encoding="utf-8")
    found = headings(md)
    assert found is not None, "a lesson's step file should be one the scanner reads (it starts no markdown-it)"
    assert found == markdown_it_headings(md)


@pytest.mark.parametrize("md,title", [
    ("## Hint ##", "Hint"), ("## Hint##", "Hint##"), ("## #", ""), ("##", ""), ("#   Title   ", "Title"),
    ("## Hint #2 #", "Hint #2"), ("## `#` ##  ", "`#`"),
])
def test_titles_are_cut_as_markdown_it_cuts_them(md, title):
    assert headings(md) == markdown_it_headings(md) == [(f"h{md.count('#', 0, 2)}", title, 0, 1)]


@pytest.mark.parametrize("md", [
    "# T\n\n  ## indented\n",                 # a heading indented (in a list item, or not)
    "# T\n\nText\n---\n",                     # a setext heading
    "# T\n\n---\n",                           # a thematic break (a setext underline after text)
    "# T\n\n> ## quoted\n",                   # a heading in a block quote
    "# T\n\n<div>\n## in html\n</div>\n",     # an HTML block
    "# T\n\n- ## in a list item\n",           # a heading on a list item's line
    "# T\n\n- item\n  ```\n## after\n  ```\n",  # a list item's fence, ended by a line less indented
    "# T\r\n\r\n## Hint\r\n",                 # carriage returns
    "# T\n\n\t## tab\n",                      # a tab
])
def test_shapes_it_does_not_follow_are_left_to_markdown_it(md):
    assert headings(md) is None


def test_a_heading_inside_a_fence_is_code():
    md = "# T\n\n```sh\n# a comment\n## another\n```\n\n~~~\n```\n## still code\n~~~\n## Hint\n"
    assert headings(md) == markdown_it_headings(md) == [("h1", "T", 0, 1), ("h2", "Hint", 11, 12)]


# Lines of the shapes that decide where a heading is, in any order.
LINES = [
    "", "text", "more text *emph*", "# Title", "## Hint", "## Hint ##", "### Deeper", "#no heading", "####### seven",
    "  ## indented", "    ## code", "```", "```sh", "````", "``` `x`", "~~~", "~~~ info", "  ```", "   ~~~",
    "- item", "1. item", "- ## in item", "  continued", "> quote", "> ## quoted", "<!-- source: a «b» -->",
    "<!-- open", "-->", "<div>", "---", "===", "- - -", "***", "text <!-- note -->", "\\## escaped",
]


def test_where_the_scanner_answers_it_answers_as_markdown_it():
    rng = random.Random(41)
    answered = 0
    for _ in range(3000):
        md = "\n".join(rng.choices(LINES, k=rng.randint(0, 14))) + rng.choice(["", "\n"])
        found = headings(md)
        if found is not None:
            answered += 1
            assert found == markdown_it_headings(md), md
    assert answered > 300  # it answers often enough for the comparison to say something


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(LINES), max_size=14))
def test_generated_markdown_finds_no_disagreement(lines):
    md = "\n".join(lines)
    found = headings(md)
    if found is not None:
        assert found == markdown_it_headings(md)
