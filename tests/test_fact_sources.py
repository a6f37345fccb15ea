"""Every fact a lesson teaches names the code that shows it, and the code still says it.

Each source note of a lesson (markdown comments, prediction choices' `source:`, checkers' `# source:`
comments) cites a file of a Go module at the version the lab runs, with a verbatim snippet
(tests/fact_sources.py). Here the snippet is looked for in the module cache that the lab build fills
(tests/e2e/labcluster/build.sh): a fact whose code moved or changed fails. Without a module cache the
lookup skips, except under CI=true, where the lab build has made one.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.fact_sources import (
    SHORTEST_SNIPPET,
    Citation,
    Note,
    all_notes,
    citations,
    find,
    module_cache,
    notes_in_markdown,
    pinned_modules,
)

NOTES = all_notes()
CITED = sorted({c for n in NOTES for c in n.citations}, key=str)


def test_there_are_notes_in_every_lesson():
    lessons = {Path(n.file.split()[0]).parts[1] for n in NOTES}
    assert {"lws", "gang", "scale"} <= lessons
    assert len(CITED) >= 40


@pytest.mark.parametrize("note", NOTES, ids=lambda n: f"{n.file}:{n.line}")
def test_each_note_is_a_citation_of_the_lab_source(note: Note):
    """A note is one or more citations and nothing else: a link or a bare path pins no line."""
    assert note.citations, f"{note.file}:{note.line}: no citation in {note.text!r}"
    assert not note.leftover(), f"{note.file}:{note.line}: {note.leftover()!r} is not a citation"
    pinned = pinned_modules()
    for c in note.citations:
        assert f"{c.module}@{c.version}" in pinned, f"{note.file}:{note.line}: {c.module}@{c.version} is not the lab's"
        assert len(c.snippet) >= SHORTEST_SNIPPET, f"{note.file}:{note.line}: «{c.snippet}» is too short to pin"


def _pairs():
    for en in sorted(Path("lessons").rglob("*.en.md")):
        ko = en.with_name(en.name.replace(".en.md", ".ko.md"))
        if ko.exists():
            yield en, ko


@pytest.mark.parametrize("en,ko", list(_pairs()), ids=lambda p: str(p))
def test_both_languages_cite_the_same_code(en: Path, ko: Path):
    root = Path(__file__).resolve().parent.parent
    cite = [[str(c) for c in n.citations] for n in notes_in_markdown(root / en)]
    assert cite == [[str(c) for c in n.citations] for n in notes_in_markdown(root / ko)]


@pytest.mark.parametrize("citation", CITED, ids=str)
def test_the_snippet_is_in_the_cited_file(citation: Citation):
    cache = module_cache()
    if cache is None or not (cache / f"{citation.module}@{citation.version}").is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail(f"no module cache with {citation.module}@{citation.version} under CI (tests/run.sh builds it)")
        pytest.skip("no Go module cache here (tests/e2e/labcluster/build.sh fills it)")
    assert find(cache, citation) is None, find(cache, citation)


def test_the_checks_would_catch_one(tmp_path: Path):
    good = citations("k8s.io/kubernetes@v1.37.2 pkg/a.go (F) «func F(x int) error {»")
    assert good and good[0].path == "pkg/a.go" and good[0].where == "F"
    link = Note("x.md", 1, "https://kubernetes.io/docs/", citations("https://kubernetes.io/docs/"))
    assert not link.citations
    mixed_text = "k8s.io/kubernetes@v1.37.2 pkg/a.go «func F(x int) error {» and more"
    assert Note("x.md", 1, mixed_text, citations(mixed_text)).leftover() == "andmore"
    (tmp_path / "k8s.io" / "kubernetes@v1.37.2" / "pkg").mkdir(parents=True)
    (tmp_path / "k8s.io" / "kubernetes@v1.37.2" / "pkg" / "a.go").write_text("func F(x int)\n\terror {\n}\n")
    assert find(tmp_path, good[0]) is None
    moved = Citation("k8s.io/kubernetes", "v1.37.2", "pkg/a.go", "func F(y int) error {")
    assert find(tmp_path, moved)
    assert find(tmp_path, Citation("k8s.io/kubernetes", "v1.37.2", "pkg/b.go", "func F(x int) error {"))
    assert "k8s.io/kubernetes@v1.37.2" in pinned_modules() and "sigs.k8s.io/lws@v0.9.0" in pinned_modules()
