"""The lesson is data: every step in both languages, with hints, a solution and a recap."""

from __future__ import annotations

import pytest

from tutor.lesson.loader import LessonError, load, split_sections


def test_lesson_shape():
    lesson = load()
    assert lesson.namespace == "infer" and lesson.workdir == "/root/gsb-lws"
    assert lesson.gpu_resource == "nvidia.com/gpu" and set(lesson.languages) == {"ko", "en"}
    assert [s.id for s in lesson.steps] == ["create-llm", "names", "env", "dns", "restart-group", "rollout",
                                          "exclusive", "orphan"]
    for step in lesson.steps:
        assert callable(step.checks().check) and step.checks().READS is not None
        for lang in ("ko", "en"):
            text = step.text(lang)
            assert text.title == step.title(lang)
            assert len(text.hints) >= 2, (step.id, lang)  # the solution, apart from them, is the last rung
            assert text.solution and text.recap and text.body
        assert len(step.text("ko").hints) == len(step.text("en").hints)
    assert set(lesson.answer_files) == {"lws.yaml", "names.txt", "env.txt", "dns.txt", "restart.txt",
                                        "wide.yaml", "partial.txt"}


def test_heading_inside_code_block_is_not_a_section():
    md = "# T\n\nbody\n\n```sh\n## not a heading\n```\n\n## Hint\n\none\n\n## What you just saw\n\nr\n"
    text = split_sections(md, "Hint", "What you just saw", "x.md")
    assert "## not a heading" in text.body and text.hints == ("one",) and text.recap == "r"


def test_titles_keep_their_markup_as_written():
    md = "# Run `kubectl` *now*\n\nbody with **bold**\n\n## Hint: the `-w` flag\n\none\n"
    text = split_sections(md, "Hint", "What you just saw", "x.md")
    assert text.title == "Run `kubectl` *now*" and text.body == "body with **bold**"
    assert text.hints == ("one",)


def test_the_solution_is_its_own_section_after_the_hints():
    md = "# T\n\nbody\n\n## Hint\n\none\n\n## Solution\n\nall of it\n\n## What you just saw\n\nr\n"
    text = split_sections(md, "Hint", "What you just saw", "x.md")
    assert text.hints == ("one",) and text.solution == "all of it" and text.recap == "r"
    ko = "# T\n\n본문\n\n## 힌트\n\n하나\n\n## 풀이\n\n전부\n"
    assert split_sections(ko, "힌트", "방금 본 것", "x.md", "풀이").solution == "전부"
    assert split_sections("# T\n\nb\n\n## Hint\n\none\n", "Hint", "What you just saw", "x.md").solution == ""


@pytest.mark.parametrize("md,msg", [
    ("# T\n## Hint\na\n## Solution\nb\n## Hint\nc", "after '## Solution'"),
    ("# T\n## Hint\na\n## Solution\nb\n## Solution\nc", "only one '## Solution'"),
    ("no title\n## Hint\nx", "must start with"),
    ("# T\n## Surprise\nx\n## Hint\ny", "unknown section"),
    ("# T\nbody", "at least one"),
])
def test_bad_markdown_is_reported(md, msg):
    with pytest.raises(LessonError, match=msg):
        split_sections(md, "Hint", "What you just saw", "x.md")
