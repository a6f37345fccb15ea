"""The `#` and `##` headings of a step's markdown, found line by line without markdown-it.

A step file is split into sections at these headings before the tutor's first frame (the
current step's hints and solution decide the footer's keys), and importing markdown-it costs more
than the rest of the lesson's loading. This scanner reads the plain shapes the lessons use: ATX
headings at the start of a line, fenced code blocks (whose `# comment` lines are not headings),
one-line `<!-- ... -->` notes, lists and paragraphs. For anything whose block structure depends
on more than that (a heading indented or inside a list item or quote, a setext underline or a
`---`, an HTML block, a fence inside a list, a tab, a carriage return) it answers None, and
markdown-it finds the headings instead. Where it answers, it answers what markdown-it does
(tests/test_lesson_headings.py compares the two on every lesson's files and on generated ones).
"""

from __future__ import annotations

import re

# (tag, title, the heading's line, the line after it): what markdown-it's heading_open tokens say
Heading = tuple[str, str, int, int]

# Anything that makes a line-by-line reading unsafe, wherever it is: tabs and line breaks other
# than "\n" (markdown-it and str.splitlines count lines differently around them), NUL.
_UNSAFE_TEXT = re.compile("[\t\r\x00\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
_FENCE = re.compile(r"( {0,3})(`{3,}|~{3,})(.*)")
_ATX = re.compile(r"#{1,6}(?= |$)")
# Outside a fence: a line whose block is not one this scanner follows (see the module's note).
_UNSAFE_LINE = re.compile(
    r"\s+#"                           # an indented heading (in a list item, or a code block)
    r"|\s*(?:=+|-+)\s*$"              # a setext underline, or a thematic break that may be one
    r"|\s*>"                          # a block quote
    r"|\s*<(?!!--.*-->)"              # an HTML block (a one-line comment is a block of its own)
    r"|\s*(?:(?:[-+*]|\d{1,9}[.)])\s+)+(?:#|>|<|```|~~~)"  # a list item opening a heading, quote, HTML or fence
)


def headings(md: str) -> list[Heading] | None:
    """The h1 and h2 headings of `md` as markdown-it (CommonMark, block level) finds them, or
    None when the file has a shape this scanner leaves to markdown-it."""
    if _UNSAFE_TEXT.search(md):
        return None
    found: list[Heading] = []
    fence: tuple[str, int, int] | None = None  # (marker character, its length, its indent)
    for n, line in enumerate(md.splitlines()):
        if fence is not None:
            char, length, indent = fence
            if line.strip(" ") and len(line) - len(line.lstrip(" ")) < indent:
                return None  # less indented than its fence: a list item's fence, which this ends
            stripped = line.lstrip(" ")
            if (len(line) - len(stripped) <= 3 and stripped.startswith(char * length)
                    and not stripped.rstrip(" ").strip(char)):
                fence = None
            continue
        if _UNSAFE_LINE.match(line):
            return None
        opened = _FENCE.match(line)
        if opened and not (opened[2][0] == "`" and "`" in opened[3]):
            fence = (opened[2][0], len(opened[2]), len(opened[1]))
            continue
        level = _ATX.match(line)
        if level and len(level[0]) <= 2:
            found.append((f"h{len(level[0])}", _title(line[len(level[0]):]), n, n + 1))
    return found


def _title(rest: str) -> str:
    """A heading's text after its opening #s, as markdown-it cuts it: without the spaces around
    it, and without a closing run of #s that a space comes before."""
    end = len(rest.rstrip(" "))
    start = end
    while start > 0 and rest[start - 1] == "#":
        start -= 1
    if 0 < start < end and rest[start - 1] == " ":
        end = start
    return rest[:end].strip()
