"""argparse's help laid out by the columns a terminal gives each character, not by characters:
a Korean syllable takes two columns, so help wrapped by characters ran past the terminal."""

from __future__ import annotations

import argparse
import re
import unicodedata

from tutor.i18n import catalogue


class CellHelpFormatter(argparse.HelpFormatter):
    """The help's usage line with the learner's prefix, and its text wrapped by the columns it
    takes on the terminal: argparse counts characters, and a Korean syllable takes two columns
    (Korean help wrapped at 78 characters ran over an 80-column terminal)."""

    lang = "en"

    def add_usage(self, usage, actions, groups, prefix=None):  # noqa: D102 - argparse's
        # argparse's own prefix, said here so that the usage is laid out knowing it
        prefix = prefix if prefix is not None else catalogue.of("argparse", self.lang).gettext("usage: ")
        return super().add_usage(usage, actions, groups, prefix)

    def _format_usage(self, usage, actions, groups, prefix):  # noqa: D102 - argparse's, wrapped in cells
        # argparse wraps the usage by characters: a Korean prefix (사용법:) and value names (파일)
        # take two columns a syllable, so its lines ran past the terminal. It is laid out on one
        # line, then wrapped here by the columns each part takes.
        width = self._width
        self._width = 10**6
        try:
            text = super()._format_usage(usage, actions, groups, prefix)
        finally:
            self._width = width
        line = " ".join(text.split())
        head = f"{prefix}{self._prog}"
        if not line.startswith(head) or cells(line) <= width:
            return text
        parts = re.findall(r"\[[^\[\]]*\]|\([^()]*\)|\S+", line[len(head):])
        indent = " " * (cells(head) + 1)
        out, cur = [], head
        for part in parts:
            if cells(cur) + 1 + cells(part) > width and cur.strip() and cur != head:
                out.append(cur)
                cur = indent + part
            else:
                cur = f"{cur} {part}"
        out.append(cur)
        return "\n".join(out) + "\n\n"

    # argparse lines the help up by characters; a Korean value name (파일) takes two columns per
    # syllable, so the column where the help starts is measured in cells here.
    def add_argument(self, action):  # noqa: D102 - argparse's, measured in cells
        super().add_argument(action)
        if action.help is not argparse.SUPPRESS:
            shown = [self._format_action_invocation(a) for a in (action, *self._iter_indented_subactions(action))]
            self._action_max_length = max(self._action_max_length, max(map(cells, shown)) + self._current_indent)

    def _format_action(self, action):  # noqa: D102 - argparse's, measured in cells
        help_position = min(self._action_max_length + 2, self._max_help_position)
        header = self._format_action_invocation(action)
        fits = cells(header) <= help_position - self._current_indent - 2
        lines = self._split_lines(self._expand_help(action), max(self._width - help_position, 11)) \
            if action.help and action.help.strip() else []
        indent = " " * self._current_indent
        if lines and fits:
            pad = " " * (help_position - self._current_indent - cells(header))
            parts = [f"{indent}{header}{pad}{lines[0]}\n"] + [" " * help_position + line + "\n" for line in lines[1:]]
        else:
            parts = [f"{indent}{header}\n"] + [" " * help_position + line + "\n" for line in lines]
        parts += [self._format_action(sub) for sub in self._iter_indented_subactions(action)]
        return self._join_parts(parts)

    def _split_lines(self, text, width):  # noqa: D102 - argparse's
        return wrap_cells(" ".join(text.split()), width)

    def _fill_text(self, text, width, indent):  # noqa: D102 - argparse's
        return "\n".join(indent + line for line in wrap_cells(" ".join(text.split()), width - len(indent)))


def cells(text: str) -> int:
    """The columns `text` takes on a terminal (East Asian wide and full-width characters: two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def wrap_cells(text: str, width: int) -> list[str]:
    """Words into lines of at most `width` columns (a word wider than that on a line of its own,
    cut)."""
    width = max(width, 10)
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        while cells(word) > width:  # a path longer than the line: cut it
            cut = next(i for i in range(len(word), 0, -1) if cells(word[:i]) <= width)
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:cut])
            word = word[cut:]
        if line and cells(line) + 1 + cells(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines


def formatter_for(lang: str) -> type[argparse.HelpFormatter]:
    """The formatter of a parser that speaks `lang` (argparse takes a class, not an instance)."""
    return type("HelpFormatter", (CellHelpFormatter,), {"lang": lang})
