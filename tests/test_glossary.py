"""One Korean word per concept (lessons/glossary.yaml): every lesson text (step markdown, intros,
lesson.yaml) and every Korean string literal of tutor/ and lessons/ (.py) uses the glossary's word,
never a variant it lists, and none of the calques it lists."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = yaml.safe_load((ROOT / "lessons" / "glossary.yaml").read_text(encoding="utf-8"))
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def rules() -> list[tuple[re.Pattern, str]]:
    out = [(re.compile(re.escape(v)), f"{v} -> {t['ko']} ({t['en']})") for t in GLOSSARY["terms"] for v in t["avoid"]]
    out += [(re.compile(p["avoid"] if p.get("regex") else re.escape(p["avoid"])), f"{p['avoid']} -> {p['write']}")
            for p in GLOSSARY["phrases"]]
    return out


RULES = rules()


def korean_strings(path: Path) -> list[str]:
    """The string literals of a module that hold Korean (f-strings' literal parts included)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and HANGUL.search(n.value)]


def texts() -> list[tuple[str, str]]:
    out = []
    for p in sorted((ROOT / "lessons").rglob("*")):
        if p.name == "glossary.yaml" or not p.is_file():
            continue
        if p.suffix in (".md", ".yaml"):
            out.append((str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")))
        elif p.suffix == ".py":
            out += [(str(p.relative_to(ROOT)), s) for s in korean_strings(p)]
    for p in sorted((ROOT / "tutor").rglob("*.py")):
        out += [(str(p.relative_to(ROOT)), s) for s in korean_strings(p)]
    return out


def offences(text: str) -> list[str]:
    return [why for rule, why in RULES if rule.search(text)]


def test_every_term_has_one_word_and_its_variants():
    words = [t["ko"] for t in GLOSSARY["terms"]]
    assert len(words) == len(set(words))
    assert all(t["avoid"] and t["ko"] not in t["avoid"] for t in GLOSSARY["terms"])


def test_the_lab_pages_words_come_first():
    """A term marked as the lab page's is written so on the lab page (shared wording with it)."""
    lab = ROOT.parent / "shared" / "lab" / "seed-lab-page.ko.txt"
    if not lab.exists():
        pytest.skip("the lab page is not beside this checkout")
    page = lab.read_text(encoding="utf-8")
    assert [t["ko"] for t in GLOSSARY["terms"] if t.get("from") == "lab page" and t["ko"] not in page] == []


@pytest.mark.parametrize("where,text", texts(), ids=lambda v: v if "/" in str(v) else "")
def test_no_text_uses_a_variant_the_glossary_forbids(where, text):
    assert not offences(text), (where, offences(text), text[:200])


def test_the_scan_would_catch_one():
    assert offences("그룹씩 차례로 롤아웃") and offences("레이블을 보세요") and offences("안티 어피니티")
    assert not offences("한 그룹씩 차례로 롤링 업데이트") and not offences("두 그룹씩") and not offences("라벨을 보세요")
