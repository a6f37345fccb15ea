"""Every message the tutor says, read from its sources: each say(lang, english, korean, ...) call
of tutor/ and lessons/, with both texts as written (a text written in pieces is one text), and
each key declared with keyed(). Tests check the messages without running the code that says them."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = tuple(sorted([*(ROOT / "tutor").rglob("*.py"), *(ROOT / "lessons").rglob("*.py")]))


@dataclass(frozen=True)
class Said:
    path: str  # relative to the repository
    line: int
    en: str | None  # None: not a text written there (a pair passed on, *words, or an f-string's value)
    ko: str | None

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


def _text(node: ast.AST) -> str | None:
    """A literal text; an f-string reads its fields as "{}"."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def _name(func: ast.AST) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


@cache
def trees() -> tuple[tuple[str, ast.Module], ...]:
    return tuple((str(p.relative_to(ROOT)), ast.parse(p.read_text(encoding="utf-8"))) for p in SOURCES)


@cache
def said() -> tuple[Said, ...]:
    """Every say() call: its English and Korean where they are texts written at the call."""
    out = []
    for path, tree in trees():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node.func) == "say" and path != "tutor/i18n/bilingual.py":
                texts = [a for a in node.args[1:] if not isinstance(a, ast.Starred)]
                en = _text(texts[0]) if len(texts) >= 1 else None
                ko = _text(texts[1]) if len(texts) >= 2 else None
                out.append(Said(path, node.lineno, en, ko))
    return tuple(out)


@cache
def pairs() -> tuple[Said, ...]:
    """The (English, Korean) pairs written as tuples of two texts, the Korean one with Hangul in
    it: a pair kept as a value (a key's words, a demo's last words, a column's header)."""
    out = []
    for path, tree in trees():
        for node in ast.walk(tree):
            if isinstance(node, ast.Tuple) and len(node.elts) == 2:
                en, ko = (_text(e) for e in node.elts)
                if en is not None and ko is not None and any("가" <= c <= "힣" for c in ko):
                    out.append(Said(path, node.lineno, en, ko))
    return tuple(out)


def korean(prefixes: tuple[str, ...] = ("",)) -> list[str]:
    """Every Korean text said or kept as a pair, in the sources whose path starts with a prefix."""
    return [s.ko for s in (*said(), *pairs()) if s.ko is not None and s.path.startswith(prefixes)]
