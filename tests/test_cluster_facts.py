"""tutor/cluster gives facts, not words: no Korean is written there and nothing is said there.
Its failures, connection errors, recording errors and unserved kinds are codes and fields;
tutor/narration words them (pyproject.toml's contract keeps tutor.narration and tutor.i18n out of
the cluster's imports; these scans read what a contract cannot see)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLUSTER = sorted((ROOT / "tutor" / "cluster").rglob("*.py"))
HANGUL = re.compile("[\uac00-\ud7a3]")
SAYING = {"say", "pick", "both", "os_reason", "system_reason", "fill", "attach"}  # tutor/i18n's ways to word


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name


def korean_in(path: Path) -> list[str]:
    return [f"{_shown(path)}:{n}: {line.strip()}"
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1) if HANGUL.search(line)]


def saying_in(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"{_shown(path)}:{node.lineno}: {node.func.id}()" for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in SAYING]


def test_the_cluster_writes_no_korean():
    assert len(CLUSTER) > 20
    found = [hit for path in CLUSTER for hit in korean_in(path)]
    assert found == [], "\n".join(found)


def test_the_cluster_says_nothing():
    found = [hit for path in CLUSTER for hit in saying_in(path)]
    assert found == [], "\n".join(found)


def test_each_scan_would_catch_its_defect(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('from tutor.i18n.bilingual import say\n\nx = say(lang, "gone", "없음")\n', encoding="utf-8")
    assert korean_in(bad) == ['bad.py:3: x = say(lang, "gone", "없음")']
    assert saying_in(bad) == ["bad.py:3: say()"]
