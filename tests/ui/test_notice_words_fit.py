"""Every notice the tutor words (each saying(...) in tutor/: a notice is the one thing said as
Said) fits the notices' line at 60 columns whole, in both languages: the line is one row, and
what does not fit is cut with "…". Fields are filled as a two-digit step would fill them. A
field of no bound (a path, a system's reason) cannot be held to a width: such a notice is a
warning, whose whole the lab check panel keeps (tutor/ui/services/notices.py); only its words
are listed here, as known to run past the line."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from rich.cells import cell_len

from tutor.i18n.bilingual import say

TUTOR = Path(__file__).resolve().parents[2] / "tutor"
WIDTH = 60 - 2  # the notices' line less its padding, at 60 columns
UNBOUNDED = {"path", "err", "why", "host"}  # fields whose text has no bound
# Notices with an unbounded field that run past the line even with it short: said whole in the lab check panel.
PAST_THE_LINE = {"Progress not saved to {path}: {err}. It is kept while lwstutor runs."}


def notice_words() -> list[tuple[str, str, str, frozenset[str]]]:
    """(where, English, Korean, its fields) of each saying() with its words written out."""
    out = []
    for path in sorted(TUTOR.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "saying" \
                    and len(node.args) == 2 and all(isinstance(a, ast.Constant) for a in node.args):
                fields = frozenset(k.arg for k in node.keywords if k.arg)
                out.append((f"{path.relative_to(TUTOR.parent)}:{node.lineno}", node.args[0].value,
                            node.args[1].value, fields))
    return out


WORDS = notice_words()


def test_the_walk_finds_the_notices():
    assert len(WORDS) > 20, len(WORDS)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_every_notice_fits_the_line_at_60_columns(lang):
    cut = []
    for where, en, ko, fields in WORDS:
        if en in PAST_THE_LINE:
            continue
        text = say(lang, en, ko, **{f: ("x" if f in UNBOUNDED else "10") for f in fields})
        if cell_len(text) > WIDTH:
            cut.append(f"{where}: {text!r} ({cell_len(text)} cells)")
    assert not cut, "\n".join(cut)


def test_the_notices_known_to_run_past_the_line_still_exist():
    assert PAST_THE_LINE <= {en for _, en, _, _ in WORDS}
