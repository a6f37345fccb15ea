"""No Korean particle written by hand after a placeholder, a closing quote, backtick or brace in
the sources: the word before it changes (a pod's name, a path, a count) or is code-quoted, and
only a `{field:particle}` spec (tutor/i18n/particles.py) picks the particle that fits it. `} 와`, `}를`,
`` `를 `` and `{real} 였습니다` are each a particle that fits one word and not the next."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted([*(ROOT / "tutor").rglob("*.py"), *(ROOT / "lessons").rglob("*.py")])

# The particles whose form depends on the word before them, and the copula after a value.
PARTICLES = "은|는|이|가|을|를|과|와|으로|로|이라는|라는|이었|였|이에요|예요"
# After a placeholder's closing brace, or a closing quote or backtick, maybe spaced off it; a
# particle ends where Hangul does (를 in 를요 is no particle: "이다" and "이름" are not flagged).
BY_HAND = re.compile(rf"(?:\}}|[`'\"’”])\s?({PARTICLES})(?![가-힣])|\}}\s?(이었|였)")
FIELD = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(?:![rsa])?(?::[^{}]*)?\}")


def strings(path: Path):
    """(line, text) of each string literal; an f-string's fields read as "{}"."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inside_f = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for v in node.values}
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            yield node.lineno, "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in inside_f:
            yield node.lineno, node.value


def by_hand(text: str) -> list[str]:
    if not re.search(r"[가-힣]", text):
        return []
    # a field with a particle spec ({pod:을}) is the right way; keep only the bare closing brace
    spec = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*:(?:" + PARTICLES + r"|이었습니다|였습니다)\}")
    text = spec.sub("WORD", text)
    return [m.group(0) for m in BY_HAND.finditer(text)]


def test_the_scan_catches_each_kind():
    for bad in ("{a} 와 {b}", "{path}를 여세요", "`sh -c`를 씁니다", "{real} 였습니다", "'x'가 없습니다",
                "{n}로 바꾸세요", "{x} 와 y"):
        assert by_hand(bad), bad
    for good in ("{a:와} {b}", "{path:을} 여세요", "{cmd:을} 씁니다", "{real:이었습니다}", "{n}번째 줄",
                 "{pod}의 이름", "{n}개", "{x}에서", "이름이 {name}이다", "llm-0과 llm-1"):
        assert not by_hand(good), good


def test_no_particle_is_written_by_hand_after_a_field_or_a_quote():
    found = [f"{path.relative_to(ROOT)}:{line}: {hit!r} in {text!r}"
             for path in SOURCES for line, text in strings(path) for hit in by_hand(text)]
    assert found == [], "\n".join(found)


def test_no_word_that_reads_otherwise():
    """돕니다 reads as "helps", not "runs"; "그룹씩" needs its count ("한 그룹씩")."""
    found = [f"{path.relative_to(ROOT)}:{line}: {text!r}" for path in SOURCES for line, text in strings(path)
             if "돕니다" in text or re.search(r"(?<!한 )(?<!두 )그룹씩", text)]
    assert found == [], "\n".join(found)
